"""The search: Optuna's seeded TPE sampler over the strategies that keep to a budget and their
parameters, trial after trial, each trial's setting judged over the tuning part of the corpus by
the corpus evaluation (:func:`~compactor.evaluation.evaluate_strategy`, on its process pool or
Ray); then the winner, the schema defaults, keep-last and random judged on the check part only.

Same corpus, goal, seed and trial count: the same trials in the same order, so the same
recommendation (a ``timeout`` stops after whichever trial ends past it, so it may run fewer).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from compactor.analyses.outcomes import DEFAULT_FUTURE
from compactor.analyses.pricing import ModelPrice, load_prices
from compactor.contract import AGENT_LIMITS, DEFAULTS, MEMORY_COMPACT, budget_range
from compactor.errors import Problem, ProblemError
from compactor.evaluation import (
    CorpusItem,
    RepeatedEvaluation,
    RunOptions,
    evaluate,
    grid_points,
)
from compactor.recommend._check import Check, check_report
from compactor.recommend._objectives import OBJECTIVES, Objective, pooled, price_rows
from compactor.recommend._space import SPACES, searched, suggest
from compactor.strategies import KEEP_LAST, Setting, setting_toml
from compactor.text import DEFAULT_ENCODING
from compactor.wording import install_command, percent

INSTALL_HINT = f"recommend needs the recommend extra (Optuna): {install_command('recommend')}"
#: Characters per token when a budget in tokens is judged in characters (the strategies' own
#: estimate, ceil(characters / 4)); the setting written keeps the budget in tokens.
CHARS_PER_TOKEN = 4
#: Cut points of one conversation: at most this many prefixes (each ending before its future).
CUT_POINTS = 12


class RecommendUnavailable(ProblemError):
    """Optuna is not installed: the problem names the command that installs it."""


class RecommendError(ProblemError):
    """A goal or corpus a recommendation cannot work with; each problem says what and where."""


def optuna_available() -> bool:
    try:
        import optuna  # noqa: F401
    except ImportError:
        return False
    return True


@dataclass(frozen=True)
class Goal:
    """What the user asks for: one budget (characters, or tokens: ``budget_tokens``, or a
    model's ``window`` less ``reserve`` tokens for the answer), an objective (a name of
    :data:`~compactor.recommend.OBJECTIVES`) and the constraints every recommended setting meets
    on the tuning part: the budget met on at least ``min_budget_met`` of the conversations, no
    tool pair split (``keep_tool_pairs``), every system message kept (``keep_system``), and
    needed-later recall at least ``floor`` (a share; required by the ``cost`` objective, which
    prices each setting at ``model``, an entry of the price table ``prices``: None, the shipped
    one or ``$COMPACTOR_PRICES``)."""

    budget_chars: int | None = None
    budget_tokens: int | None = None
    window: int | None = None
    reserve: int = 0
    encoding: str | None = None
    objective: str = "needed"
    min_budget_met: float = 0.95
    keep_tool_pairs: bool = False
    keep_system: bool = False
    floor: float | None = None
    model: str | None = None
    prices: str | None = None

    def price(self) -> ModelPrice | None:
        """The price table's entry of ``model`` (None without one); PricesError names the
        models there are."""
        if self.model is None:
            return None
        return load_prices(self.prices).get(self.model)

    def check(self) -> None:
        problems = []
        given = [self.budget_chars, self.budget_tokens, self.window]
        if sum(v is not None for v in given) != 1:
            problems.append(
                Problem("give exactly one budget: characters, tokens, or a window", "budget")
            )
        for name in ("budget_chars", "budget_tokens", "window"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                problems.append(Problem(f"must be a whole number, not {value!r}", name))
        window = self.window if isinstance(self.window, int) else None
        if window is not None and not 0 <= self.reserve < window:
            problems.append(
                Problem(f"must be from 0 to the window less 1, not {self.reserve}", "reserve")
            )
        if self.objective not in OBJECTIVES:
            problems.append(
                Problem(
                    f"is not an objective; the objectives are {', '.join(OBJECTIVES)}",
                    "objective",
                )
            )
        if not 0 <= self.min_budget_met <= 1:
            problems.append(Problem("must be a share from 0 to 1", "min_budget_met"))
        problems += self._cost_problems()
        if problems:
            raise RecommendError(problems)
        low, high = budget_range(AGENT_LIMITS)  # a whole agent session's budget too
        if not low <= self.chars <= high:
            raise RecommendError(
                [Problem(f"is {self.chars:,} characters; it must be {low:,} to {high:,}", "budget")]
            )

    def _cost_problems(self) -> list[Problem]:
        problems = []
        if self.floor is not None and (
            isinstance(self.floor, bool)
            or not isinstance(self.floor, int | float)
            or not 0 <= self.floor <= 1
        ):
            problems.append(Problem(f"must be a share from 0 to 1, not {self.floor!r}", "floor"))
        cost = self.objective == "cost"
        if cost and self.floor is None:
            problems.append(
                Problem(
                    "state the needed-later recall the cheapest setting must reach (a share "
                    "from 0 to 1, for example 0.8)",
                    "floor",
                )
            )
        if cost and self.model is None:
            problems.append(Problem("name the model whose prices to minimise", "model"))
        if self.model is not None:
            try:
                table = load_prices(self.prices)
            except ProblemError as error:  # the file's own problems, with its line and key
                return problems + list(error.problems)
            try:
                found = table.get(self.model)
            except ProblemError as error:
                problems += [Problem(p.message, "model") for p in error.problems]
            else:
                if not found.priced:
                    problems.append(
                        Problem(f"{self.model} has no input or output price to minimise", "model")
                    )
        return problems

    @property
    def tokens(self) -> int | None:
        """The budget in tokens (None for a budget in characters)."""
        if self.window is not None:
            return self.window - self.reserve
        return self.budget_tokens

    @property
    def chars(self) -> int:
        """The character budget every setting is judged at."""
        tokens = self.tokens
        return self.budget_chars if tokens is None else tokens * CHARS_PER_TOKEN  # type: ignore[return-value]

    def setting(self, strategy: str, params: Mapping[str, Any], **named: Any) -> Setting:
        """The strategy with ``params`` at this goal's budget, as a ``compaction.toml`` holds it."""
        if self.tokens is None:
            return Setting(strategy, dict(params), budget_chars=self.chars, **named)
        encoding = self.encoding or DEFAULT_ENCODING
        return Setting(
            strategy, dict(params), budget_tokens=self.tokens, encoding=encoding, **named
        )


@dataclass(frozen=True)
class Options:
    """How the search runs: at most ``trials`` trials (and, when given, no new trial after
    ``timeout`` seconds), Optuna's sampler and the split seeded by ``seed``, ``check_share`` of
    the conversations (or cut points) held out for the check, the strategies searched (None:
    every one with a search space that runs here), and the corpus evaluation's ``workers`` on
    ``backend`` (``local`` or ``ray``), its future of ``future`` messages."""

    trials: int = 50
    timeout: float | None = None
    seed: int = 0
    check_share: float = 0.3
    strategies: tuple[str, ...] | None = None
    workers: int | None = None
    backend: str = "local"
    future: int = DEFAULT_FUTURE


@dataclass(frozen=True)
class Trial:
    """One trial: its setting, its recall on the tuning part (the objective's; for ``cost``,
    needed-later recall; None when nothing was judged), its budget-met share, whether it met
    the goal's constraints, its needed-later recall (the floor's figure) and, for ``cost``,
    the mean cost of a tuning conversation in USD."""

    number: int
    strategy: str
    params: Mapping[str, Any]
    recall: float | None
    budget_met: float
    feasible: bool
    why_not: str = ""
    needed: float | None = None
    cost: float | None = None


@dataclass(frozen=True)
class Recommendation:
    """The winner, the runners-up (the best trial of each other strategy), every trial, the
    conversations tuned on and checked on, and the check (:class:`Check`)."""

    goal: Goal
    objective: Objective
    winner: Setting
    winner_trial: Trial
    runners_up: tuple[Trial, ...]
    trials: tuple[Trial, ...]
    tuning: tuple[Any, ...]
    checking: tuple[Any, ...]
    check: Check
    seconds: float
    one_conversation: bool = False
    #: Every conversation name a trial's rows came from (the tuner's whole view).
    seen: frozenset[Any] = field(default_factory=frozenset)

    @property
    def beats_keep_last(self) -> bool:
        return self.check.beats_keep_last

    def to_dict(self) -> dict[str, Any]:
        """The recommendation as JSON, as ``recommend --json`` prints it and the service
        returns it (shares 0..1, costs in USD per conversation), with the ``compaction.toml``
        text of the winner."""

        def figures(t: Trial) -> dict[str, Any]:
            out = {"recall": t.recall, "needed_recall": t.needed, "budget_met": t.budget_met}
            if self.objective.minimise:
                out["cost_usd"] = t.cost
            return out

        return {
            "objective": {
                "name": self.objective.name,
                "label": self.objective.label,
                "judge": self.check.judge,
                "floor": self.goal.floor,
                "model": self.goal.model,
            },
            "setting": self.winner.to_dict(),
            "toml": setting_toml(self.winner),
            "tuning_recall": self.winner_trial.recall,
            "tuning_figures": figures(self.winner_trial),
            "runners_up": [
                {"strategy": t.strategy, "params": dict(t.params), **figures(t)}
                for t in self.runners_up
            ],
            "trials": len(self.trials),
            "seconds": round(self.seconds, 3),
            "one_conversation": self.one_conversation,
            "tuning": list(self.tuning),
            "check": self.check.to_dict(),
        }


Progress = Callable[[int, int, "Trial | None"], None]


def split(names: Sequence[Any], share: float, seed: int) -> tuple[list[Any], list[Any]]:
    """The names shuffled by ``seed``; ``share`` of them (at least one) for the check, the rest
    (at least one) for tuning; each part in the given order.

    >>> split(["a", "b", "c", "d"], 0.5, 0)
    (['b', 'd'], ['a', 'c'])
    """
    if len(names) < 2:
        raise RecommendError(
            [
                Problem(
                    "needs at least 2 conversations (or cut points) to tune on one part and "
                    "check on another",
                    "corpus",
                )
            ]
        )
    order = list(names)
    random.Random(seed).shuffle(order)
    checked = min(len(names) - 1, max(1, round(len(names) * share)))
    held = set(order[:checked])
    return [n for n in names if n not in held], [n for n in names if n in held]


def cut_points(item: CorpusItem, future: int, count: int = CUT_POINTS) -> list[CorpusItem]:
    """One conversation as prefixes ending at up to ``count`` evenly spread cut points, each a
    conversation of its own whose last ``future`` messages are its future (the continuation
    check at that cut), with the recorded compactions that fall inside it."""
    messages = item.request["messages"]
    first = future + 2
    if len(messages) < first + 1:
        raise RecommendError(
            [
                Problem(
                    f"has {len(messages)} messages; a check at cut points needs at least "
                    f"{first + 1}",
                    str(item.conversation),
                )
            ]
        )
    ends = sorted(
        {round(first + (len(messages) - first) * k / max(1, count - 1)) for k in range(count)}
    )
    out = []
    for end in ends:
        request = {**item.request, "messages": messages[:end]}
        links = tuple((c, r) for c, r in item.tool_links if c < end and r < end)
        probes = tuple(p for p in item.probes if max(p.evidence, default=0) < end - future)
        compactions = tuple(c for c in item.compactions if c.boundary < end)
        name = f"{item.conversation}[:{end}]"
        out.append(CorpusItem(name, request, links, probes, compactions))
    return out


def recommend(
    items: Sequence[CorpusItem],
    goal: Goal,
    options: Options = Options(),
    *,
    progress: Progress | None = None,
) -> Recommendation:
    """The best setting for ``goal`` over ``items``, proved on a part it did not tune on.

    Args:
        items: the corpus (:func:`~compactor.evaluation.load_corpus`); one conversation is
            checked at its cut points (:func:`cut_points`) instead.
        goal: the budget, the objective and the constraints.
        options: trials, time limit, seed, check share, strategies, workers and backend.
        progress: ``progress(done, total, trial)`` after each trial (``trial`` None before the
            first), then ``(total, total, None)`` once the check is done.

    Returns:
        A :class:`Recommendation`: the winning setting (a :class:`~compactor.Setting`), the
        runners-up, every trial, and the check on held-out conversations beside the schema
        defaults, keep-last and random, with 95% intervals.

    Raises:
        RecommendUnavailable: Optuna is not installed (the problem names the command).
        RecommendError: a bad goal, too few conversations, or nothing to judge.
    """
    try:
        import optuna
    except ImportError:
        raise RecommendUnavailable([Problem(INSTALL_HINT, "recommend")]) from None
    goal.check()
    objective = OBJECTIVES[goal.objective]
    model = goal.price()
    strategies = searched(options.strategies)
    RunOptions(workers=options.workers, backend=options.backend, future=options.future).check()
    one = len(items) == 1
    corpus = cut_points(items[0], options.future) if one else list(items)
    if objective.needs_probes and not any(item.probes for item in corpus):
        raise RecommendError([Problem("has no probes; choose --objective needed", "objective")])
    if objective.needs_rereads and not any(item.compactions for item in corpus):
        raise RecommendError(
            [
                Problem(
                    "has no recorded compactions (a Claude Code or Codex log records them), so "
                    "no re-read to judge; choose --objective needed",
                    "objective",
                )
            ]
        )
    by_name = {item.conversation: item for item in corpus}
    tune_names, check_names = split(list(by_name), options.check_share, options.seed)
    tuning = [by_name[n] for n in tune_names]
    checking = [by_name[n] for n in check_names]
    started = time.monotonic()
    seen: set[Any] = set()
    trials: list[Trial] = []

    judged: dict[str, list[dict[str, Any]]] = {}  # a setting tried again is judged once

    def judge(strategy: str, params: Mapping[str, Any]) -> Trial:
        key = repr((strategy, sorted(params.items())))
        if key in judged:
            return _trial(len(trials), strategy, params, judged[key], goal, objective)
        rows = judged[key] = evaluation.rows(strategy, params, goal.chars)
        if model is not None:
            price_rows(rows, model)
        seen.update(row["conversation"] for row in rows)
        return _trial(len(trials), strategy, params, rows, goal, objective)

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    sampler = optuna.samplers.TPESampler(seed=options.seed)
    study = optuna.create_study(direction="maximize", sampler=sampler)
    for strategy in (MEMORY_COMPACT, KEEP_LAST):  # the two every figure stands beside, first
        if strategy in strategies:
            study.enqueue_trial({"strategy": strategy, **_enqueued(strategy)})

    def run_trial(trial: Any) -> float:
        strategy, params = suggest(trial, strategies)
        found = judge(strategy, params)
        trials.append(found)
        return _score(found, objective)

    def after(study: Any, frozen: Any) -> None:
        if progress:
            progress(len(trials), options.trials, trials[-1] if trials else None)

    if progress:
        progress(0, options.trials, None)
    evaluation = RepeatedEvaluation(
        tuning, future=options.future, workers=options.workers, backend=options.backend
    )
    with evaluation:
        study.optimize(
            run_trial, n_trials=options.trials, timeout=options.timeout, callbacks=[after]
        )
    if all(t.recall is None for t in trials):
        raise RecommendError(
            [
                Problem(
                    f"judges nothing: no tuning conversation has {objective.nothing} "
                    f"({objective.label}, a future of {options.future} messages)",
                    "corpus",
                )
            ]
        )
    feasible = [
        t
        for t in trials
        if t.feasible and t.recall is not None and (t.cost is not None or not objective.minimise)
    ]
    if not feasible:
        raise RecommendError([_none_feasible(trials, goal)])
    rank = _rank(objective)
    best = min(feasible, key=rank)
    runners = _runners_up(feasible, best, rank)
    priced = "" if model is None else f", at {model.key}'s prices"
    floor = "" if goal.floor is None else f", needed-later recall at least {percent(goal.floor)}"
    winner = goal.setting(
        best.strategy,
        best.params,
        name="recommended",
        note=f"recommend: {objective.label} on {len(tuning)} tuning "
        f"conversations{priced}{floor}, seed {options.seed}",
    )
    check = check_report(
        checking,
        goal.chars,
        best.strategy,
        best.params,
        objective,
        options,
        _defaults_rows,
        model=model,
        floor=goal.floor,
    )
    if progress:
        progress(options.trials, options.trials, None)
    return Recommendation(
        goal,
        objective,
        winner,
        best,
        runners,
        tuple(trials),
        tuple(tune_names),
        tuple(check_names),
        check,
        time.monotonic() - started,
        one,
        frozenset(seen),
    )


def _enqueued(strategy: str) -> dict[str, Any]:
    """The schema defaults as Optuna's values (memory-compact's), none for keep-last."""
    if strategy != MEMORY_COMPACT:
        return {}
    roles = "+".join(DEFAULTS["keep_roles"]) or "none"
    return {
        f"{strategy}.{name}": roles if name == "keep_roles" else DEFAULTS[name]
        for name in (d.name for d in SPACES[strategy])
    }


def _trial(
    number: int,
    strategy: str,
    params: Mapping[str, Any],
    rows: Sequence[Mapping[str, Any]],
    goal: Goal,
    objective: Objective,
) -> Trial:
    met = sum(bool(r["budget_met"]) for r in rows) / len(rows) if rows else 0.0
    why = []
    if met < goal.min_budget_met:
        why.append(f"budget met on {met:.1%} < {goal.min_budget_met:.0%}")
    if goal.keep_tool_pairs and any(r["tool_pairs_broken"] for r in rows):
        why.append("splits tool pairs")
    if goal.keep_system and not all(r["system_kept"] for r in rows):
        why.append("drops a system message")
    needed = pooled(OBJECTIVES["needed"].parts(r) for r in rows)
    if goal.floor is not None and (needed is None or needed < goal.floor):
        why.append(f"needed-later recall {percent(needed)} < the floor {percent(goal.floor)}")
    cost = None
    if objective.minimise:
        recall, cost = needed, pooled(objective.parts(r) for r in rows)
    else:
        recall = pooled(objective.parts(r) for r in rows)
    return Trial(number, strategy, dict(params), recall, met, not why, "; ".join(why), needed, cost)


def _none_feasible(trials: Sequence[Trial], goal: Goal) -> Problem:
    """Why no trial is recommended: the floor out of reach (the best recall reached, said
    plainly), else every constraint some trial missed."""
    if goal.floor is not None:
        judged = [t for t in trials if t.needed is not None]
        top = max(judged, key=lambda t: t.needed, default=None)  # type: ignore[arg-type,return-value]
        if top is None or top.needed < goal.floor:  # type: ignore[operator]
            best = (
                "no trial judged a need"
                if top is None
                else (
                    f"the best needed-later recall any trial reached is {percent(top.needed)} "
                    f"({top.strategy})"
                )
            )
            return Problem(
                f"no trial reaches the floor of {percent(goal.floor)} on the tuning part: "
                f"{best}; lower the floor or raise the budget",
                "floor",
            )
    reasons = sorted({t.why_not for t in trials if t.why_not})
    return Problem("no setting met the goal on the tuning part: " + "; ".join(reasons), "goal")


def _rank(objective: Objective) -> Callable[[Trial], tuple]:
    """The order of feasible trials, best first: the highest recall (for ``cost``, the lowest
    cost, then the highest recall), then the most budget met, then the earliest."""
    if objective.minimise:
        return lambda t: (t.cost, -(t.recall or 0), -t.budget_met, t.number)
    return lambda t: (-(t.recall or 0), -t.budget_met, t.number)


def _score(trial: Trial, objective: Objective) -> float:
    """What Optuna maximises: the recall (minus the cost) of a setting that meets the
    constraints; below any such, closer the nearer the budget and the floor were met, for one
    that does not (the sampler reads only the order)."""
    if not trial.feasible or trial.recall is None or (objective.minimise and trial.cost is None):
        below = -1.0 + trial.budget_met
        return below - 1e6 + (trial.needed or 0) if objective.minimise else below
    return -trial.cost if objective.minimise else trial.recall  # type: ignore[operator]


def _runners_up(
    feasible: Iterable[Trial], best: Trial, rank: Callable[[Trial], tuple], count: int = 4
) -> tuple[Trial, ...]:
    """The best trial of each strategy but the winner's, best first."""
    ranked = sorted(feasible, key=rank)
    out: list[Trial] = []
    strategies = {best.strategy}
    for trial in ranked:
        if trial.strategy not in strategies:
            strategies.add(trial.strategy)
            out.append(trial)
    return tuple(out[:count])


def _defaults_rows(
    items: Sequence[CorpusItem], budget: int, options: Options
) -> list[dict[str, Any]]:
    """The schema defaults, keep-last and random rows of ``items`` at ``budget``: the corpus
    evaluation's own (memory-compact at its defaults and its baseline rows)."""
    run = RunOptions(workers=options.workers, backend=options.backend, future=options.future)
    return list(evaluate(items, grid_points(), [budget], run))
