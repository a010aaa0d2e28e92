"""``shrink(messages, setting)``: the production one-liner. A conversation in the format an agent
holds it in goes in; the same conversation, compacted by the setting, comes out in that format.

It is exactly the import, the strategy and the export, in one call: the messages are read as
``python -m compactor import`` reads them (:func:`compactor.formats.convert`), compacted by the
setting's strategy at its budget (memory-compact: :func:`compactor.compact`), and written back
in the input's own format (:func:`compactor.formats.export`): structured tool calls again, and
the orphan half of a call/result pair dropped and reported, never sent.

>>> from compactor import shrink
>>> history = [
...     {"role": "system", "content": "You are a dispatcher."},
...     {"role": "user", "content": "Where is DE-4471? " * 20},
...     {"role": "assistant", "content": "It left Hamburg on Monday."},
...     {"role": "user", "content": "Book the return leg for Friday."},
... ]
>>> [m["content"] for m in shrink(history, {"budget_chars": 200, "params": {"keep_last_n": 2}})]
['You are a dispatcher.', 'It left Hamburg on Monday.', 'Book the return leg for Friday.']

The formats are the import's, every one of :data:`compactor.formats.FORMATS`: a request,
``{role, content}`` messages, OpenAI Chat Completions and Responses items, Anthropic Messages,
Vercel AI SDK, LangChain messages (objects or ``messages_to_dict`` dicts; the langchain extra to
write them) and ShareGPT, as a list or in their envelope (a Chat Completions body, ``{"system",
"messages"}``, ``{"conversations"}``: the envelope comes back with its messages replaced). A
format the registry only reads (an agent's log, a file of one record) comes back as a request:
its messages compacted, with the parameters used, as ``python -m compactor shrink`` prints it.

Tool calls' ids are settled before compacting, in a format that sends them
(:func:`compactor.formats.settle_ids`): a call without one gets ``call_<message>_<k>``, and a
call repeating an earlier call's id a fresh one, its result too (each said in the report's
``export_notes``), so that no two calls sent share an id and the characters counted are those
sent. When the setting compacts nothing (no message removed, cut or replaced, no lossy fix made
and no id settled), the messages come back exactly as given (a shallow copy: the same items,
in a new list or envelope), in every format written back as itself: what the import could not
carry across (a ``reasoning`` item, an id, an image) is then not lost, and nothing is dropped as
an orphan that the input already held.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from compactor.contract import AGENT_LIMITS, CONTRACT_LIMITS, LIMITS
from compactor.engine import compact
from compactor.errors import Problem, ProblemError
from compactor.formats import (
    FORMATS,
    RESPONSES_FORMAT,
    WRITES_IDS,
    Conversion,
    Exported,
    apply_fixes,
    convert,
    detect_format,
    export,
    settle_ids,
)
from compactor.input import validate
from compactor.integrations._budget import MEMORY_COMPACT, TokenFit, fit_tokens
from compactor.integrations._shrink_report import ShrinkReport, report_of, unchanged_report
from compactor.strategies import (
    REMOVED,
    Setting,
    SettingError,
    StrategyResult,
    apply_strategy,
    load_setting,
)

#: What ``setting`` may be: a Setting, its dict, or the path of a ``compaction.toml``.
SettingLike = Setting | Mapping[str, Any] | str | os.PathLike


#: A conversation shorter than this is returned as it is (a request needs this many).
MIN_MESSAGES = LIMITS["min_messages"]


#: The ``format`` that names OpenAI Responses API input items (the Agents SDK's sessions).
RESPONSES = RESPONSES_FORMAT


class ShrinkError(ProblemError):
    """A conversation ``shrink`` cannot compact as it is; the problem says what to do."""


@dataclass(frozen=True)
class Shrunk:
    """What :func:`shrink_with_report` returns: the compacted messages, in the input's own
    format, and the report of what was removed."""

    messages: Any
    report: ShrinkReport


def as_setting(setting: SettingLike) -> Setting:
    """A :class:`Setting` from a Setting, a dict, or the path of a ``compaction.toml``."""
    if isinstance(setting, Setting):
        return setting
    if isinstance(setting, str | os.PathLike):
        return load_setting(setting)
    if isinstance(setting, Mapping):
        return Setting.from_dict(setting)
    raise SettingError(
        [Problem("must be a Setting, a dict or the path of a compaction.toml", path="setting")]
    )


def shrink(
    messages: Any, setting: SettingLike, *, format: str | None = None, lossy_fixes: bool = False
) -> Any:
    """``messages`` compacted by ``setting``, in the same format (see the module's doc).

    Args:
        messages: a conversation in any format the import reads (a list of messages or items,
            LangChain message objects, or an envelope such as a Chat Completions body).
        setting: a :class:`Setting`, its dict, or the path of a ``compaction.toml``.
        format: the input's format (``openai``, ``anthropic``, ...) instead of detecting it.
        lossy_fixes: keep the last 200 messages and cut contents over 8,000 characters when
            the conversation is over the contract's limits; without it (the default) such a
            conversation is compacted whole, in the agent mode (any number of messages,
            contents of any length, a budget up to 2,000,000 characters).

    Returns:
        The compacted messages, of the input's type and format (a log the registry only reads
        comes back as a request).

    Raises:
        SettingError: the setting is not a valid ``compaction.toml`` (file, line and key).
        ShrinkError: the conversation cannot be compacted as it is (what, where, what to do),
            or the setting's strategy cannot run here (its extra is missing: the command).
        FormatError: the messages are not in a format the import reads, or hold problems it
            names with their path.
        IntegrationUnavailable: LangChain message objects without the langchain extra.

    Example:
        >>> from compactor import shrink
        >>> history = [{"role": "system", "content": "You are a dispatcher."},
        ...     {"role": "user", "content": "Where is DE-4471? " * 20},
        ...     {"role": "assistant", "content": "It left Hamburg on Monday."},
        ...     {"role": "user", "content": "Book the return leg for Friday."}]
        >>> shrunk = shrink(history, {"budget_chars": 200, "params": {"keep_last_n": 2}})
        >>> [m["role"] for m in shrunk]
        ['system', 'assistant', 'user']
    """
    return shrink_with_report(messages, setting, format=format, lossy_fixes=lossy_fixes).messages


def shrink_with_report(
    messages: Any, setting: SettingLike, *, format: str | None = None, lossy_fixes: bool = False
) -> Shrunk:
    """:func:`shrink`, with the report of what it removed, cut and dropped beside the
    messages.

    Args:
        messages: as :func:`shrink` takes them.
        setting: as :func:`shrink` takes it.
        format: the input's format instead of detecting it.
        lossy_fixes: as :func:`shrink` takes it.

    Returns:
        :class:`Shrunk`: ``messages`` (as :func:`shrink` returns them) and ``report`` (the
        setting, the budget, what each stage or the strategy removed, and what the export
        dropped).

    Raises:
        SettingError, ShrinkError, FormatError, IntegrationUnavailable: as :func:`shrink`.

    Example:
        >>> from compactor import shrink_with_report
        >>> history = [{"role": "user", "content": "Where is DE-4471? " * 20},
        ...     {"role": "assistant", "content": "It left Hamburg on Monday."}]
        >>> setting = {"budget_chars": 100, "params": {"keep_last_n": 1}}
        >>> shrunk = shrink_with_report(history, setting)
        >>> shrunk.report.budget_met
        True
    """
    chosen = as_setting(setting)
    if isinstance(messages, list | tuple) and len(messages) < MIN_MESSAGES:
        return Shrunk(list(messages), unchanged_report(chosen, messages))  # nothing to compact
    source = _Source.read(messages, format)
    conversion, fixed = _conversion(source, lossy_fixes)
    # the ids sent are settled first, so that the characters counted are those sent
    settled = settle_ids(conversion.request["messages"]) if source.target in WRITES_IDS else None
    base = {**conversion.request, **_request_params(chosen)}
    if settled is not None:
        base["messages"] = settled.messages
    # a whole session over the contract's limits, or a setting that says so, is compacted in
    # the agent mode (on a request the contract takes, both answer the same)
    agent = conversion.needs_fixes or chosen.limits == AGENT_LIMITS
    limits = AGENT_LIMITS if agent else CONTRACT_LIMITS
    fit = _budget(base, chosen, limits)
    request = {**base, "budget_chars": fit.budget_chars if fit else chosen.budget_chars}
    renamed = settled.renamed if settled is not None else {}
    empty = {renamed.get((i, call), call) for i, call in conversion.removed_results}
    if chosen.strategy == MEMORY_COMPACT:
        response, written, outcome = compact(request, limits=limits), request, None
    else:
        outcome = apply_strategy(
            chosen.strategy,
            validate(request, limits=limits),
            budget_chars=request["budget_chars"],
            params=dict(chosen.params),
        )
        if not outcome.available:  # never an empty conversation in its place
            raise ShrinkError(
                [Problem(f"{chosen.strategy} cannot run: {outcome.unavailable}", path="strategy")]
            )
        response, written = _as_response(outcome, request)
    exported = export(
        response,
        written,
        source.target,
        empty_results=empty,
        source=source.data,
        sources=conversion.sources,
    )
    if settled is not None and settled.notes:
        exported = replace(exported, notes=settled.notes + exported.notes)
    report = _as_sent(
        report_of(chosen, conversion, request, response, outcome, exported, fit), exported
    )
    changed = fixed or (settled is not None and settled.changed)
    if source.as_itself and not (changed or report.removed or report.cut or report.replaced):
        # nothing compacted: the input as given, not as the import and the export re-made it
        return Shrunk(_copy(source.data), replace(report, export_notes=()))
    return Shrunk(source.wrap(exported), report)


#: Two one-character messages added to an export read back, so that it reads as a request
#: however few messages were sent (their two characters are taken off).
_PAD = ({"role": "user", "content": "."}, {"role": "assistant", "content": "."})


def _as_sent(report: ShrinkReport, exported: Exported) -> ShrinkReport:
    """The report counting the characters the Anthropic export sends: where the history kept
    two messages of one role in a row (what stood between them removed), it sends them as one
    message, as the API would combine them, and the import reads that message's texts joined
    by a blank line, so the budget counts a little more than the messages held apart. The
    report says so, and that the budget is missed when those characters are over it."""
    value = exported.value
    if exported.target != "anthropic" or not isinstance(value, dict):
        return report
    sent = value.get("messages")
    if not isinstance(sent, list) or len(sent) >= report.output_messages:
        return report  # nothing combined
    padded = {**value, "messages": [*sent, *_PAD]}
    read = convert(padded, "anthropic").request["messages"]
    chars = sum(len(m["content"]) for m in read) - sum(len(m["content"]) for m in _PAD)
    if chars <= report.output_chars:
        return report
    note = (
        f"messages of one role left side by side were sent as one message ({len(sent):,} "
        f"messages for {report.output_messages:,}); the blank lines that join their texts "
        f"count {chars - report.output_chars:,} more characters"
    )
    met = report.budget_met and chars <= report.budget_chars
    return replace(
        report, output_chars=chars, budget_met=met, export_notes=(*report.export_notes, note)
    )


def _copy(messages: Any) -> Any:
    """A shallow copy of the input: the same items in a new list (or envelope)."""
    if isinstance(messages, list | tuple):
        return list(messages)
    return dict(messages) if isinstance(messages, dict) else messages


def _request_params(setting: Setting) -> dict[str, Any]:
    if setting.strategy != MEMORY_COMPACT:
        return {}
    return {k: list(v) if isinstance(v, tuple) else v for k, v in setting.params.items()}


def _budget(request: dict[str, Any], setting: Setting, limits: str) -> TokenFit | None:
    if setting.budget_tokens is None:
        return None
    return fit_tokens(
        request,
        setting.strategy,
        dict(setting.params),
        setting.budget_tokens,
        setting.encoding or "o200k_base",
        limits=limits,
    )


def _conversion(source: _Source, lossy_fixes: bool) -> tuple[Conversion, bool]:
    """The input imported, and whether a lossy fix was made to it: only when ``lossy_fixes``
    asks for one; a conversation over the contract's limits is otherwise kept whole (its
    ``needs_fixes`` then says to compact it in the agent mode)."""
    conversion = convert(source.data, source.format)
    if conversion.needs_fixes and lossy_fixes:
        return apply_fixes(conversion), True
    return conversion, False


def _as_response(
    outcome: StrategyResult, request: Mapping[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A strategy's outcome as the export reads a response, and the request it is exported
    against: a replaced message's new content stands for its original, so its call lines are
    read from what is returned."""
    kept = [m for m in outcome.messages if m.kept != REMOVED]
    messages = [
        {"index": m.index, "role": m.role, "content": m.content}
        | ({} if m.id is None else {"id": m.id})
        for m in kept
    ]
    written = [dict(m) for m in request["messages"]]
    for m in kept:
        if m.kept == "replaced":
            written[m.index]["content"] = m.content
    return {"messages": messages}, {**request, "messages": written}


@dataclass(frozen=True)
class _Source:
    """The input, its format, and what it is written back as: its own format when that has a
    writer, else a request."""

    data: Any
    format: str

    @property
    def target(self) -> str:
        return self.format if FORMATS[self.format].write is not None else "request"

    @property
    def as_itself(self) -> bool:
        """Whether the conversation is written back in its own format (a request, the import's
        form, is written with the parameters used)."""
        return self.target == self.format and self.format != "request"

    @classmethod
    def read(cls, messages: Any, format: str | None) -> _Source:
        if isinstance(messages, tuple):
            messages = list(messages)
        return cls(messages, format or detect_format(messages))

    def wrap(self, exported: Exported) -> Any:
        """The exported value in the input's own shape: its envelope kept, an Anthropic list
        given back as a list."""
        value, envelope = exported.value, self.data
        if self.target != self.format or self.format == "request":
            return value
        if not isinstance(envelope, dict):
            if isinstance(value, dict):  # anthropic: a list in, a list out
                system = (
                    [{"role": "system", "content": value["system"]}] if "system" in value else []
                )
                return system + value["messages"]
            return value
        if isinstance(value, dict):
            rest = {k: v for k, v in envelope.items() if k != "system"}
            return {**rest, **value}
        return {**envelope, "messages": value}
