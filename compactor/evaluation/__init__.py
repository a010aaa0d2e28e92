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
>>> [(r["strategy"], r["needs"]) for r in rows]  # two messages: too short for a future of 5
[('memory-compact', None), ('keep-last', None), ('random', None)]
"""

from compactor.evaluation.corpus import (
    CorpusItem,
    CorpusRead,
    SetAside,
    load_corpus,
    load_corpus_text,
    read_corpus_text,
)
from compactor.evaluation.grid import (
    GRID_PARAMETERS,
    MEMORY_COMPACT,
    STRATEGY,
    grid_points,
    parse_grid_option,
)
from compactor.evaluation.limits import FIXES
from compactor.evaluation.outcomes import BASELINES, OUTCOME_KEYS, PROBE_KEYS
from compactor.evaluation.pool import default_workers
from compactor.evaluation.ray_backend import INSTALL_HINT as RAY_INSTALL_HINT
from compactor.evaluation.ray_backend import BackendUnavailable, ray_available
from compactor.evaluation.resume import Written, written_whole
from compactor.evaluation.rows import ROW_KEYS, TOKEN_KEYS, conversation_rows, row_key
from compactor.evaluation.run import BACKENDS, RunOptions, evaluate
from compactor.evaluation.strategy_rows import (
    STRATEGY_ROW_KEYS,
    evaluate_strategy,
    parse_strategy_grid,
    strategy_grid_points,
)
from compactor.evaluation.stream import CorpusStream
from compactor.evaluation.summary import (
    SUMMARY_BUDGETS,
    knee_budgets,
    rows_in_force,
    summarise,
    worst_by_needed_recall,
)

__all__ = [
    "BACKENDS",
    "BASELINES",
    "BackendUnavailable",
    "CorpusItem",
    "CorpusRead",
    "CorpusStream",
    "FIXES",
    "GRID_PARAMETERS",
    "MEMORY_COMPACT",
    "OUTCOME_KEYS",
    "PROBE_KEYS",
    "RAY_INSTALL_HINT",
    "ROW_KEYS",
    "RunOptions",
    "STRATEGY",
    "STRATEGY_ROW_KEYS",
    "SUMMARY_BUDGETS",
    "SetAside",
    "TOKEN_KEYS",
    "Written",
    "conversation_rows",
    "default_workers",
    "evaluate",
    "evaluate_strategy",
    "grid_points",
    "knee_budgets",
    "load_corpus",
    "load_corpus_text",
    "parse_grid_option",
    "parse_strategy_grid",
    "ray_available",
    "read_corpus_text",
    "row_key",
    "rows_in_force",
    "strategy_grid_points",
    "summarise",
    "worst_by_needed_recall",
    "written_whole",
]

#: The names these had before the grid's combinations were called grid points (a setting is a
#: strategy, its parameters and one budget: docs/glossary.md); code that uses them still works.
settings_grid = grid_points
strategy_settings = strategy_grid_points
