"""The continuation check (SPEC part D): compact the past, and see whether the future's needs
were kept.

The last ``k`` messages are the future, the others the past; the past is compacted as a request
with the same parameters, and each need of a future message with a source in the past is met
when one of its past sources is kept. The setting is judged beside the baselines at the same
budget (:mod:`~compactor.analyses.outcomes._baselines`), by needed-later recall and by the
retention of the past's anchors, and its lift is its figure minus keep-last's.

A message's returned length does not depend on the budget and the budget sweep says from which
budget each message is returned, so the recall at every budget (the curve) follows from the one
run, as the baselines' do from their from-budgets. The parameter-free parts (the needs, the
past's text analysis and anchors) are remembered per conversation: a parameter change pays for
the stages only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from compactor.analyses._sweeps import BUDGET_RANGE, budget_sweep
from compactor.analyses.anchors._finder import find_anchor_columns
from compactor.analyses.anchors._memo import ContentsMemo
from compactor.analyses.outcomes import _baselines as baselines
from compactor.analyses.outcomes._baselines import (
    DEFAULT_DRAWS,
    PROTECTED,
    BaselineForm,
    Interval,
    baseline_form,
    interval,
    lift,
)
from compactor.analyses.outcomes._judge import NEVER, NeededRecall, judge_lengths, met_needs
from compactor.analyses.outcomes._judge import need_from_budgets as _need_from
from compactor.analyses.outcomes._needs import Needs, find_needs
from compactor.engine import CompactionResult, Fate, run
from compactor.errors import InvalidRequest, Problem
from compactor.input import validate
from compactor.model import Request, writer
from compactor.text import TextAnalysis, analyse

DEFAULT_FUTURE = 5


@dataclass(frozen=True)
class Retention:
    """Anchor retention of the past (kept anchors / anchors) under the setting and baselines."""

    anchors: int
    setting: float | None
    keep_last: float | None
    random: Interval

    @property
    def lift(self) -> float | None:
        return lift(self.setting, self.keep_last)

    def to_dict(self) -> dict[str, Any]:
        return {
            "anchors": self.anchors,
            "setting": _round(self.setting),
            "keep_last": _round(self.keep_last),
            "random": self.random.to_dict(),
            "lift": _round(self.lift),
        }


@dataclass(frozen=True)
class CurveStep:
    """A recall (needed-later, or a probe recall) for every budget from ``from_budget`` to
    ``to_budget`` (inclusive), under the setting and the baselines."""

    from_budget: int
    to_budget: int
    setting: float | None
    keep_last: float | None
    random: Interval

    def to_dict(self) -> dict[str, Any]:
        return {
            "from_budget": self.from_budget,
            "to_budget": self.to_budget,
            "setting": _round(self.setting),
            "keep_last": _round(self.keep_last),
            "random": self.random.to_dict(),
        }


# a curve has a step wherever a figure changes: hundreds, made for each form at each change
_curve_step, _interval = writer(CurveStep), writer(Interval)


@dataclass(frozen=True, eq=False)
class ContinuationCheck:
    """One continuation check: the past compacted, the future's needs judged."""

    future: int
    past_messages: int
    budget_chars: int
    #: Why the past alone is not a valid request (then no figure is given); empty when it is.
    problems: tuple[Problem, ...]
    setting: NeededRecall | None
    keep_last: NeededRecall | None
    random: Interval  # needed-later recall over the draws
    retention: Retention | None
    curve: tuple[CurveStep, ...]  # ascending, covering the budget range without gaps
    result: CompactionResult | None = field(default=None, repr=False)  # the past compacted
    #: The baselines' form the figures above are of (None when the past is not a request).
    baselines: BaselineForm | None = None
    #: The same check with the baselines in the other form (None when there is none).
    alternate: ContinuationCheck | None = field(default=None, repr=False)

    def in_form(self, form: str) -> ContinuationCheck:
        """This check with its baselines in ``form`` (protected or bare)."""
        if self.baselines is None or self.baselines.form == form or self.alternate is None:
            return self
        return self.alternate

    @property
    def valid(self) -> bool:
        return not self.problems

    @property
    def recall(self) -> float | None:
        """The setting's needed-later recall (None when no need or no figure)."""
        return None if self.setting is None else self.setting.recall

    @property
    def lift(self) -> float | None:
        """The setting's needed-later recall minus keep-last's."""
        if self.setting is None or self.keep_last is None:
            return None
        return lift(self.setting.recall, self.keep_last.recall)

    def at(self, budget: int) -> CurveStep:
        """The curve's step that holds at ``budget``."""
        return next(s for s in self.curve if s.from_budget <= budget <= s.to_budget)

    def to_dict(self, *, alternate: bool = True) -> dict[str, Any]:
        """The check as JSON: the figures in its form, the baselines' form (``baselines``) and,
        under the other form's name (``bare`` or ``protected``), its baselines' figures."""
        out: dict[str, Any] = {
            "future": self.future,
            "past_messages": self.past_messages,
            "budget_chars": self.budget_chars,
            "valid": self.valid,
        }
        if not self.valid:
            out["problems"] = [p.to_dict() for p in self.problems]
            return out
        assert self.setting is not None and self.keep_last is not None
        out["needed_later_recall"] = {
            "setting": self.setting.to_dict(),
            "keep_last": self.keep_last.to_dict(),
            "random": self.random.to_dict(),
            "lift": _round(self.lift),
        }
        out["anchor_retention"] = self.retention.to_dict() if self.retention else None
        out["curve"] = [s.to_dict() for s in self.curve]
        if self.baselines is not None:
            out["baselines"] = self.baselines.to_dict()
        if alternate and self.alternate is not None and self.alternate.valid:
            other = self.alternate.to_dict(alternate=False)
            out[self.alternate.baselines.form] = {  # type: ignore[union-attr]
                "needed_later_recall": {
                    k: other["needed_later_recall"][k] for k in ("keep_last", "random", "lift")
                },
                "anchor_retention": other["anchor_retention"],
                "curve": other["curve"],
            }
        return out


def past_request(request: Request, future: int = DEFAULT_FUTURE) -> Request:
    """The first ``n - future`` messages as a request with the same parameters; raises
    :class:`InvalidRequest` when they are not a valid one (fewer than two messages, say)."""
    if future < 1:
        raise ValueError(f"the future is at least one message, not {future}")
    kept = request.messages[: max(0, len(request.messages) - future)]
    return validate(
        {"messages": [m.to_dict() for m in kept], **request.params.to_dict()},
        limits=request.limits,
    )


def past_analysis(past: Request) -> TextAnalysis:
    """The text analysis of ``past`` (remembered by contents and roles: parameter-free)."""
    key = (past.contents, past.roles)
    return _ANALYSES.get(key, lambda: analyse(past.contents, past.roles))


def continuation_check(
    request: Request,
    *,
    future: int = DEFAULT_FUTURE,
    draws: int = DEFAULT_DRAWS,
    watched: Iterable[str] = (),
    needs: Needs | None = None,
    form: str = PROTECTED,
) -> ContinuationCheck:
    """Compact all but the last ``future`` messages of ``request`` with its parameters and judge
    the future's needs, beside keep-last and ``draws`` random draws at the same budget (SPEC
    part D, the continuation check), in the baselines' ``form`` (protected: they keep first
    what the setting protects by ``keep_roles`` and pins); ``alternate`` holds the other form.

    Args:
        request: the whole conversation with the setting's parameters.
        future: how many of the last messages are the future (k); the rest is the past.
        draws: how many random draws at the same budget the random baseline averages.
        watched: phrases the user watches, needed wherever the future repeats them.
        needs: :func:`find_needs` of the whole conversation (found when omitted).
        form: the baselines' form the check's figures are of (``protected`` or ``bare``).

    Returns:
        The check: needed-later recall of the setting, of keep-last and of random (with its
        2.5-97.5% interval), the needs unmet, and the recall curve over every budget. When the
        past is not a valid request the check holds its problems and no figure.

    Example:
        >>> from compactor import continuation_check, validate
        >>> turns = ["Order DE-4471 left Hamburg.", "Noted.", "Where is DE-4471 now?", "Lyon."]
        >>> request = validate({"messages": [{"role": ("user", "assistant")[i % 2],
        ...     "content": c} for i, c in enumerate(turns)], "budget_chars": 100})
        >>> check = continuation_check(request, future=2)
        >>> check.setting.met, check.setting.needs
        (1, 1)
    """
    budget = request.params.budget_chars
    try:
        past = past_request(request, future)
    except InvalidRequest as error:
        empty = interval(None, draws)
        p = max(0, len(request.messages) - future)
        return ContinuationCheck(future, p, budget, error.problems, None, None, empty, None, ())
    if needs is None:
        needs = find_needs(request.contents, request.roles, watched)
    result = run(past, analysis=past_analysis(past))
    p = len(past.messages)
    returned = [t.chars if t.survived else None for t in result.messages]
    lengths = np.array([len(c) for c in past.contents], dtype=np.int64)
    setting = judge_lengths(needs, returned, _stage_lost(result))
    chosen = baseline_form(past, form)
    survival = survival_budgets(result)  # the setting's curve is the same in both forms
    checks = []
    for shown in (chosen, chosen.other()):
        mask = shown.mask
        keep_last = baselines.keep_last_lengths(lengths, budget, mask)
        drawn = baselines.random_lengths(lengths, budget, draws, mask)
        keep_last_recall = judge_lengths(needs, [None if x < 0 else int(x) for x in keep_last])
        judged, met = met_needs(needs, drawn)
        random_recall = interval(met.mean(axis=1) if len(judged) else None, draws)
        retention = _retention(past, watched, returned, keep_last, drawn)
        curve = recall_curve(result, needs, draws, mask, survival)
        checks.append(
            ContinuationCheck(
                future,
                p,
                budget,
                (),
                setting,
                keep_last_recall,
                random_recall,
                retention,
                curve,
                result,
                shown,
            )
        )
    first, second = checks
    object.__setattr__(first, "alternate", second)
    object.__setattr__(second, "alternate", first)
    return first


def recall_curve(
    result: CompactionResult,
    needs: Needs,
    draws: int = DEFAULT_DRAWS,
    protected: np.ndarray | None = None,
    survival: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[CurveStep, ...]:
    """Needed-later recall of ``result`` (the past compacted) and of the baselines (protected
    when ``protected`` marks messages) at every budget in range, as ascending steps, exact
    from the one run (``survival``: its :func:`survival_budgets`, when the caller has them)."""
    from_budget, chars = survival_budgets(result) if survival is None else survival
    lengths = np.array([len(c) for c in result.request.contents], dtype=np.int64)
    _, setting = _need_from(needs, from_budget, chars)
    _, keep_last = _need_from(needs, baselines.keep_last_from(lengths, protected))
    _, drawn = _need_from(needs, baselines.random_from(lengths, protected, draws))
    return curve_steps(setting, keep_last, drawn)


def baseline_curve(
    request: Request,
    needs: Needs,
    draws: int = DEFAULT_DRAWS,
    form: str = PROTECTED,
) -> tuple[CurveStep, ...]:
    """Needed-later recall of keep-last and random (in ``form``, of ``request``'s setting) on
    ``request``'s messages as the past, at every budget in range: what a strategy judged on the
    same needs is set beside at its own size (:func:`step_at`). ``setting`` is keep-last's."""
    lengths = np.array([len(c) for c in request.contents], dtype=np.int64)
    mask = baseline_form(request, form).mask
    _, keep_last = _need_from(needs, baselines.keep_last_from(lengths, mask))
    _, drawn = _need_from(needs, baselines.random_from(lengths, mask, draws))
    return curve_steps(keep_last, keep_last, drawn)


def step_at(curve: tuple[CurveStep, ...], budget: int) -> CurveStep | None:
    """The step of ``curve`` at ``budget`` (the range's ends beyond it), None without a curve:
    keep-last and random at a strategy's own size, when it returned more than the budget."""
    if not curve:
        return None
    low, high = curve[0].from_budget, curve[-1].to_budget
    at = min(max(budget, low), high)
    return next(s for s in curve if s.from_budget <= at <= s.to_budget)


def survival_budgets(result: CompactionResult) -> tuple[np.ndarray, np.ndarray]:
    """``(from_budget, chars)``: per message of ``result``'s request, the smallest budget from
    which memory-compact returns it (NEVER when none in range) and its length then."""
    sweep = budget_sweep(result)
    from_budget = np.array(
        [
            NEVER if s.survives_from_budget is None else s.survives_from_budget
            for s in sweep.survival
        ],
        dtype=np.int64,
    )
    return from_budget, np.array([s.chars for s in sweep.survival], dtype=np.int64)


def curve_steps(
    setting: np.ndarray, keep_last: np.ndarray, drawn: np.ndarray
) -> tuple[CurveStep, ...]:
    """A share at every budget in range, as ascending steps, from per item (a need, a probe)
    the smallest budget at which it is met (NEVER: at none) under the setting, keep-last and
    each random draw (``drawn``: one row per draw). None throughout when there is no item."""
    low, high = BUDGET_RANGE
    draws = len(drawn)
    total = setting.shape[-1]
    if not total:
        return (CurveStep(low, high, None, None, interval(None, draws)),)
    every = np.concatenate((setting, keep_last, drawn.ravel()))
    starts = np.unique(np.concatenate(([low], np.maximum(every[every <= high], low))))
    met_setting = np.searchsorted(np.sort(setting), starts, side="right") / total
    met_keep_last = np.searchsorted(np.sort(keep_last), starts, side="right") / total
    met_drawn = np.stack([np.searchsorted(np.sort(row), starts, side="right") for row in drawn])
    shares = met_drawn / total
    mean = shares.mean(axis=0)
    lows, highs = np.percentile(shares, baselines.PERCENTILES, axis=0)
    ends = [*(starts[1:] - 1).tolist(), high]
    # plain floats read once per column, not a numpy scalar per step and figure
    columns = zip(
        starts.tolist(),
        ends,
        met_setting.tolist(),
        met_keep_last.tolist(),
        mean.tolist(),
        lows.tolist(),
        highs.tolist(),
        strict=True,
    )
    steps = [
        _curve_step(start, end, mine, last, _interval(middle, low_, high_, draws))
        for start, end, mine, last, middle, low_, high_ in columns
    ]
    return tuple(steps)


def _retention(
    past: Request,
    watched: Iterable[str],
    returned: list[int | None],
    keep_last: np.ndarray,
    drawn: np.ndarray,
) -> Retention:
    """Anchors of the past kept (part C: one occurrence kept) under each strategy."""
    spans = _anchor_spans(past.contents, tuple(watched))
    if not spans.anchors:
        return Retention(0, None, None, interval(None, len(drawn)))
    setting = np.array([-1 if r is None else r for r in returned], dtype=np.int64)
    rows = np.vstack((setting, keep_last, drawn))
    kept = rows[:, spans.message] >= spans.end
    share = np.logical_or.reduceat(kept, spans.heads, axis=1).mean(axis=1)
    return Retention(
        spans.anchors, float(share[0]), float(share[1]), interval(share[2:], len(drawn))
    )


class _AnchorSpans(NamedTuple):
    """The past's anchors as what keeps each: per anchor (``heads``: where its entries
    start), each message holding an occurrence of it and the least end of one there. A
    message returned with at least that many characters keeps the anchor (a whole session
    repeats an anchor in one message many times: the occurrences, not the messages, are
    most of the columns)."""

    anchors: int
    heads: np.ndarray
    message: np.ndarray
    end: np.ndarray


def _anchor_spans(contents: tuple[str, ...], phrases: tuple[str, ...]) -> _AnchorSpans:
    """:class:`_AnchorSpans` of ``contents`` with ``phrases`` watched, remembered by both
    (parameter-free: a rerun after a budget move reads them again)."""
    return _SPANS.get((contents, phrases), lambda: _spans_of(contents, phrases))


def _spans_of(contents: tuple[str, ...], phrases: tuple[str, ...]) -> _AnchorSpans:
    found = find_anchor_columns(contents, phrases)
    anchor = np.repeat(np.arange(len(found.counts)), found.counts)
    order = np.lexsort((found.end, found.message, anchor))  # least end first in each pair
    anchor, message, end = anchor[order], found.message[order], found.end[order]
    first = np.ones(len(anchor), dtype=bool)
    first[1:] = (anchor[1:] != anchor[:-1]) | (message[1:] != message[:-1])
    anchor, message, end = anchor[first], message[first], end[first]
    heads = np.flatnonzero(np.concatenate(([True], anchor[1:] != anchor[:-1])))
    return _AnchorSpans(len(found.anchors), heads, message, end)


def _stage_lost(result: CompactionResult) -> Callable[[int, int], str]:
    """Where memory-compact lost an occurrence ending at ``end`` in message ``i``."""

    duplicate = [t.fate is Fate.DUPLICATE for t in result.messages]
    cut = [t.cut.chars if t.cut is not None else None for t in result.messages]

    def lost_at(i: int, end: int) -> str:
        if duplicate[i]:
            return "dedupe"
        if cut[i] is not None and end > cut[i]:
            return "trim"
        return "drop"

    return lost_at


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


_ANALYSES: ContentsMemo[TextAnalysis] = ContentsMemo(8)
_SPANS: ContentsMemo[_AnchorSpans] = ContentsMemo(8)
