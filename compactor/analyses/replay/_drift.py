"""The drift of a replay, kept up to date turn by turn: which facts of ``m_0..m_t`` no longer
have an occurrence whole in the history sent, and, for each fact lost at a turn, the message
whose trim or removal took its last kept occurrence (SPEC part C, Replay).

Each turn changes the length of a few messages only (the new one, a trim, a removal), so only
their occurrences are looked at again; a per-fact count of kept occurrences says the rest.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import NamedTuple

import numpy as np

TRIM, REMOVAL = "trim", "removal"
#: The ``(start, end)`` spans of a recorded message a history holds (a cut that keeps parts).
Spans = tuple[tuple[int, int], ...]


def spans_hold(starts: np.ndarray, ends: np.ndarray, spans: Spans) -> np.ndarray:
    """Per occurrence ``[starts[k], ends[k])``, whether one of ``spans`` holds it whole."""
    if not spans:
        return np.zeros(len(starts), dtype=bool)
    bounds = np.asarray(spans, dtype=np.int64)
    return (
        (bounds[None, :, 0] <= np.asarray(starts)[:, None])
        & (np.asarray(ends)[:, None] <= bounds[None, :, 1])
    ).any(axis=1)


class Loss(NamedTuple):
    """A fact lost at ``turn``: the ``how`` (TRIM or REMOVAL) of message ``index`` took the
    first of its occurrences that ``X_t`` still held whole (all of them went at this turn).
    A named tuple: a long replay makes tens of thousands, and a tuple is made in a third of
    the time a frozen dataclass takes."""

    turn: int
    fact: str
    index: int
    how: str


@dataclass(frozen=True, eq=False)
class Lost:
    """The facts lost at one turn: how many, and their texts when asked for."""

    count: int
    _all: np.ndarray  # every fact's text
    _mask: np.ndarray  # which are lost

    def texts(self) -> tuple[str, ...]:
        return tuple(self._all[self._mask].tolist())


class FactIndex:
    """Facts, ``(text, occurrences)`` with ``(index, start, end)`` occurrences, arranged for
    :class:`Drift`: built once, it serves every replay of the same conversation's facts."""

    def __init__(self, facts: Sequence[tuple[str, Sequence[tuple[int, int, int]]]]) -> None:
        self.texts = np.empty(len(facts), dtype=object)
        self.texts[:] = [text for text, _ in facts]
        spans = [np.asarray(o, dtype=np.int64).reshape(-1, 3) for _, o in facts]
        found = np.concatenate([np.zeros((0, 3), dtype=np.int64), *spans])
        owner = np.repeat(np.arange(len(facts)), [len(o) for o in spans])
        order = np.lexsort((found[:, 2], owner, found[:, 0]))  # by message, fact, end
        index, self.fact = found[order, 0], owner[order]
        self.start, self.end = found[order, 1], found[order, 2]
        self.bounds: dict[int, slice] = {}  # message -> the slice of its occurrences
        if len(index):
            messages, starts = np.unique(index, return_index=True)
            stops = [*starts[1:].tolist(), len(index)]
            self.bounds = dict(
                zip(messages.tolist(), map(slice, starts.tolist(), stops), strict=True)
            )
        self.first = np.full(len(facts), np.iinfo(np.int64).max)  # the fact's first message
        np.minimum.at(self.first, self.fact, index)

    def __len__(self) -> int:
        return len(self.texts)


class Drift:
    """The drift over ``facts`` (a :class:`FactIndex`, or the facts to build one from)."""

    def __init__(self, facts: FactIndex | Sequence[tuple[str, Sequence[tuple[int, int, int]]]]):
        known = facts if isinstance(facts, FactIndex) else FactIndex(facts)
        self._texts, self._fact, self._end = known.texts, known.fact, known.end
        self._start = known.start
        self._bounds, self._from = known.bounds, known.first
        index = self._fact
        self._kept = np.zeros(len(index), dtype=bool)
        facts = self._texts
        self._count = np.zeros(len(facts), dtype=np.int64)  # kept occurrences per fact
        self._lost = np.zeros(len(facts), dtype=bool)
        #: recorded message -> its characters in the history (or the spans it holds there)
        self._length: dict[int, int | Spans] = {}
        self._stamp = np.full(len(facts), -1)  # the turn a fact last lost an occurrence
        self._by = np.zeros(len(facts), dtype=np.int64)
        self._removed = np.zeros(len(facts), dtype=bool)
        #: what every turn of a replay without facts answers: nothing lost
        self._nothing = Lost(0, self._texts, self._lost)

    def __len__(self) -> int:
        """How many facts it follows."""
        return len(self._texts)

    def _set(self, i: int, length: int | Spans, turn: int | None = None) -> None:
        """Message ``i`` is now ``length`` long (-1: gone), or holds the spans ``length``; at
        ``turn``, record what it lost."""
        gone = not isinstance(length, tuple) and length < 0
        if gone:
            self._length.pop(i, None)
        else:
            self._length[i] = length
        at = self._bounds.get(i)
        if at is None:
            return
        if isinstance(length, tuple):
            kept = spans_hold(self._start[at], self._end[at], length)
        else:
            kept = self._end[at] <= length
        before = self._kept[at]
        facts = self._fact[at]
        if turn is not None:
            went = facts[before & ~kept]
            went = went[self._stamp[went] != turn]  # the first message of the turn is named
            self._stamp[went] = turn
            self._by[went] = i
            self._removed[went] = gone
        np.add.at(self._count, facts, kept.astype(np.int64) - before)
        self._kept[at] = kept

    def arrive(self, i: int, length: int) -> None:
        """Message ``i`` joins the history whole (``X_t = H + [m_t]``)."""
        self._set(i, length)

    def turn(self, t: int, history: Mapping[int, int | Spans]) -> tuple[Lost, list[Loss]]:
        """After turn ``t`` with ``history`` (recorded message -> its length in ``H_t``, or the
        spans it holds there): the facts lost so far, in the facts' order, and the losses of
        this turn."""
        if not len(self._texts):  # no facts: none to lose, and no history to follow
            return self._nothing, []
        changed = [i for i, n in self._length.items() if history.get(i, -1) != n]
        changed += [i for i in history if i not in self._length]
        for i in sorted(changed):
            self._set(i, history.get(i, -1), t)
        lost = (self._from <= t) & (self._count == 0)
        new = np.flatnonzero(lost & ~self._lost)
        self._lost = lost
        losses = list(
            map(
                Loss,
                repeat(t),
                self._texts[new].tolist(),
                self._by[new].tolist(),
                np.where(self._removed[new], REMOVAL, TRIM).tolist(),
            )
        )
        return Lost(int(np.count_nonzero(lost)), self._texts, lost), losses
