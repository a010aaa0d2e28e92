"""Outcomes (SPEC part D): did the setting keep what the conversation needed later, and how
does it compare with what a team would do without it?

:mod:`~compactor.analyses.outcomes.needs` finds the needs (a later message using an anchor an
earlier one holds); :mod:`~compactor.analyses.outcomes.judge` judges any strategy by what it
returned of the past; :mod:`~compactor.analyses.outcomes.baselines` gives keep-last and the
seeded random draws; :mod:`~compactor.analyses.outcomes.continuation` compacts the past and
judges the future's needs, at the budget set and over every budget;
:mod:`~compactor.analyses.outcomes.misses` reads a replay's misses;
:mod:`~compactor.analyses.outcomes.probes` judges labelled evidence (at a budget, over every
budget, and under any strategy of the lineup);
:mod:`~compactor.analyses.outcomes.balance` the roles' shares;
:mod:`~compactor.analyses.outcomes.figures` all of it for one request. They read results only:
they never change what ``compact`` returns."""

from compactor.analyses.outcomes.balance import (
    RoleBalance,
    RoleShare,
    role_balance,
    role_balance_of,
)
from compactor.analyses.outcomes.baselines import (
    DEFAULT_DRAWS,
    PERCENTILES,
    Interval,
    draw_orders,
    interval,
    keep_last_from_budgets,
    keep_last_lengths,
    lift,
    random_from_budgets,
    random_lengths,
)
from compactor.analyses.outcomes.continuation import (
    DEFAULT_FUTURE,
    ContinuationCheck,
    CurveStep,
    Retention,
    continuation_check,
    past_analysis,
    past_request,
    recall_curve,
)
from compactor.analyses.outcomes.figures import (
    Outcomes,
    outcomes,
)
from compactor.analyses.outcomes.judge import (
    NEVER,
    NOT_WRITTEN,
    NeededRecall,
    RoleRecall,
    SourceLoss,
    UnmetNeed,
    judge_lengths,
    judge_outcome,
    judge_spans,
    judge_text,
    judged_needs,
    met_needs,
    need_from_budgets,
)
from compactor.analyses.outcomes.misses import (
    FirstMiss,
    Miss,
    ReplayMisses,
    TurnMisses,
    history_lengths,
    replay_misses,
)
from compactor.analyses.outcomes.needs import (
    Need,
    Needs,
    find_needs,
)
from compactor.analyses.outcomes.probes import (
    InvalidProbes,
    Probe,
    ProbeOutcomes,
    ProbeRecall,
    parse_probes,
    probe_curve,
    probe_outcomes,
    probe_recall,
    probe_recall_outcome,
)

__all__ = [
    "DEFAULT_DRAWS",
    "DEFAULT_FUTURE",
    "NEVER",
    "NOT_WRITTEN",
    "PERCENTILES",
    "ContinuationCheck",
    "CurveStep",
    "FirstMiss",
    "Interval",
    "InvalidProbes",
    "Miss",
    "Need",
    "NeededRecall",
    "Needs",
    "Outcomes",
    "Probe",
    "ProbeOutcomes",
    "ProbeRecall",
    "ReplayMisses",
    "Retention",
    "RoleBalance",
    "RoleRecall",
    "RoleShare",
    "SourceLoss",
    "TurnMisses",
    "UnmetNeed",
    "continuation_check",
    "draw_orders",
    "find_needs",
    "history_lengths",
    "interval",
    "judge_lengths",
    "judge_outcome",
    "judge_spans",
    "judge_text",
    "judged_needs",
    "keep_last_from_budgets",
    "keep_last_lengths",
    "lift",
    "met_needs",
    "need_from_budgets",
    "outcomes",
    "parse_probes",
    "past_analysis",
    "past_request",
    "probe_curve",
    "probe_outcomes",
    "probe_recall",
    "probe_recall_outcome",
    "random_from_budgets",
    "random_lengths",
    "recall_curve",
    "replay_misses",
    "role_balance",
    "role_balance_of",
]
