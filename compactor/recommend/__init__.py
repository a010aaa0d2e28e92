"""Recommend: search the strategies that keep to a budget, and their parameters, for the best
setting under a goal (a budget, an objective, constraints), with Optuna's seeded sampler over
the corpus evaluation; then prove it on conversations the search never saw, beside the schema
defaults, keep-last and random, and hand it over as a ``compaction.toml``.

Optuna is the optional ``recommend`` extra; without it :func:`recommend` raises
:class:`RecommendUnavailable` naming the command that installs it.
"""

from compactor.recommend._check import (
    DEFAULTS,
    METHODS,
    RECOMMENDED,
    Check,
    Figure,
    KeptNeed,
    needs_kept_over_defaults,
    usd,
)
from compactor.recommend._objectives import (
    OBJECTIVES,
    Objective,
    pooled,
    price_rows,
    register_objective,
)
from compactor.recommend._search import (
    CHARS_PER_TOKEN,
    CUT_POINTS,
    INSTALL_HINT,
    Goal,
    Options,
    Recommendation,
    RecommendError,
    RecommendUnavailable,
    Trial,
    cut_points,
    optuna_available,
    recommend,
    split,
)
from compactor.recommend._space import SPACES, Dimension, params_of, searched

__all__ = [
    "CHARS_PER_TOKEN",
    "Check",
    "cut_points",
    "CUT_POINTS",
    "DEFAULTS",
    "Dimension",
    "Figure",
    "Goal",
    "KeptNeed",
    "needs_kept_over_defaults",
    "INSTALL_HINT",
    "METHODS",
    "OBJECTIVES",
    "Objective",
    "optuna_available",
    "Options",
    "params_of",
    "pooled",
    "price_rows",
    "recommend",
    "Recommendation",
    "RecommendError",
    "RecommendUnavailable",
    "RECOMMENDED",
    "register_objective",
    "searched",
    "SPACES",
    "split",
    "Trial",
    "usd",
]
