"""Analyses: read compaction results and explain or judge them; they never change what
``compact`` returns. Sweeps (every budget, threshold and cut from one run), the walkthrough,
watched facts, tool pairing, A/B, import markup, token reports, semantic pairs, the
compactions an agent recorded graded against the lineup (:mod:`~compactor.analyses._graded`)
and the files read again after them (:mod:`~compactor.analyses._rereads`),
and the families :mod:`~compactor.analyses.anchors` and :mod:`~compactor.analyses.replay`
(each a package with its own face). Outcomes (SPEC part D) join them here as
:mod:`~compactor.analyses.outcomes`."""

from compactor.analyses._ab import (
    ABComparison,
    compare_params,
    compare_results,
)
from compactor.analyses._facts import (
    NOT_FOUND,
    WatchedFact,
    parse_phrases,
    watch,
)
from compactor.analyses._graded import (
    RECORDED,
    SIZE_TOLERANCE,
    Graded,
    GradedCompaction,
    GradedRow,
    compaction_history,
    grade,
)
from compactor.analyses._markup import (
    term_sources,
    without_markup,
)
from compactor.analyses._pairing import (
    LINK,
    PairFix,
    PairingIssue,
    PairingReport,
    call_line_span,
    check_pairing,
    pair_fix,
    tool_pairs,
)
from compactor.analyses._rereads import (
    REREAD_JUDGE,
    CompactionRereads,
    FileRead,
    Repeat,
    Reread,
    RereadRecall,
    find_rereads,
    summary_holds,
)
from compactor.analyses._semantic_pairs import (
    SemanticPair,
    semantic_pairs,
)
from compactor.analyses._sweeps import (
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
from compactor.analyses._token_report import (
    TokenReport,
    message_counts,
    token_report,
)
from compactor.analyses._walkthrough import (
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
    "budget_sweep",
    "call_line_span",
    "BudgetSweep",
    "check_pairing",
    "CompactionRereads",
    "FileRead",
    "find_rereads",
    "compare_params",
    "compare_results",
    "compaction_history",
    "grade",
    "Graded",
    "GradedCompaction",
    "GradedRow",
    "KEPT_ALWAYS",
    "LINK",
    "message_counts",
    "NOT_FOUND",
    "pair_fix",
    "PairFix",
    "PairingIssue",
    "PairingReport",
    "parse_phrases",
    "RECORDED",
    "Repeat",
    "REREAD_JUDGE",
    "Reread",
    "RereadRecall",
    "SIZE_TOLERANCE",
    "REMOVED",
    "REMOVED_ALWAYS",
    "semantic_pairs",
    "SemanticPair",
    "Step",
    "StepEvent",
    "summary_holds",
    "Survival",
    "survival_budgets",
    "term_sources",
    "threshold_sweep",
    "ThresholdStep",
    "ThresholdSweep",
    "token_report",
    "TokenReport",
    "tool_pairs",
    "trim_sweep",
    "TrimSweep",
    "Walkthrough",
    "walkthrough",
    "watch",
    "WatchedFact",
    "without_markup",
]
