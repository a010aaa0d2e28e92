"""Analyses: read compaction results and explain or judge them; they never change what
``compact`` returns. Sweeps (every budget, threshold and cut from one run), the walkthrough,
watched facts, tool pairing, A/B, import markup, token reports, semantic pairs, the
compactions an agent recorded graded against the lineup (:mod:`~compactor.analyses.graded`),
and the families :mod:`~compactor.analyses.anchors` and :mod:`~compactor.analyses.replay`
(each a package with its own face). Outcomes (SPEC part D) join them here as
:mod:`~compactor.analyses.outcomes`."""

from compactor.analyses.ab import (
    ABComparison,
    compare_params,
    compare_results,
)
from compactor.analyses.facts import (
    NOT_FOUND,
    WatchedFact,
    parse_phrases,
    watch,
)
from compactor.analyses.graded import (
    RECORDED,
    Graded,
    GradedCompaction,
    GradedRow,
    grade,
)
from compactor.analyses.markup import (
    term_sources,
    without_markup,
)
from compactor.analyses.pairing import (
    LINK,
    PairFix,
    PairingIssue,
    PairingReport,
    check_pairing,
    pair_fix,
    tool_pairs,
)
from compactor.analyses.semantic_pairs import (
    SemanticPair,
    semantic_pairs,
)
from compactor.analyses.sweeps import (
    BEYOND_RANGE,
    BUDGET_RANGE,
    KEPT_ALWAYS,
    REMOVED_ALWAYS,
    BudgetSweep,
    Survival,
    ThresholdStep,
    ThresholdSweep,
    TrimSweep,
    budget_sweep,
    survival_budgets,
    threshold_sweep,
    trim_sweep,
)
from compactor.analyses.token_report import (
    TokenReport,
    message_counts,
    token_report,
)
from compactor.analyses.walkthrough import (
    REMOVED,
    Step,
    StepEvent,
    Walkthrough,
    walkthrough,
)

__all__ = [
    "ABComparison",
    "BEYOND_RANGE",
    "BUDGET_RANGE",
    "BudgetSweep",
    "Graded",
    "GradedCompaction",
    "GradedRow",
    "KEPT_ALWAYS",
    "LINK",
    "NOT_FOUND",
    "PairFix",
    "PairingIssue",
    "PairingReport",
    "RECORDED",
    "REMOVED",
    "REMOVED_ALWAYS",
    "SemanticPair",
    "Step",
    "StepEvent",
    "Survival",
    "ThresholdStep",
    "ThresholdSweep",
    "TokenReport",
    "TrimSweep",
    "Walkthrough",
    "WatchedFact",
    "budget_sweep",
    "check_pairing",
    "pair_fix",
    "compare_params",
    "compare_results",
    "grade",
    "message_counts",
    "parse_phrases",
    "semantic_pairs",
    "survival_budgets",
    "term_sources",
    "threshold_sweep",
    "token_report",
    "tool_pairs",
    "trim_sweep",
    "walkthrough",
    "watch",
    "without_markup",
]
