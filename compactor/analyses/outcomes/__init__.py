"""Outcomes (SPEC part D): did the setting keep what the conversation needed later, and how
does it compare with what a team would do without it?

:mod:`~compactor.analyses.outcomes._needs` finds the needs (a later message using an anchor an
earlier one holds); :mod:`~compactor.analyses.outcomes._judge` judges any strategy by what it
returned of the past; :mod:`~compactor.analyses.outcomes._baselines` gives keep-last and the
seeded random draws; :mod:`~compactor.analyses.outcomes._continuation` compacts the past and
judges the future's needs, at the budget set and over every budget;
:mod:`~compactor.analyses.outcomes._misses` reads a replay's misses;
:mod:`~compactor.analyses.outcomes._probes` judges labelled evidence (at a budget, over every
budget, and under any strategy of the lineup);
:mod:`~compactor.analyses.outcomes._balance` the roles' shares;
:mod:`~compactor.analyses.outcomes._figures` all of it for one request. They read results only:
they never change what ``compact`` returns."""

from compactor.analyses.outcomes._balance import (
    RoleBalance,
    RoleShare,
    role_balance,
    role_balance_of,
)
from compactor.analyses.outcomes._baselines import (
    DEFAULT_DRAWS,
    KEEP_LAST,
    PERCENTILES,
    RANDOM,
    Interval,
    draw_orders,
    interval,
    keep_last_from_budgets,
    keep_last_lengths,
    lift,
    random_from_budgets,
    random_lengths,
)
from compactor.analyses.outcomes._continuation import (
    DEFAULT_FUTURE,
    ContinuationCheck,
    CurveStep,
    Retention,
    continuation_check,
    past_analysis,
    past_request,
    recall_curve,
)
from compactor.analyses.outcomes._figures import (
    Outcomes,
    outcomes,
)
from compactor.analyses.outcomes._judge import (
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
from compactor.analyses.outcomes._misses import (
    FirstMiss,
    Miss,
    ReplayMisses,
    TurnMisses,
    history_lengths,
    replay_misses,
)
from compactor.analyses.outcomes._needs import (
    Need,
    Needs,
    find_needs,
)
from compactor.analyses.outcomes._probes import (
    PROBE_FIELDS,
    InvalidProbes,
    Probe,
    ProbeOutcomes,
    ProbeRecall,
    failed_probes,
    failed_probes_outcome,
    parse_probes,
    probe_curve,
    probe_outcomes,
    probe_recall,
    probe_recall_outcome,
)

__all__ = [
    "continuation_check",
    "ContinuationCheck",
    "CurveStep",
    "DEFAULT_DRAWS",
    "DEFAULT_FUTURE",
    "draw_orders",
    "failed_probes",
    "failed_probes_outcome",
    "find_needs",
    "FirstMiss",
    "history_lengths",
    "Interval",
    "interval",
    "InvalidProbes",
    "judge_lengths",
    "judge_outcome",
    "judge_spans",
    "judge_text",
    "judged_needs",
    "KEEP_LAST",
    "keep_last_from_budgets",
    "keep_last_lengths",
    "lift",
    "met_needs",
    "Miss",
    "Need",
    "need_from_budgets",
    "NeededRecall",
    "Needs",
    "NEVER",
    "NOT_WRITTEN",
    "Outcomes",
    "outcomes",
    "parse_probes",
    "past_analysis",
    "past_request",
    "PERCENTILES",
    "Probe",
    "PROBE_FIELDS",
    "probe_curve",
    "probe_outcomes",
    "probe_recall",
    "probe_recall_outcome",
    "ProbeOutcomes",
    "ProbeRecall",
    "RANDOM",
    "random_from_budgets",
    "random_lengths",
    "recall_curve",
    "replay_misses",
    "ReplayMisses",
    "Retention",
    "role_balance",
    "role_balance_of",
    "RoleBalance",
    "RoleRecall",
    "RoleShare",
    "SourceLoss",
    "TurnMisses",
    "UnmetNeed",
]
