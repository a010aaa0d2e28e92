"""Anchors: the exact strings a user cannot afford to lose, and what a compaction does to them.

SPEC part C. :func:`find_anchors` finds them in the contents (patterns per kind in
:mod:`compactor.analyses.anchors._patterns`, the finder in
:mod:`compactor.analyses.anchors._finder`;
parameter-free, so it remembers the last few conversations by their contents);
:func:`anchor_report` reads one :class:`CompactionResult`: which occurrences are kept, which
stage lost the others, and from which ``budget_chars`` each anchor is kept. An occurrence is kept
when its message is returned and it ends within the returned prefix; an anchor is kept when one
of its occurrences is. A message's returned length does not depend on the budget, and the budget
sweep says from which budget each message is returned, so an anchor's ``survives_from_budget``
(the smallest budget in 100..400,000 at which it is kept, the other parameters unchanged; None
when none) is the smallest survival budget among the messages where an occurrence fits in the
returned prefix: one run, no run per budget. From it follow :func:`retention_curve` (anchors
kept at every budget, beside the output characters), :func:`message_anchors` (one message's
anchors) and :func:`stage_losses` ("trim cut away 14 anchors, drop removed 9").

Watched facts (:mod:`compactor.analyses._facts`) join as anchors of kind ``watched``: their
occurrences follow the watched-facts matching rule (case and runs of whitespace ignored), so for
them ``content[start:end]`` may differ from the phrase in case or spacing. A phrase equal to a
found anchor's text replaces it (one row, kind ``watched``); a phrase found nowhere is listed in
``not_found`` and is not an anchor.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from compactor.analyses._sweeps import BUDGET_RANGE, BudgetSweep, budget_sweep
from compactor.analyses.anchors._finder import (
    WATCHED,
    Anchor,
    Occurrence,
    columns_of,
    find_anchor_columns,
    find_anchor_table,
    find_anchors,
)
from compactor.collector import collector_paused
from compactor.engine import CompactionResult, Fate

__all__ = [  # Anchor, find_anchors and WATCHED live in the finder; still importable from here
    "CUT_AWAY",
    "KEPT",
    "REMOVED",
    "STAGES",
    "STAGE_VERBS",
    "WATCHED",
    "Anchor",
    "AnchorFate",
    "AnchorReport",
    "MessageAnchor",
    "Occurrence",
    "RetentionStep",
    "StageLoss",
    "anchor_report",
    "find_anchors",
    "message_anchors",
    "retention_curve",
    "stage_losses",
]

#: The stages that can lose an occurrence, in pipeline order (pin loses nothing).
STAGES = ("dedupe", "trim", "drop")
#: How each stage loses an anchor, for sentences: "trim cut away 14 anchors".
STAGE_VERBS = {"dedupe": "removed", "trim": "cut away", "drop": "removed"}
# An anchor's status under the current request.
KEPT, CUT_AWAY, REMOVED = "kept", "cut away", "removed"

_NEVER = np.iinfo(np.int64).max


# --- under one request ------------------------------------------------------------------------


@dataclass(frozen=True)
class AnchorFate:
    """One anchor under the current request: a row of the anchors table."""

    text: str
    kind: str
    occurrences: tuple[Occurrence, ...]
    kept: bool
    #: Smallest budget in the schema's range at which it is kept; None when none keeps it.
    survives_from_budget: int | None
    #: The stage after which none of its occurrences was left; None when kept.
    lost_at: str | None
    status: str  # "kept", "cut away" (lost by trim) or "removed" (by dedupe or drop)

    @property
    def where(self) -> tuple[int, ...]:
        """The messages it occurs in, ascending."""
        return tuple(sorted({index for index, _, _ in self.occurrences}))

    def to_dict(self) -> dict[str, Any]:
        """The JSON row: ``{"text", "kind", "occurrences", "kept", "survives_from_budget"}``."""
        return {
            "text": self.text,
            "kind": self.kind,
            "occurrences": [{"index": i, "start": s, "end": e} for i, s, e in self.occurrences],
            "kept": self.kept,
            "survives_from_budget": self.survives_from_budget,
        }


@dataclass(frozen=True)
class MessageAnchor:
    """One occurrence in one message, for the fate timeline's detail."""

    text: str
    kind: str
    start: int
    end: int
    kept: bool
    lost_at: str | None  # the stage that lost this occurrence; None when kept
    #: Smallest budget at which this occurrence is returned; None when none returns it.
    survives_from_budget: int | None


@dataclass(frozen=True)
class StageLoss:
    """What one stage lost: the anchors it took the last occurrence of, and occurrences."""

    stage: str
    anchors: tuple[str, ...]  # their texts, in anchor order
    occurrences: int  # occurrences present before the stage and not after it

    @property
    def sentence(self) -> str:
        count = len(self.anchors)
        return f"{self.stage} {STAGE_VERBS[self.stage]} {count} anchor{'s' * (count != 1)}"


@dataclass(frozen=True)
class RetentionStep:
    """Anchors kept and output characters for every budget from ``from_budget`` to
    ``to_budget`` (both inclusive)."""

    from_budget: int
    to_budget: int
    anchors_kept: int
    anchors: int
    output_chars: int

    @property
    def retention(self) -> float:
        """Kept anchors / anchors (1.0 when there are none)."""
        return self.anchors_kept / self.anchors if self.anchors else 1.0


@dataclass(frozen=True, eq=False)
class AnchorReport:
    """Every anchor of a conversation under one request."""

    budget_chars: int
    anchors: tuple[AnchorFate, ...]
    not_found: tuple[str, ...]  # watched phrases that occur nowhere
    sweep: BudgetSweep = field(repr=False)
    # One entry per occurrence, grouped by anchor (in ``anchors`` order): the arrays behind
    # message_anchors and stage_losses.
    _anchor: np.ndarray = field(repr=False)
    _message: np.ndarray = field(repr=False)
    _lost: np.ndarray = field(repr=False)  # 0 kept, else 1 + the STAGES index that lost it
    _from_budget: np.ndarray = field(repr=False)

    @property
    def kept_count(self) -> int:
        return sum(a.kept for a in self.anchors)

    @property
    def retention(self) -> float:
        """Kept anchors / anchors at the current request (1.0 when there are none)."""
        return self.kept_count / len(self.anchors) if self.anchors else 1.0

    def kept_at(self, budget: int) -> int:
        """Anchors kept at ``budget_chars = budget``, the other parameters unchanged."""
        return sum(
            a.survives_from_budget is not None and a.survives_from_budget <= budget
            for a in self.anchors
        )


def anchor_report(
    result: CompactionResult,
    watched: Iterable[str] = (),
    *,
    anchors: Sequence[Anchor] | None = None,
    sweep: BudgetSweep | None = None,
) -> AnchorReport:
    """The anchors of ``result``'s conversation and their fate under its request.

    ``anchors`` is :func:`find_anchors` of the same contents (with the same ``watched``), found
    when omitted (the finder remembers the last few conversations, so a report under another
    request over the same contents does not scan again); ``sweep`` is :func:`budget_sweep` of
    ``result``, computed when omitted.
    """
    phrases = [p for p in watched if p.strip()]
    if anchors is None and not phrases:  # the finder's columns, no Anchor rows
        texts, kinds, occurrences, counts, index, end = find_anchor_table(result.request.contents)
    else:
        found = (
            find_anchor_columns(result.request.contents, phrases)
            if anchors is None
            else columns_of(anchors)
        )
        texts, kinds = [a.text for a in found.anchors], [a.kind for a in found.anchors]
        occurrences = [a.occurrences for a in found.anchors]
        counts, index, end = found.counts, found.message, found.end
    sweep = sweep or budget_sweep(result)
    traces = result.messages
    duplicate = np.array([t.fate is Fate.DUPLICATE for t in traces], dtype=bool)
    returned = np.array([s.chars for s in sweep.survival], dtype=np.int64)  # after any trim
    survived = np.array([t.survived for t in traces], dtype=bool)
    message_from = np.array(
        [
            _NEVER if s.survives_from_budget is None else s.survives_from_budget
            for s in sweep.survival
        ],
        dtype=np.int64,
    )
    fits = end <= returned[index]
    lost = np.where(duplicate[index], 1, np.where(~fits, 2, np.where(~survived[index], 3, 0)))
    from_budget = np.where(fits & ~duplicate[index], message_from[index], _NEVER)
    anchor_of = np.repeat(np.arange(len(texts)), counts)

    fates = []
    if texts:
        heads = np.concatenate(([0], np.cumsum(counts)[:-1]))
        kept = np.minimum.reduceat(lost, heads) == 0
        worst = np.maximum.reduceat(lost, heads)
        first = np.minimum.reduceat(from_budget, heads)
        stage = np.where(kept, 0, worst).tolist()  # 0 kept, else 1 + the STAGES index
        budgets = [None if f == _NEVER else f for f in first.tolist()]
        with collector_paused():
            fates = list(
                map(
                    _fate,
                    texts,
                    kinds,
                    occurrences,
                    kept.tolist(),
                    budgets,
                    map(_LOST_AT.__getitem__, stage),
                    map(_STATUS.__getitem__, stage),
                )
            )
    found = set(texts)
    not_found = tuple(p.strip() for p in phrases if p.strip() not in found)
    return AnchorReport(
        result.request.params.budget_chars,
        tuple(fates),
        not_found,
        sweep,
        anchor_of,
        index,
        lost,
        from_budget,
    )


_new, _set = object.__new__, object.__setattr__
#: By stage code (0 kept, else 1 + the STAGES index): where an anchor was lost, its status.
_LOST_AT = (None, *STAGES)
_STATUS = (KEPT, *(CUT_AWAY if stage == "trim" else REMOVED for stage in STAGES))


def _fate(
    text: str,
    kind: str,
    occurrences: tuple[Occurrence, ...],
    kept: bool,
    budget: int | None,
    lost_at: str | None,
    status: str,
) -> AnchorFate:
    """``AnchorFate(...)`` of these fields, built by filling its ``__dict__`` at once instead of
    one frozen ``__setattr__`` per field (the same object, twice as fast: a report builds
    thousands)."""
    fate = _new(AnchorFate)
    _set(
        fate,
        "__dict__",
        {
            "text": text,
            "kind": kind,
            "occurrences": occurrences,
            "kept": kept,
            "survives_from_budget": budget,
            "lost_at": lost_at,
            "status": status,
        },
    )
    return fate


def retention_curve(report: AnchorReport) -> tuple[RetentionStep, ...]:
    """Anchors kept (and output characters) at every budget in range, as steps ascending."""
    low, high = BUDGET_RANGE
    budgets = np.sort(
        np.array(
            [a.survives_from_budget for a in report.anchors if a.survives_from_budget is not None],
            dtype=np.int64,
        )
    )
    step_starts = [s.from_budget for s in report.sweep.steps]
    starts = sorted({low, *step_starts, *budgets.tolist()})
    ends = [s - 1 for s in starts[1:]] + [high]
    kept = np.searchsorted(budgets, starts, side="right").tolist()
    steps = []
    for start, end, count in zip(starts, ends, kept, strict=True):
        step = report.sweep.at(start)
        if steps and (steps[-1].anchors_kept, steps[-1].output_chars) == (count, step.output_chars):
            steps[-1] = RetentionStep(
                steps[-1].from_budget, end, count, len(report.anchors), step.output_chars
            )
        else:
            steps.append(RetentionStep(start, end, count, len(report.anchors), step.output_chars))
    return tuple(steps)


def message_anchors(report: AnchorReport, index: int) -> tuple[MessageAnchor, ...]:
    """The anchor occurrences in message ``index``, by position."""
    starts = np.concatenate(([0], np.cumsum([len(a.occurrences) for a in report.anchors])))
    found = []
    for k in np.flatnonzero(report._message == index).tolist():
        anchor_id = int(report._anchor[k])
        a = report.anchors[anchor_id]
        _, start, end = a.occurrences[k - int(starts[anchor_id])]
        lost, budget = int(report._lost[k]), int(report._from_budget[k])
        found.append(
            MessageAnchor(
                a.text,
                a.kind,
                start,
                end,
                lost == 0,
                None if lost == 0 else STAGES[lost - 1],
                None if budget == _NEVER else budget,
            )
        )
    return tuple(sorted(found, key=lambda m: (m.start, m.end)))


def stage_losses(report: AnchorReport) -> tuple[StageLoss, ...]:
    """Per stage (dedupe, trim, drop): the anchors it lost and the occurrences it took."""
    occurrences = np.bincount(report._lost, minlength=len(STAGES) + 1)
    losses = []
    for k, stage in enumerate(STAGES):
        lost = tuple(a.text for a in report.anchors if a.lost_at == stage)
        losses.append(StageLoss(stage, lost, int(occurrences[k + 1])))
    return tuple(losses)
