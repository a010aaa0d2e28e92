"""What the strategies that keep spans of their input (anchor-keep, focus) share: a message's
fate and its kept spans, the run's account read from them, the protection they read from the
request, and the run as one result of the lineup."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from compactor.model import Message, Request
from compactor.strategies._returned import (
    CUT,
    REMOVED,
    VERBATIM,
    StrategyResult,
    estimated_tokens,
    message,
    shared_records,
)

# A message's fate (its ``kept``).
WHOLE, PART, GONE = "kept", "cut", "removed"

Span = tuple[int, int]


class SpannedMessage:
    """What a span-keeping strategy did with one message: a frozen dataclass with ``index``,
    ``role``, ``original_chars``, ``kept`` (:data:`WHOLE`, :data:`PART` or :data:`GONE`),
    ``spans`` (ordered, disjoint, not adjacent) and ``protected_because``."""

    index: int
    role: str
    original_chars: int
    kept: str
    spans: tuple[Span, ...]
    protected_because: tuple[str, ...]

    @property
    def chars(self) -> int:
        """Characters returned (0 when removed)."""
        return sum(end - start for start, end in self.spans)

    def content(self, text: str) -> str | None:
        """The returned content of input ``text`` (None when removed)."""
        if self.kept == GONE:
            return None
        return "".join(text[start:end] for start, end in self.spans)


class SpannedResult:
    """A span-keeping run's account, read from its ``messages``: a frozen dataclass with
    ``request``, ``budget_chars`` and ``messages`` (one :class:`SpannedMessage` each)."""

    request: Request
    budget_chars: int
    messages: Sequence[SpannedMessage]

    @property
    def contents(self) -> tuple[str | None, ...]:
        """Per input message, its returned content (None when removed)."""
        return tuple(
            m.content(c) for m, c in zip(self.messages, self.request.contents, strict=True)
        )

    @property
    def output_chars(self) -> int:
        return sum(m.chars for m in self.messages)

    @property
    def protected_chars(self) -> int:
        return sum(m.original_chars for m in self.messages if m.protected_because)

    @property
    def budget_met(self) -> bool:
        return self.output_chars <= self.budget_chars

    @property
    def protected_exceeds_budget(self) -> bool:
        return self.protected_chars > self.budget_chars

    def count(self, kept: str) -> int:
        """How many messages were ``kept`` ("kept", "cut" or "removed")."""
        return sum(m.kept == kept for m in self.messages)


def protected_because(message: Message, n: int, options: Mapping[str, Any]) -> tuple[str, ...]:
    """Why ``message`` (of ``n``) is protected, memory-compact's reasons: its pin, its role in
    ``options["keep_roles"]``, one of the last ``options["keep_last_n"]``."""
    reasons = []
    if message.pin:
        reasons.append("pin")
    if message.role in options["keep_roles"]:
        reasons.append("role")
    if message.index >= n - options["keep_last_n"]:
        reasons.append("recent")
    return tuple(reasons)


def protection(request: Request, options: Mapping[str, Any]) -> tuple[list[tuple[str, ...]], int]:
    """Per message of ``request`` why it is protected (:func:`protected_because`; empty when
    not), and the characters of the protected messages together."""
    n = len(request.messages)
    because = [protected_because(m, n, options) for m in request.messages]
    chars = sum(len(c) for c, b in zip(request.contents, because, strict=True) if b)
    return because, chars


def merged(spans: Sequence[Span] | set[Span]) -> tuple[Span, ...]:
    """Spans sorted, adjacent ones joined (so an occurrence across two units is in one span)."""
    out: list[list[int]] = []
    for start, end in sorted(spans):
        if out and out[-1][1] == start:
            out[-1][1] = end
        else:
            out.append([start, end])
    return tuple((s, e) for s, e in out)


def lineup_result(
    key: str,
    name: str,
    how: str,
    parameters: dict[str, Any],
    result: SpannedResult,
) -> StrategyResult:
    """A span-keeping run as one result of the strategies' lineup: messages kept, cut or
    removed; a cut message's ``chars`` are its kept spans' characters (not a prefix length) and
    its ``spans`` list them, so the judge reads what it really kept."""
    return spans_result(
        key,
        name,
        how,
        parameters,
        result.request,
        result.budget_chars,
        [m.spans for m in result.messages],
    )


def spans_result(
    key: str,
    name: str,
    how: str,
    parameters: dict[str, Any],
    request: Request,
    budget_chars: int,
    spans: Sequence[tuple[Span, ...]],
) -> StrategyResult:
    """:func:`lineup_result` of a run read as each message's kept ``spans`` (ordered, disjoint,
    not adjacent; the whole message's one span when kept whole, none when removed), without
    the run's account (its reasons), which the lineup does not show."""
    contents, roles, ids = request.contents, request.roles, request.ids
    whole, gone = shared_records(roles, contents, ids)
    messages = []
    returned = []
    output_chars = cut = 0
    for i, held in enumerate(spans):
        text = contents[i]
        if not held:
            record = gone[i]
            if record is None:
                record = gone[i] = message(i, roles[i], len(text), REMOVED, 0, None, ids[i])
            messages.append(record)
            continue
        if held == ((0, len(text)),):
            record = whole[i]
            if record is None:
                size = len(text)
                record = whole[i] = message(i, roles[i], size, VERBATIM, size, text, ids[i])
            messages.append(record)
            returned.append(text)
            output_chars += len(text)
            continue
        content = "".join(text[start:end] for start, end in held)
        size = sum(end - start for start, end in held)
        cut += 1
        returned.append(content)
        output_chars += size
        messages.append(message(i, roles[i], len(text), CUT, size, content, ids[i], held))
    return StrategyResult(
        key=key,
        name=name,
        how=how,
        available=True,
        unavailable=None,
        parameters=parameters,
        messages=tuple(messages),
        budget_chars=budget_chars,
        output_chars=output_chars,
        output_messages=len(returned),
        cut_messages=cut,
        tokens_estimate=estimated_tokens(returned),
        budget_met=output_chars <= budget_chars,
        replaced_messages=0,
    )
