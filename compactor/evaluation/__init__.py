"""Corpus evaluation (``../shared/SPEC.md`` part C): a grid of parameter values over many
conversations, one row per (conversation, grid point, budget), each equal to compacting that
one request, with the budgets from the exact sweep; a summary per setting (a grid point at one
budget) and the frontier.

>>> items = [CorpusItem(0, {"messages": [
...     {"role": "user", "content": "Order DE-4471 left Lyon on 2024-05-17."},
...     {"role": "assistant", "content": "Noted: DE-4471."}], "budget_chars": 100})]
>>> rows = list(evaluate(items, grid_points({"keep_last_n": 0}), budgets=[100]))
>>> {k: rows[0][k] for k in ("output_chars", "budget_met", "anchors", "anchors_kept")}
{'output_chars': 53, 'budget_met': True, 'anchors': 2, 'anchors_kept': 2}
>>> [r["strategy"] for r in rows]  # each baseline protected (the grid's keep_roles), then bare
['memory-compact', 'keep-last', 'keep-last', 'random', 'random']
>>> [r["keep_roles"] for r in rows], {r["needs"] for r in rows}  # too short for a future of 5
([['system'], ['system'], None, ['system'], None], {None})
"""

from compactor.evaluation._corpus import (
    CorpusItem,
    CorpusRead,
    SetAside,
    load_corpus,
    load_corpus_text,
    read_corpus_text,
)
from compactor.evaluation._gate import (
    ALIASES,
    OUTCOME_FIGURES,
    Group,
    Threshold,
    check,
    parse_threshold,
    setting_groups,
    strategy_groups,
)
from compactor.evaluation._grid import (
    BUDGET,
    GRID_PARAMETERS,
    MEMORY_COMPACT,
    STRATEGY,
    grid_point_key,
    grid_points,
    parse_grid_option,
)
from compactor.evaluation._limits import FIXES
from compactor.evaluation._outcomes import (
    BASELINES,
    OUTCOME_KEYS,
    PROBE_KEYS,
    baseline_point,
    baseline_protections,
)
from compactor.evaluation._output import RowWriter, check_out, iter_rows
from compactor.evaluation._pool import default_workers
from compactor.evaluation._questions import (
    QUESTION_FIELDS,
    Question,
    QuestionAside,
    QuestionSet,
    failure_text,
    read_questions,
    read_questions_text,
)
from compactor.evaluation._ray_backend import INSTALL_HINT as RAY_INSTALL_HINT
from compactor.evaluation._ray_backend import BackendUnavailable, ray_available
from compactor.evaluation._repeated import RepeatedEvaluation
from compactor.evaluation._reread_rows import REREAD_KEYS
from compactor.evaluation._resume import Written, describe_setting, written_whole
from compactor.evaluation._rows import ROW_KEYS, TOKEN_KEYS, conversation_rows, row_key
from compactor.evaluation._run import BACKENDS, RunOptions, evaluate
from compactor.evaluation._strategy_rows import (
    STRATEGY_ROW_KEYS,
    PreparedConversation,
    evaluate_strategy,
    parse_strategy_grid,
    prepare_conversation,
    strategy_grid_points,
)
from compactor.evaluation._stream import CorpusStream
from compactor.evaluation._summary import (
    KNEE_SHARES,
    SUMMARY_BUDGETS,
    SummaryFeed,
    knee_budgets,
    rows_in_force,
    summarise,
    worst_by_needed_recall,
)

__all__ = [
    "ALIASES",
    "BACKENDS",
    "BackendUnavailable",
    "BASELINES",
    "baseline_point",
    "baseline_protections",
    "BUDGET",
    "check",
    "check_out",
    "conversation_rows",
    "CorpusItem",
    "CorpusRead",
    "CorpusStream",
    "default_workers",
    "describe_setting",
    "evaluate",
    "evaluate_strategy",
    "failure_text",
    "FIXES",
    "GRID_PARAMETERS",
    "grid_point_key",
    "grid_points",
    "Group",
    "iter_rows",
    "knee_budgets",
    "KNEE_SHARES",
    "load_corpus",
    "load_corpus_text",
    "MEMORY_COMPACT",
    "OUTCOME_FIGURES",
    "OUTCOME_KEYS",
    "parse_grid_option",
    "parse_strategy_grid",
    "parse_threshold",
    "PreparedConversation",
    "prepare_conversation",
    "PROBE_KEYS",
    "REREAD_KEYS",
    "Question",
    "QUESTION_FIELDS",
    "QuestionAside",
    "QuestionSet",
    "ray_available",
    "RAY_INSTALL_HINT",
    "read_corpus_text",
    "read_questions",
    "read_questions_text",
    "RepeatedEvaluation",
    "row_key",
    "ROW_KEYS",
    "rows_in_force",
    "RowWriter",
    "RunOptions",
    "SetAside",
    "setting_groups",
    "STRATEGY",
    "strategy_grid_points",
    "strategy_groups",
    "STRATEGY_ROW_KEYS",
    "summarise",
    "SUMMARY_BUDGETS",
    "SummaryFeed",
    "Threshold",
    "TOKEN_KEYS",
    "worst_by_needed_recall",
    "Written",
    "written_whole",
]

#: The names these had before the grid's combinations were called grid points (a setting is a
#: strategy, its parameters and one budget: docs/glossary.md); code that uses them still works.
settings_grid = grid_points
strategy_settings = strategy_grid_points
