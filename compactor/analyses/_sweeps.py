"""Sweeps: how the output answers to one parameter, from one run instead of one run per value.

Three sweeps, each computed from a :class:`CompactionResult` (and the text analysis it carries):

- :func:`budget_sweep`: for every ``budget_chars`` in the schema's range, which messages survive
  and how many characters come out. Pin, dedupe, trim and the scores do not depend on the budget,
  and ``dropping.order`` lists every drop candidate in the order drop removes them, so the
  ``k``-th candidate survives budget ``B`` exactly when ``T - (characters of the candidates
  before it) <= B``, with ``T`` the characters present after trim.
- :func:`threshold_sweep`: duplicates removed for every ``duplicate_threshold`` in 0.5..1.0.
  The removals change only at similarity values present in the matrix, so the stage's dedupe walk
  runs at those values alone, all at once (one bit per threshold).
- :func:`trim_sweep`: characters cut for every ``max_message_chars`` in 80..4,000. A message's
  cut depends on the limit only, so the trim's cut is taken at every limit at once
  (:func:`compactor.text._words.cut_lengths`).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from compactor import contract
from compactor.engine import CompactionResult, Fate, MessageTrace, duplicates
from compactor.text import cut_lengths

BUDGET_RANGE: tuple[int, int] = tuple(map(int, contract.RANGES["budget_chars"]))
THRESHOLD_RANGE: tuple[float, float] = tuple(map(float, contract.RANGES["duplicate_threshold"]))
MAX_CHARS_RANGE: tuple[int, int] = tuple(map(int, contract.RANGES["max_message_chars"]))

# Why a message survives from the budget it does (``Survival.rule``).
KEPT_ALWAYS = "protected"  # protected: in the output at every budget
REMOVED_ALWAYS = "duplicate"  # removed by dedupe, which ignores the budget
BY_DROP_ORDER = "drop order"  # kept from the budget at which drop stops before reaching it
BEYOND_RANGE = "beyond range"  # dropped at every budget up to the schema's maximum


# --- budget ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Survival:
    """From which ``budget_chars`` one message is in the output (other parameters unchanged)."""

    index: int
    role: str
    fate: str  # its Fate at the current budget
    #: The smallest budget in the schema's range at which it is returned; None when no budget
    #: in range returns it (a duplicate, or a message that needs more than the maximum).
    survives_from_budget: int | None
    rule: str  # "protected", "duplicate", "drop order" or "beyond range"
    chars: int  # characters it adds to the output when returned (after any trim)


@dataclass(frozen=True)
class BudgetStep:
    """The output for every budget from ``from_budget`` to ``to_budget`` (both inclusive)."""

    from_budget: int
    to_budget: int
    output_chars: int
    output_messages: int
    dropped_messages: int  # removed by the drop stage (duplicates not counted)
    budget_met: bool  # output_chars <= budget for every budget in the step


@dataclass(frozen=True)
class BudgetSweep:
    current_budget: int
    budget_range: tuple[int, int]
    survival: tuple[Survival, ...]  # one per input message, in index order
    steps: tuple[BudgetStep, ...]  # ascending, covering the whole range without gaps

    def at(self, budget: int) -> BudgetStep:
        """The step that holds at ``budget`` (clamped to the range)."""
        starts = [s.from_budget for s in self.steps]
        return self.steps[max(0, bisect_right(starts, budget) - 1)]

    @property
    def current(self) -> BudgetStep:
        return self.at(self.current_budget)


def budget_sweep(result: CompactionResult) -> BudgetSweep:
    """Survival budget of every message and the output as a step function of ``budget_chars``,
    over the budgets the request's mode accepts (up to 400,000 in the contract's, 2,000,000 in
    the agent mode's)."""
    low, high = budget_range = contract.budget_range(result.request.limits)
    order = result.dropping.order
    traces = result.messages
    sizes = np.array([kept_chars(traces[i]) for i in order], dtype=np.int64)
    # totals[k]: characters present when drop considers the k-th candidate; the candidate
    # survives budget B iff totals[k] <= B. totals[m] is what is left when all are dropped.
    totals = result.totals.after_trim - np.concatenate(([0], np.cumsum(sizes)))
    from_budget = {i: int(t) for i, t in zip(order, totals[:-1], strict=True)}

    survival = []
    for t in traces:
        if t.protected:
            found, rule = low, KEPT_ALWAYS
        elif t.fate is Fate.DUPLICATE:
            found, rule = None, REMOVED_ALWAYS
        elif from_budget[t.index] > high:
            found, rule = None, BEYOND_RANGE
        else:
            found, rule = max(low, from_budget[t.index]), BY_DROP_ORDER
        survival.append(Survival(t.index, t.message.role, str(t.fate), found, rule, kept_chars(t)))

    kept_always = len(traces) - len(result.deduplication.removed)
    starts = sorted({low} | {int(t) for t in totals if low < t <= high})
    # Steps start where the number dropped changes or where the budget starts to be met (at
    # the characters left when every candidate is dropped).
    changes = []  # (first budget, candidates dropped, budget met)
    for start in starts:
        dropped = _drops_at(totals, start)
        change = (start, dropped, bool(totals[dropped] <= start))
        if not changes or changes[-1][1:] != change[1:]:
            changes.append(change)
    ends = [start - 1 for start, _, _ in changes[1:]] + [high]
    steps = tuple(
        BudgetStep(start, end, int(totals[dropped]), kept_always - dropped, dropped, met)
        for (start, dropped, met), end in zip(changes, ends, strict=True)
    )
    return BudgetSweep(result.request.params.budget_chars, budget_range, tuple(survival), steps)


def survival_budgets(result: CompactionResult) -> tuple[Survival, ...]:
    """Per message, the smallest budget in range from which it is in the output (or None)."""
    return budget_sweep(result).survival


def kept_chars(trace: MessageTrace) -> int:
    """The characters a message adds to the output whenever it is returned (after any trim)."""
    return trace.cut.chars if trace.cut else trace.original_chars


def _drops_at(totals: np.ndarray, budget: int) -> int:
    """How many candidates drop removes at ``budget``: the first k with totals[k] <= budget."""
    found = int(np.searchsorted(-totals, -budget, side="left"))
    return min(found, len(totals) - 1)


# --- duplicate threshold ---------------------------------------------------------------------


@dataclass(frozen=True)
class ThresholdStep:
    """Dedupe's removals for every threshold ``t`` with ``low < t <= high``.

    The first step also holds at ``low`` itself (``includes_low``), the range's minimum.
    """

    low: float
    high: float
    includes_low: bool
    removed_messages: int
    removed_chars: int  # the removed messages' original characters
    removed: tuple[int, ...]  # their indices


@dataclass(frozen=True)
class ThresholdSweep:
    current_threshold: float
    threshold_range: tuple[float, float]
    steps: tuple[ThresholdStep, ...]  # ascending, covering the whole range without gaps

    def at(self, threshold: float) -> ThresholdStep:
        """The step that holds at ``threshold`` (clamped to the range)."""
        for step in self.steps:
            if threshold <= step.high:
                return step
        return self.steps[-1]

    @property
    def current(self) -> ThresholdStep:
        return self.at(self.current_threshold)


def threshold_sweep(result: CompactionResult) -> ThresholdSweep:
    """Duplicates removed (count, characters, which) against ``duplicate_threshold``.

    Other parameters stay as in ``result`` (``keep_last_n`` and ``keep_roles`` decide who is
    protected, and protected messages are never removed).
    """
    low, high = THRESHOLD_RANGE
    similarity = result.analysis.similarity
    protected = np.array(result.protection.protected, dtype=bool)
    edges = np.nan_to_num(similarity, nan=-1.0) >= low  # same-role pairs that can matter
    edges[protected, :] = False
    values = np.unique(similarity[edges])
    points = values[values <= high]
    if len(points) == 0 or points[-1] < high:
        points = np.append(points, high)

    removed = _removed_at(similarity, edges, points)  # removed[k, i] at threshold points[k]
    # A step runs from one point to the last point before the removals change.
    last = np.flatnonzero(np.append((removed[1:] != removed[:-1]).any(axis=1), True))
    first = np.concatenate(([0], last[:-1] + 1))
    lengths = np.array([t.original_chars for t in result.messages], dtype=np.int64)
    steps = []
    for k0, k1 in zip(first, last, strict=True):
        which = np.flatnonzero(removed[k1])
        steps.append(
            ThresholdStep(
                low=low if k0 == 0 else float(points[k0 - 1]),
                high=float(points[k1]),
                includes_low=bool(k0 == 0),
                removed_messages=len(which),
                removed_chars=int(lengths[which].sum()),
                removed=tuple(map(int, which)),
            )
        )
    return ThresholdSweep(result.request.params.duplicate_threshold, THRESHOLD_RANGE, tuple(steps))


def _removed_at(similarity: np.ndarray, edges: np.ndarray, points: np.ndarray) -> np.ndarray:
    """``removed[k, i]``: whether dedupe removes message ``i`` at threshold ``points[k]``.

    The stage's own walk (:func:`compactor.engine._stages.duplicates`) at every threshold at
    once: bit ``k`` of a message's presence is the threshold ``points[k]``, and a pair's bits are
    the thresholds its similarity reaches. ``i`` has an edge to ``j`` when it is unprotected and
    the pair is of the same role and can reach the range.
    """
    n, k = len(similarity), len(points)

    def candidates(i: int) -> Iterator[tuple[int, int]]:
        columns = np.flatnonzero(edges[i])
        # The thresholds a similarity reaches are a prefix of the ascending points.
        reach = np.searchsorted(points, similarity[i, columns], side="right")
        return zip(columns.tolist(), [(1 << r) - 1 for r in reach.tolist()], strict=True)

    rows = np.flatnonzero(edges.any(axis=1)).tolist()
    present = duplicates(rows, candidates, [(1 << k) - 1] * n)
    size = (k + 7) // 8
    data = b"".join(p.to_bytes(size, "little") for p in present)
    bits = np.unpackbits(
        np.frombuffer(data, dtype=np.uint8).reshape(n, size), axis=1, bitorder="little"
    )
    return ~bits[:, :k].T.astype(bool)


# --- max_message_chars -----------------------------------------------------------------------


@dataclass(frozen=True)
class TrimPoint:
    """What the trim stage does at one ``max_message_chars`` (other parameters unchanged)."""

    max_message_chars: int
    cut_chars: int  # characters cut from the messages trimmed (whether or not dropped later)
    trimmed_messages: int
    sentence_cuts: int
    hard_cuts: int
    after_trim_chars: int  # characters present after trim (the input of the drop stage)


@dataclass(frozen=True)
class TrimSweep:
    current_max_chars: int
    max_chars_range: tuple[int, int]
    points: tuple[TrimPoint, ...]  # one per integer limit in the range, ascending

    def at(self, max_message_chars: int) -> TrimPoint:
        """The point at ``max_message_chars`` (clamped to the range)."""
        low, high = self.max_chars_range
        return self.points[min(max(max_message_chars, low), high) - low]

    @property
    def current(self) -> TrimPoint:
        return self.at(self.current_max_chars)


def trim_sweep(result: CompactionResult) -> TrimSweep:
    """Characters cut (and messages trimmed) against ``max_message_chars`` over its range.

    The messages trimmed are the unprotected ones dedupe left, as at the current setting:
    dedupe does not depend on the limit.
    """
    low, high = MAX_CHARS_RANGE
    limits = np.arange(low, high + 1, dtype=np.int64)
    cut_chars = np.zeros(len(limits), dtype=np.int64)
    trimmed = np.zeros(len(limits), dtype=np.int64)
    sentence_cuts = np.zeros(len(limits), dtype=np.int64)
    for t in result.messages:
        if t.protected or t.fate is Fate.DUPLICATE or t.original_chars <= low:
            continue
        span = min(t.original_chars - 1, high) - low + 1  # the limits that cut this message
        lengths, sentence = cut_lengths(t.message.content, limits[:span])
        cut_chars[:span] += t.original_chars - lengths
        trimmed[:span] += 1
        sentence_cuts[:span] += sentence
    after_dedupe = result.totals.after_dedupe
    points = tuple(
        TrimPoint(int(limit), int(cut), int(n), int(s), int(n - s), int(after_dedupe - cut))
        for limit, cut, n, s in zip(limits, cut_chars, trimmed, sentence_cuts, strict=True)
    )
    return TrimSweep(result.request.params.max_message_chars, MAX_CHARS_RANGE, points)
