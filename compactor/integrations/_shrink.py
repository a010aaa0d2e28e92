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
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from compactor.contract import LIMITS
from compactor.engine import compact
from compactor.errors import Problem, ProblemError
from compactor.formats import (
    FORMATS,
    RESPONSES_FORMAT,
    Conversion,
    Exported,
    apply_fixes,
    convert,
    detect_format,
    export,
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
            the conversation is over the request's limits (else :class:`ShrinkError`).

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
    conversion = _conversion(source, lossy_fixes)
    base = {**conversion.request, **_request_params(chosen)}
    fit = _budget(base, chosen)
    request = {**base, "budget_chars": fit.budget_chars if fit else chosen.budget_chars}
    empty = {call for _, call in conversion.removed_results}
    if chosen.strategy == MEMORY_COMPACT:
        response, written, outcome = compact(request), request, None
    else:
        outcome = apply_strategy(
            chosen.strategy,
            validate(request),
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
    report = report_of(chosen, conversion, request, response, outcome, exported, fit)
    return Shrunk(source.wrap(exported), report)


def _request_params(setting: Setting) -> dict[str, Any]:
    if setting.strategy != MEMORY_COMPACT:
        return {}
    return {k: list(v) if isinstance(v, tuple) else v for k, v in setting.params.items()}


def _budget(request: dict[str, Any], setting: Setting) -> TokenFit | None:
    if setting.budget_tokens is None:
        return None
    return fit_tokens(
        request,
        setting.strategy,
        dict(setting.params),
        setting.budget_tokens,
        setting.encoding or "o200k_base",
    )


def _conversion(source: _Source, lossy_fixes: bool) -> Conversion:
    conversion = convert(source.data, source.format)
    if conversion.needs_fixes:
        if not lossy_fixes:
            pending = [c.message for c in conversion.changes if c.kind in _PENDING]
            raise ShrinkError(
                [
                    Problem(f"{m}; pass lossy_fixes=True to make that fix", path="messages")
                    for m in pending
                ]
            )
        conversion = apply_fixes(conversion)
    return conversion


_PENDING = ("too-many-messages", "content-too-long")


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
