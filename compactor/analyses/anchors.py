"""Anchors: the exact strings a user cannot afford to lose, and what a compaction does to them.

SPEC part C. :func:`find_anchors` finds them in the contents (patterns per kind in
:mod:`compactor.analyses.anchor_finder`; parameter-free, so compute it once per conversation);
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

Watched facts (:mod:`compactor.analyses.facts`) join as anchors of kind ``watched``: their
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

from compactor.analyses import anchor_finder
from compactor.analyses.facts import find_phrase
from compactor.analyses.sweeps import BUDGET_RANGE, BudgetSweep, budget_sweep
from compactor.result import CompactionResult, Fate

WATCHED = "watched"
#: The stages that can lose an occurrence, in pipeline order (pin loses nothing).
STAGES = ("dedupe", "trim", "drop")
#: How each stage loses an anchor, for sentences: "trim cut away 14 anchors".
STAGE_VERBS = {"dedupe": "removed", "trim": "cut away", "drop": "removed"}
# An anchor's status under the current request.
KEPT, CUT_AWAY, REMOVED = "kept", "cut away", "removed"

#: ``(index, start, end)``: message index and code point offsets, ``content[start:end]``.
Occurrence = tuple[int, int, int]
_NEVER = np.iinfo(np.int64).max


@dataclass(frozen=True, slots=True)
class Anchor:
    """An exact string of the conversation and every place it occurs, in message order."""

    text: str
    kind: str
    occurrences: tuple[Occurrence, ...]


def find_anchors(contents: Sequence[str], watched: Iterable[str] = ()) -> tuple[Anchor, ...]:
    """Every anchor in ``contents`` (plus the ``watched`` phrases found there), in the order of
    their first occurrence.

    >>> anchors = find_anchors(["Order DE-4471 ships Thursday 14:00.",
    ...                         "Refund of $1,250.00 to ana@example.com for DE-4471"])
    >>> [(a.text, a.kind) for a in anchors][:3]
    [('DE-4471', 'identifier'), ('Thursday', 'date'), ('14:00', 'time')]
    >>> [(a.text, a.kind) for a in anchors][3:]
    [('$1,250.00', 'quantity'), ('ana@example.com', 'email')]
    >>> anchors[0].occurrences
    ((0, 6, 13), (1, 43, 50))
    """
    found = _found(contents)
    phrases = [p.strip() for p in watched if p.strip()]
    if phrases:
        by_text = {a.text: a for a in found}
        for phrase, occurrences in zip(phrases, _watched(contents, phrases), strict=True):
            by_text.pop(phrase, None)
            if occurrences:
                by_text[phrase] = Anchor(phrase, WATCHED, occurrences)
        found = sorted(by_text.values(), key=lambda a: a.occurrences[0])
    return tuple(found)


def _found(contents: Sequence[str]) -> list[Anchor]:
    text, starts = anchor_finder.joined(contents)
    matches = anchor_finder.find_matches(text)
    ids: dict[str, int] = {}
    texts = [text[s:e] for s, e, _ in matches]
    occurrence_ids = [ids.setdefault(t, len(ids)) for t in texts]
    kinds = [""] * len(ids)
    for anchor_id, (_, _, group) in zip(occurrence_ids, matches, strict=True):
        if not kinds[anchor_id]:
            kinds[anchor_id] = anchor_finder.KINDS[group - 1]
    spans = [(s, e) for s, e, _ in matches]
    for (s, _, group), inside in zip(matches, texts, strict=True):
        if anchor_finder.KINDS[group - 1] in anchor_finder.CONTAINERS:
            for a, b in anchor_finder.inner_matches(inside):
                anchor_id = ids.get(inside[a:b])
                if anchor_id is not None:
                    occurrence_ids.append(anchor_id)
                    spans.append((s + a, s + b))
    if not spans:
        return []
    anchor_of = np.array(occurrence_ids, dtype=np.int64)
    span = np.array(spans, dtype=np.int64).reshape(-1, 2)
    message = np.searchsorted(starts, span[:, 0], side="right") - 1
    local = span - starts[message][:, None]
    order = np.lexsort((local[:, 0], message, anchor_of))
    anchor_of, message, local = anchor_of[order], message[order], local[order]
    heads = np.flatnonzero(np.concatenate(([True], anchor_of[1:] != anchor_of[:-1])))
    rows = list(zip(message.tolist(), local[:, 0].tolist(), local[:, 1].tolist(), strict=True))
    bounds = [*heads.tolist(), len(rows)]
    names = list(ids)
    anchors = [
        Anchor(names[anchor_of[h]], kinds[anchor_of[h]], tuple(rows[h:t]))
        for h, t in zip(bounds, bounds[1:], strict=False)
    ]
    anchors.sort(key=lambda a: a.occurrences[0])
    return anchors


def _watched(contents: Sequence[str], phrases: Sequence[str]) -> list[tuple[Occurrence, ...]]:
    return [
        tuple(
            (i, start, end)
            for i, content in enumerate(contents)
            for start, end in find_phrase(phrase, content)
        )
        for phrase in phrases
    ]


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
    when omitted; ``sweep`` is :func:`budget_sweep` of ``result``, computed when omitted.
    """
    phrases = [p for p in watched if p.strip()]
    if anchors is None:
        anchors = find_anchors(result.request.contents, phrases)
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
    counts = np.fromiter((len(a.occurrences) for a in anchors), np.int64, len(anchors))
    flat = np.array([o for a in anchors for o in a.occurrences], dtype=np.int64).reshape(-1, 3)
    index, end = flat[:, 0], flat[:, 2]
    fits = end <= returned[index]
    lost = np.where(duplicate[index], 1, np.where(~fits, 2, np.where(~survived[index], 3, 0)))
    from_budget = np.where(fits & ~duplicate[index], message_from[index], _NEVER)
    anchor_of = np.repeat(np.arange(len(anchors)), counts)

    fates = []
    if len(anchors):
        heads = np.concatenate(([0], np.cumsum(counts)[:-1]))
        kept = np.minimum.reduceat(lost, heads) == 0
        worst = np.maximum.reduceat(lost, heads)
        first = np.minimum.reduceat(from_budget, heads)
        for a, k, w, f in zip(anchors, kept.tolist(), worst.tolist(), first.tolist(), strict=True):
            lost_at = None if k else STAGES[w - 1]
            status = KEPT if k else CUT_AWAY if lost_at == "trim" else REMOVED
            fates.append(
                AnchorFate(
                    a.text, a.kind, a.occurrences, k, None if f == _NEVER else f, lost_at, status
                )
            )
    texts = {a.text for a in anchors}
    not_found = tuple(p.strip() for p in phrases if p.strip() not in texts)
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
