"""What a strategy returned of a history: each input message verbatim, cut, replaced or removed,
the messages it returns (role, content, id) and its totals in characters and estimated tokens."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from compactor.model import writer
from compactor.text import CHARS_PER_TOKEN

# How a strategy returned a message (``StrategyMessage.kept``).
VERBATIM = "verbatim"
CUT = "cut"  # a prefix of the message
#: Its content substituted, whole or in part (a cleared tool result, a masked observation, a
#: tool call whose input was cleared); ``chars`` counts what it returns, placeholder included.
REPLACED = "replaced"
REMOVED = "removed"
KEPT = (VERBATIM, CUT, REPLACED, REMOVED)

#: ``(start, end)`` code-point offsets into an input message's content.
Span = tuple[int, int]


@dataclass(frozen=True)
class StrategyMessage:
    index: int
    role: str
    original_chars: int
    kept: str  # "verbatim", "cut", "replaced" or "removed"
    chars: int  # characters returned (0 when removed)
    content: str | None = None  # the content returned; None when removed
    id: str | None = None  # the input message's id
    #: The spans of the input content returned verbatim, ordered and disjoint, when they are
    #: not what the fate says (a cut that keeps parts other than a prefix, as anchor-keep's;
    #: a replaced message that keeps its text around a cleared call); None otherwise.
    spans: tuple[Span, ...] | None = None

    @property
    def kept_spans(self) -> tuple[Span, ...]:
        """The spans of the input returned verbatim: the whole message, a cut's prefix (or its
        listed spans), a replaced message's listed spans (none: a placeholder holds no input),
        nothing for a removed message."""
        if self.spans is not None:
            return self.spans
        if self.kept == VERBATIM:
            return ((0, self.original_chars),)
        if self.kept == CUT:
            return ((0, self.chars),)
        return ()


@dataclass(frozen=True)
class StrategyResult:
    key: str  # the registry name: "memory-compact", "keep-last", "drop-oldest", ...
    name: str
    how: str  # how it was run, in words
    available: bool
    #: Why it could not run and how to fix that (LangChain not installed); None when it ran.
    unavailable: str | None
    parameters: Mapping[str, Any]  # what was passed to the strategy
    messages: tuple[StrategyMessage, ...]  # one per input message; empty when unavailable
    budget_chars: int
    output_chars: int | None  # None when unavailable
    output_messages: int | None
    cut_messages: int | None
    #: Estimated tokens of what it returns: ceil(characters / 4) per message, summed.
    tokens_estimate: int | None
    budget_met: bool | None
    stats: Mapping[str, int] | None = field(default=None)  # the seeds/003 trim's stats block
    replaced_messages: int | None = None

    @property
    def kept(self) -> tuple[int, ...]:
        """Indices of the messages returned, whole, cut or replaced."""
        return tuple(m.index for m in self.messages if m.kept != REMOVED)

    def returned(self) -> list[dict[str, Any]]:
        """The messages it returns, oldest first, as a request's messages (role, content and
        the id when the input message had one): ready to export or to send."""
        return [
            {"role": m.role, "content": m.content} | ({} if m.id is None else {"id": m.id})
            for m in self.messages
            if m.kept != REMOVED
        ]


_make_message = writer(StrategyMessage)


def message(
    index: int,
    role: str,
    original_chars: int,
    kept: str,
    chars: int,
    content: str | None = None,
    id: str | None = None,
    spans: tuple[Span, ...] | None = None,
) -> StrategyMessage:
    """``StrategyMessage(...)`` with the same fields, built by :func:`compactor.model.writer`
    (without the frozen dataclass's per-field ``object.__setattr__``): a lineup builds one per
    message per strategy, 12,000 of them on a session of 1,000 messages."""
    return _make_message(index, role, original_chars, kept, chars, content, id, spans)


def estimated_tokens(contents: Sequence[str]) -> int:
    """ceil(characters / 4) per message, summed (the seeds/003 trim's estimate)."""
    return sum(-(-len(c) // CHARS_PER_TOKEN) for c in contents)


def strategy_result(
    key: str,
    name: str,
    how: str,
    parameters: Mapping[str, Any],
    roles: Sequence[str],
    contents: Sequence[str],
    returned: Mapping[int, str],
    budget_chars: int,
    *,
    ids: Sequence[str | None] | None = None,
    replaces: bool = False,
    spans: Mapping[int, Sequence[Span]] | None = None,
) -> StrategyResult:
    """The result of a strategy that returned ``{index: content}``: each a prefix of its input,
    or, when the strategy ``replaces`` content, any text (then the message is ``replaced``, and
    ``spans[index]`` lists the input spans it still returns verbatim; none when not given)."""
    ids = ids or [None] * len(contents)
    spans = spans or {}
    whole, gone = shared_records(roles, contents, ids)
    messages = []
    append = messages.append
    output_chars = cut = replaced = 0  # counted as the messages are met (a session has many)
    for i, content in enumerate(contents):
        if i not in returned:
            record = gone[i]
            if record is None:
                record = gone[i] = message(i, roles[i], len(content), REMOVED, 0, None, ids[i])
            append(record)
            continue
        out = returned[i]
        if out == content:
            record = whole[i]
            if record is None:
                size = len(content)
                record = whole[i] = message(i, roles[i], size, VERBATIM, size, content, ids[i])
            append(record)
            output_chars += len(out)
            continue
        held = None
        if content.startswith(out):
            kept = CUT
            cut += 1
        elif replaces:
            kept = REPLACED
            replaced += 1
            held = tuple(spans.get(i, ()))
        else:
            raise ValueError(f"{key} returned message {i} changed, not as a prefix of its input")
        output_chars += len(out)
        append(message(i, roles[i], len(content), kept, len(out), out, ids[i], held))
    return StrategyResult(
        key=key,
        name=name,
        how=how,
        available=True,
        unavailable=None,
        parameters=dict(parameters),
        messages=tuple(messages),
        budget_chars=budget_chars,
        output_chars=output_chars,
        output_messages=len(returned),
        cut_messages=cut,
        tokens_estimate=estimated_tokens(list(returned.values())),
        budget_met=output_chars <= budget_chars,
        replaced_messages=replaced,
    )


def shared_records(
    roles: Sequence[str], contents: Sequence[str], ids: Sequence[str | None]
) -> tuple[list[StrategyMessage | None], list[StrategyMessage | None]]:
    """Per message of the history, its record returned verbatim and its record removed, each
    None until a strategy first returns the message so (and then set by that strategy): the
    records are frozen, so every strategy of a lineup, and every lineup over the history,
    shares them. Kept for the last few histories, keyed on the texts themselves (at most two
    records per message, about 0.5 KB each): a lineup makes one record per message per
    strategy, most of them a message returned whole or removed, and a budget move over the same
    history (the explorer's slider) makes the same ones again. Filled as they are met, so a
    history met once (a replay's turns, a corpus) costs no more records than before."""
    if not len(roles) == len(contents) == len(ids):
        raise ValueError("roles, contents and ids must be as many as the messages")
    return _shared_records(tuple(roles), tuple(contents), tuple(ids))


@lru_cache(maxsize=4)
def _shared_records(
    roles: tuple[str, ...], contents: tuple[str, ...], ids: tuple[str | None, ...]
) -> tuple[list[StrategyMessage | None], list[StrategyMessage | None]]:
    return [None] * len(contents), [None] * len(contents)


def unavailable_result(
    key: str, name: str, how: str, why: str, parameters: Mapping[str, Any], budget_chars: int
) -> StrategyResult:
    """The result of a strategy that could not run: ``why`` says how to fix that."""
    return StrategyResult(
        key,
        name,
        how,
        False,
        why,
        dict(parameters),
        (),
        budget_chars,
        None,
        None,
        None,
        None,
        None,
    )
