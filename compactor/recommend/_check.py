"""The check: the recommended setting on conversations the search never saw, beside the schema
defaults (memory-compact at the contract's defaults), keep-last and random at the same budget
(their bare form: the corpus evaluation gives them protected and bare, and bare is the harder
to beat),
each with a 95% interval (a seeded bootstrap over conversations, pooled), and its lift over
keep-last with the same resamples (paired). For the ``cost`` objective the figure is the mean
cost of a conversation in USD and the lift its difference from keep-last's (below zero:
cheaper); with a floor, each method's needed-later recall follows with its interval, so the
reader sees whether the winner holds the floor on conversations it was not tuned on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from compactor.analyses.outcomes import KEEP_LAST, RANDOM, judge_outcome
from compactor.analyses.pricing import ModelPrice
from compactor.contract import DEFAULTS as DEFAULT_VALUES
from compactor.contract import MEMORY_COMPACT
from compactor.errors import InvalidRequest
from compactor.evaluation import (
    GRID_PARAMETERS,
    CorpusItem,
    evaluate_strategy,
    prepare_conversation,
)
from compactor.recommend._objectives import OBJECTIVES, Objective, price_rows
from compactor.strategies import apply_strategy
from compactor.wording import met_share, percent, points

#: The methods the check reports, in order.
RECOMMENDED, DEFAULTS = "recommended", "schema defaults"
METHODS = (RECOMMENDED, DEFAULTS, KEEP_LAST, RANDOM)
RESAMPLES = 2000
#: The bootstrap's seed (the same resamples for every method: a paired interval for the lift).
BOOTSTRAP_SEED = 0
#: A figure's kinds: a recall (a share), or a cost (USD per conversation).
RECALL, COST = "recall", "cost"


def usd(value: float | None, signed: bool = False) -> str:
    """A cost per conversation as dollars per 1,000 conversations (a conversation's cost is a
    fraction of a cent): ``$3.75`` or, ``signed``, ``-$0.42``."""
    if value is None:
        return "n/a"
    sign = ("-" if value < 0 else "+") if signed else ""
    return f"{sign}${abs(value) * 1000:,.2f}"


@dataclass(frozen=True)
class Figure:
    """One method on the check part: its pooled recall and 95% interval, its lift over keep-last
    in points with the interval of the lift, and the budget met (counts)."""

    method: str
    recall: float | None
    low: float | None
    high: float | None
    lift: float | None
    lift_low: float | None
    lift_high: float | None
    budget_met: int
    conversations: int
    kind: str = RECALL

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}

    def line(self) -> str:
        if self.kind == COST:
            value, each, diff = usd(self.recall), usd, lambda v: usd(v, signed=True)
            value += " per 1,000 conversations"
        else:
            value, each, diff = f"{percent(self.recall):>6}", percent, points
        interval = "" if self.low is None else f" [{each(self.low)}, {each(self.high)}]"
        lift = ""
        if self.method != KEEP_LAST and self.lift is not None:
            lift = (
                f", {diff(self.lift)} vs keep-last [{diff(self.lift_low)}, {diff(self.lift_high)}]"
            )
        return (
            f"{self.method:<16} {value}{interval}{lift}; budget met "
            f"{met_share(self.budget_met, self.conversations)}"
        )


@dataclass(frozen=True)
class Check:
    """The check part's figures, the judge that made them, and the verdict."""

    judge: str
    budget_chars: int
    conversations: tuple[Any, ...]
    figures: tuple[Figure, ...]
    #: With a floor: the floor, its judge, and each method's needed-later recall.
    floor: float | None = None
    floor_judge: str = ""
    floor_figures: tuple[Figure, ...] = ()

    def figure(self, method: str) -> Figure:
        return next(f for f in self.figures if f.method == method)

    def floor_figure(self, method: str) -> Figure | None:
        return next((f for f in self.floor_figures if f.method == method), None)

    @property
    def holds_floor(self) -> bool:
        """Whether the recommendation's needed-later recall on the check part is at least the
        floor (True without a floor)."""
        if self.floor is None:
            return True
        mine = self.floor_figure(RECOMMENDED)
        return mine is not None and mine.recall is not None and mine.recall >= self.floor

    @property
    def beats_keep_last(self) -> bool:
        """Whether the recommendation beats keep-last across the interval of its lift: above
        zero for a recall; for a cost, below zero while holding the floor."""
        lift = self.figure(RECOMMENDED)
        if lift.kind == COST:
            return lift.lift_high is not None and lift.lift_high < 0 and self.holds_floor
        return lift.lift_low is not None and lift.lift_low > 0

    @property
    def verdict(self) -> str:
        mine = self.figure(RECOMMENDED)
        if mine.recall is None:
            return "the check part judges nothing under this judge"
        if mine.kind == COST:
            return self._cost_verdict(mine)
        if self.beats_keep_last:
            return (
                f"the recommended setting beats keep-last on the check part ({points(mine.lift)})"
            )
        if mine.lift is not None and mine.lift > 0:
            return (
                f"no setting is shown to beat keep-last: the recommended setting is "
                f"{points(mine.lift)} but the interval [{points(mine.lift_low)}, "
                f"{points(mine.lift_high)}] includes zero"
            )
        return (
            f"no setting beats keep-last at this budget ({points(mine.lift)}): keep the last "
            "messages that fit"
        )

    def _cost_verdict(self, mine: Figure) -> str:
        floor = self.floor_figure(RECOMMENDED)
        kept = self.floor_figure(KEEP_LAST)
        if floor is None or floor.recall is None:
            return "the check part judges no need, so the floor cannot be checked there"
        reached = f"needed-later recall {percent(floor.recall)} (the floor {percent(self.floor)})"
        if not self.holds_floor:
            return (
                f"on the check part the recommended setting misses the floor: {reached}; it "
                "held it on the tuning part only"
            )
        if self.beats_keep_last:
            return (
                f"the recommended setting costs {usd(mine.recall)} per 1,000 conversations on "
                f"the check part, {usd(-mine.lift)} less than keep-last, at {reached}"  # type: ignore[operator]
            )
        dearer = (
            f"{usd(mine.lift, signed=True)} per 1,000 conversations against keep-last, interval "
            f"[{usd(mine.lift_low, signed=True)}, {usd(mine.lift_high, signed=True)}]"
        )
        if kept is not None and kept.recall is not None and kept.recall < self.floor:  # type: ignore[operator]
            return (
                f"the recommended setting costs {dearer}; keep-last misses the floor (its "
                f"needed-later recall is {percent(kept.recall)}), so the recommended setting is "
                f"the cheapest found that holds it, at {reached}"
            )
        return f"no setting is shown cheaper than keep-last at this budget ({dearer}), at {reached}"

    def lines(self) -> list[str]:
        out = [
            f"check: {len(self.conversations):,} conversations not tuned on, budget "
            f"{self.budget_chars:,} characters; judge: {self.judge}",
            *(f.line() for f in self.figures),
        ]
        if self.floor_figures:
            out.append(
                f"the floor, needed-later recall at least {percent(self.floor)}; judge: "
                f"{self.floor_judge}"
            )
            out += [f.line() for f in self.floor_figures]
        return [*out, self.verdict]

    def to_dict(self) -> dict[str, Any]:
        out = {
            "judge": self.judge,
            "budget_chars": self.budget_chars,
            "conversations": list(self.conversations),
            "figures": [f.to_dict() for f in self.figures],
            "beats_keep_last": self.beats_keep_last,
            "verdict": self.verdict,
        }
        if self.floor is not None:
            out["floor"] = {
                "needed_recall": self.floor,
                "judge": self.floor_judge,
                "held": self.holds_floor,
                "figures": [f.to_dict() for f in self.floor_figures],
            }
        return out


def check_report(
    items: Sequence[CorpusItem],
    budget: int,
    strategy: str,
    params: Mapping[str, Any],
    objective: Objective,
    options: Any,
    defaults_rows: Callable[[Sequence[CorpusItem], int, Any], list[dict[str, Any]]],
    *,
    model: ModelPrice | None = None,
    floor: float | None = None,
) -> Check:
    """The recommended setting (``strategy`` with ``params``) and the others on ``items``,
    priced at ``model`` when given, with their needed-later recall beside a ``floor``."""
    names = [item.conversation for item in items]
    mine = list(
        evaluate_strategy(
            items,
            strategy,
            [dict(params)],
            [budget],
            workers=options.workers,
            future=options.future,
            backend=options.backend,
        )
    )
    others = defaults_rows(items, budget, options)
    rows = {
        RECOMMENDED: mine,
        DEFAULTS: [r for r in others if r["strategy"] == MEMORY_COMPACT],
        # the baselines' bare form (nothing protected): the stronger of their two forms
        KEEP_LAST: [r for r in others if r["strategy"] == KEEP_LAST and r["keep_roles"] is None],
        RANDOM: [r for r in others if r["strategy"] == RANDOM and r["keep_roles"] is None],
    }
    if model is not None:
        for found in rows.values():
            price_rows(found, model)
    met = {m: sum(bool(r["budget_met"]) for r in rows[m]) for m in METHODS}
    picks = np.random.default_rng(BOOTSTRAP_SEED).integers(
        0, len(names), size=(RESAMPLES, len(names))
    )

    def figures(judge: Objective) -> tuple[Figure, ...]:
        parts = {m: _parts(rows[m], names, judge) for m in METHODS}
        kind = COST if judge.minimise else RECALL
        return tuple(
            _figure(m, parts[m], parts[KEEP_LAST], picks, met[m], len(names), kind) for m in METHODS
        )

    judge = objective.judge
    if model is not None:
        judge += f"; at {model.name}'s prices ({model.key})"
    if floor is None:
        return Check(judge, budget, tuple(names), figures(objective))
    needed = OBJECTIVES["needed"]
    return Check(
        judge, budget, tuple(names), figures(objective), floor, needed.judge, figures(needed)
    )


def _parts(
    rows: Sequence[Mapping[str, Any]], names: Sequence[Any], objective: Objective
) -> np.ndarray:
    """Per conversation (in ``names`` order) its met and judged counts (0, 0 when none)."""
    by_name = {r["conversation"]: objective.parts(r) for r in rows}
    out = np.zeros((len(names), 2))
    for k, name in enumerate(names):
        found = by_name.get(name)
        if found is not None:
            out[k] = found
    return out


def _figure(
    method: str,
    parts: np.ndarray,
    keep_last: np.ndarray,
    picks: np.ndarray,
    met: int,
    total: int,
    kind: str = RECALL,
) -> Figure:
    judged = parts[:, 1].sum()
    if not judged:
        return Figure(method, None, None, None, None, None, None, met, total, kind)
    recall = parts[:, 0].sum() / judged
    with np.errstate(invalid="ignore", divide="ignore"):
        resampled = parts[picks, 0].sum(axis=1) / parts[picks, 1].sum(axis=1)
        base = keep_last[picks, 0].sum(axis=1) / keep_last[picks, 1].sum(axis=1)
        diffs = resampled - base
    resampled = resampled[np.isfinite(resampled)]
    low, high = np.percentile(resampled, (2.5, 97.5))
    base_recall = keep_last[:, 0].sum() / keep_last[:, 1].sum() if keep_last[:, 1].sum() else None
    lift = lift_low = lift_high = None
    if base_recall is not None:
        lift = recall - base_recall
        diffs = diffs[np.isfinite(diffs)]
        lift_low, lift_high = (float(v) for v in np.percentile(diffs, (2.5, 97.5)))
    return Figure(
        method,
        float(recall),
        float(low),
        float(high),
        lift,
        lift_low,
        lift_high,
        met,
        total,
        kind,
    )


@dataclass(frozen=True)
class KeptNeed:
    """A need of a checked conversation the recommended setting keeps and the schema defaults
    lose: the message that needs it, the anchor and its kind."""

    conversation: Any
    user: int
    anchor: str
    kind: str


def needs_kept_over_defaults(
    items: Sequence[CorpusItem],
    budget: int,
    strategy: str,
    params: Mapping[str, Any],
    future: int,
    limit: int = 50,
) -> tuple[KeptNeed, ...]:
    """Why the winner wins: the needs of ``items`` (the check part) that ``strategy`` with
    ``params`` keeps at ``budget`` and memory-compact at the contract's defaults loses, judged
    as the rows judge them (:func:`~compactor.analyses.outcomes.judge_outcome` on the past);
    at most ``limit``."""
    out: list[KeptNeed] = []
    defaults = {name: DEFAULT_VALUES[name] for name in GRID_PARAMETERS}
    for item in items:
        try:
            prepared = prepare_conversation(item, future)
        except InvalidRequest:
            continue
        if prepared.past is None or prepared.needs is None:
            continue
        mine = _unmet(prepared, strategy, params, budget)
        theirs = _unmet(prepared, MEMORY_COMPACT, defaults, budget)
        for key in sorted(theirs - mine):
            out.append(KeptNeed(item.conversation, *key))
            if len(out) >= limit:
                return tuple(out)
    return tuple(out)


def _unmet(prepared: Any, strategy: str, params: Mapping[str, Any], budget: int) -> set:
    result = apply_strategy(strategy, prepared.past, budget_chars=budget, params=dict(params))
    judged = judge_outcome(prepared.needs, result)
    return {(u.user, u.anchor, u.kind) for u in judged.unmet}
