"""Replay misses (SPEC part D): in a replay, did the model still hold what each message needed?

``H_{t-1}`` is what the model holds when m_t arrives. A need (t, a) is *met* when ``H_{t-1}``
holds an occurrence of a among m_0..m_{t-1} kept there (its message is in ``H_{t-1}`` and its
content there is at least ``end`` long, or, for a cut that keeps parts, one of its spans holds
the occurrence whole), else it is a *miss*. A recorded assistant or tool
message that misses a need used a fact the compacted model would no longer have had. Read from
the replay's histories alone: nothing is compacted again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from compactor.analyses.outcomes._judge import RoleRecall, role_recalls
from compactor.analyses.outcomes._needs import Needs
from compactor.analyses.replay._drift import Spans, spans_hold
from compactor.analyses.replay._loop import Replay, held_of

#: How a source left the history: its message was cut, or removed.
TRIM, REMOVAL = "trim", "removal"


@dataclass(frozen=True)
class TurnMisses:
    """The needs of m_t and how many ``H_{t-1}`` missed; the misses of turns 1..t."""

    turn: int
    needs: int
    misses: int
    cumulative_misses: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "needs": self.needs,
            "misses": self.misses,
            "cumulative_misses": self.cumulative_misses,
        }


@dataclass(frozen=True)
class Miss:
    """Message ``turn`` needed ``anchor`` and ``H_{turn-1}`` held none of its sources."""

    turn: int
    anchor: str
    kind: str
    role: str

    def to_dict(self) -> dict[str, Any]:
        return {"turn": self.turn, "anchor": self.anchor, "kind": self.kind, "role": self.role}


@dataclass(frozen=True)
class FirstMiss:
    """The first miss, and the turn and way its last source left the history."""

    miss: Miss
    lost_turn: int  # the turn whose compaction took the last of its sources
    lost_stage: str  # "trim" (cut short) or "removal"
    lost_index: int  # the message that source was in

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.miss.to_dict(),
            "lost_turn": self.lost_turn,
            "lost_stage": self.lost_stage,
            "lost_index": self.lost_index,
        }


@dataclass(frozen=True)
class ReplayMisses:
    turns: tuple[TurnMisses, ...]  # one per turn 1..n-1
    by_role: tuple[RoleRecall, ...]  # needs and met needs per role of the needing message
    misses: tuple[Miss, ...]  # by turn, then anchor order
    first_miss: FirstMiss | None

    @property
    def needs(self) -> int:
        return sum(t.needs for t in self.turns)

    def to_dict(self) -> dict[str, Any]:
        return {
            "needs": self.needs,
            "misses": len(self.misses),
            "turns": [t.to_dict() for t in self.turns],
            "by_role": {
                r.role: {"needs": r.needs, "misses": r.needs - r.met} for r in self.by_role
            },
            "first_miss": None if self.first_miss is None else self.first_miss.to_dict(),
        }


def history_lengths(replay: Replay, n: int) -> np.ndarray:
    """``lengths[u, i]``: the characters of recorded message ``i`` in ``H_u`` (-1: absent)."""
    lengths = np.full((len(replay.histories), n), -1, dtype=np.int64)
    for u, history in enumerate(replay.histories):
        for m in history:
            if m.origin is not None and m.origin < n:
                lengths[u, m.origin] = max(lengths[u, m.origin], len(m.content))
    return lengths


def history_spans(replay: Replay) -> dict[tuple[int, int], Spans]:
    """``{(u, i): spans}`` for the recorded messages ``H_u`` holds as spans other than a
    prefix (a cut that keeps parts); the others are read from :func:`history_lengths`."""
    out = {}
    for u, history in enumerate(replay.histories):
        if any(m.spans is not None for m in history):
            for i, held in held_of(history).items():
                if isinstance(held, tuple):
                    out[u, i] = held
    return out


def _held(
    lengths: np.ndarray, spans: dict[tuple[int, int], Spans], u: int, i: int, s: int, e: int
) -> bool:
    """Whether ``H_u`` holds ``[s, e)`` of recorded message ``i``."""
    kept = spans.get((u, i))
    if kept is not None:
        return any(a <= s and e <= b for a, b in kept)
    return bool(lengths[u, i] >= e)


def replay_misses(replay: Replay, needs: Needs) -> ReplayMisses:
    """The misses of ``replay`` against ``needs`` (:func:`find_needs` of the recorded
    conversation the replay ran on)."""
    n = len(replay.histories)
    lengths = history_lengths(replay, max(n, len(needs.roles)))
    spans = history_spans(replay)
    message, end = needs.occurrence_message, needs.occurrence_end
    start = (
        np.array([s for a in needs.anchors for _, s, _ in a.occurrences], dtype=np.int64)
        if spans
        else end
    )
    met = np.ones(len(needs), dtype=bool)
    for t in np.unique(needs.user).tolist():
        if t >= n:  # a need of a message the replay did not reach
            continue
        held = (message < t) & (lengths[t - 1, message] >= end)
        for (u, i), kept in spans.items():
            if u == t - 1 and i < t:
                mine = message == i
                held[mine] = spans_hold(start[mine], end[mine], kept)
        anchor_held = np.logical_or.reduceat(held, needs.heads)
        mine = np.flatnonzero(needs.user == t)
        met[mine] = anchor_held[needs.anchor[mine]]
    reached = np.flatnonzero(needs.user < n)
    needs_at = np.bincount(needs.user[reached], minlength=n)
    misses_at = np.bincount(needs.user[reached], weights=~met[reached], minlength=n).astype(int)
    cumulative = np.cumsum(misses_at)
    turns = tuple(
        TurnMisses(t, int(needs_at[t]), int(misses_at[t]), int(cumulative[t])) for t in range(1, n)
    )
    missed = [k for k in reached.tolist() if not met[k]]
    misses = tuple(_miss(needs, k) for k in missed)
    first = _first_miss(needs, missed[0], lengths, spans) if missed else None
    return ReplayMisses(turns, role_recalls(needs, reached, met[reached]), misses, first)


def _miss(needs: Needs, k: int) -> Miss:
    a = needs.anchors[int(needs.anchor[k])]
    user = int(needs.user[k])
    return Miss(user, a.text, a.kind, needs.roles[user])


def _first_miss(
    needs: Needs, k: int, lengths: np.ndarray, spans: dict[tuple[int, int], Spans]
) -> FirstMiss:
    """The miss ``k`` with the turn its last source was lost at: for each source, the last turn
    before the miss at which it went from held to not held (arriving whole in ``X_u`` counts
    as held); the latest of those, the earliest message on a tie."""
    need = needs.need(k)
    best: tuple[int, int, str] | None = None  # (turn, -index, stage)
    for i, s, e in need.sources:
        lost_turn, stage = i, TRIM
        for u in range(i, need.user):
            was_held = u == i or _held(lengths, spans, u - 1, i, s, e)
            if was_held and not _held(lengths, spans, u, i, s, e):
                lost_turn, stage = u, REMOVAL if lengths[u, i] < 0 else TRIM
        if best is None or (lost_turn, -i) > best[:2]:
            best = (lost_turn, -i, stage)
    assert best is not None
    return FirstMiss(_miss(needs, k), best[0], best[2], -best[1])
