"""What a replay did to each message and each fact, turn by turn, read from its histories.

:func:`message_fates` says, at one turn, what became of every recorded message that has arrived:
kept whole, trimmed (at which turn), or gone (at which turn); new text a strategy wrote (a
summary) is listed as such (a replay's own ``losses`` name, for each fact lost at a turn, the
message whose trim or removal took it). :func:`cache_reuse` is the prompt-cache
estimate: the reused characters of every turn over the characters sent.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from compactor.analyses.replay._loop import Carried, Replay

KEPT, TRIMMED, GONE, NEW = "kept", "trimmed", "dropped", "new"


@dataclass(frozen=True)
class MessageFate:
    """One message at one turn: its place in the history sent (None when gone)."""

    index: int | None  # the recorded message (None for new text)
    arrived: int  # the turn it joined the history (0 for m_0)
    status: str  # KEPT, TRIMMED, GONE or NEW
    at: int | None  # the turn of the last trim (TRIMMED) or of the removal (GONE)
    position: int | None  # its place in the history sent at the turn
    role: str
    chars: int  # its characters in the history sent (0 when gone)
    original_chars: int
    content: str  # as sent at the turn (the recorded content when gone)


def _lengths(history: Iterable[Carried]) -> dict[int, int]:
    out: dict[int, int] = {}
    for m in history:
        if m.origin is not None:
            out[m.origin] = max(out.get(m.origin, -1), len(m.content))
    return out


def message_fates(result: Replay, recorded: Sequence[Carried], turn: int) -> list[MessageFate]:
    """At ``turn`` (0..n-1): every recorded message ``m_0..m_turn`` in order, then the new texts
    of the history sent at that turn."""
    if not 0 <= turn < len(result.histories):
        raise ValueError(f"turn must be 0..{len(result.histories) - 1}, not {turn}")
    lengths = [_lengths(h) for h in result.histories[: turn + 1]]
    sent = result.histories[turn]
    position = {m.origin: k for k, m in enumerate(sent) if m.origin is not None}
    out = []
    for i in range(turn + 1):
        original = len(recorded[i].content)
        status, at = KEPT, None
        for t in range(max(i, 1), turn + 1):
            # at its own turn it went in whole (X_t ends with m_t)
            before = original if t == i else lengths[t - 1].get(i)
            now = lengths[t].get(i)
            if before is not None and now is None:
                status, at = GONE, t
            elif before is not None and now is not None and now < before:
                status, at = TRIMMED, t
        k = position.get(i)
        message = sent[k] if k is not None else recorded[i]
        chars = len(message.content) if k is not None else 0
        out.append(MessageFate(i, i, status, at, k, message.role, chars, original, message.content))
    for k, m in enumerate(sent):
        if m.origin is None:
            arrived = next(t for t in range(turn + 1) if any(x is m for x in result.histories[t]))
            out.append(
                MessageFate(None, arrived, NEW, arrived, k, m.role, len(m.content), 0, m.content)
            )
    return out


def cache_reuse(result: Replay) -> float:
    """The characters a prompt cache could reuse (each turn's stable prefix) over the
    characters sent, over every turn (0.0 when nothing was sent)."""
    sent = sum(t.chars_out for t in result.turns)
    return sum(t.stable_prefix_chars for t in result.turns) / sent if sent else 0.0


def recorded_of(messages: Sequence[object]) -> list[Carried]:
    """The recorded messages as a replay carries them (``origin`` = index)."""
    return [
        Carried(m.role, m.content, m.id, m.pin, origin=i)  # type: ignore[attr-defined]
        for i, m in enumerate(messages)
    ]
