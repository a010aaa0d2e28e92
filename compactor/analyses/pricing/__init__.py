"""Pricing: what a compaction costs in money. The price table
(:mod:`~compactor.analyses.pricing._table`: a TOML file of each model's prices, cache
lifetimes, minimum cacheable prefix and context window, each with its source) and a replay or
a compaction priced by it (:mod:`~compactor.analyses.pricing._cost`: cache reads, cache writes,
uncached input and output per call)."""

from compactor.analyses.pricing._cost import (
    ESTIMATE,
    CallCost,
    CompactionCost,
    Dollars,
    ReplayCost,
    Split,
    TokenCounter,
    compaction_cost,
    dollars,
    graded_costs,
    price_histories,
)
from compactor.analyses.pricing._table import (
    PRICES_ENV,
    CacheWrite,
    ModelPrice,
    PricesError,
    PriceTable,
    context_window,
    load_prices,
    price,
    prices_from_toml,
)

__all__ = [
    "CacheWrite",
    "CallCost",
    "CompactionCost",
    "Dollars",
    "ESTIMATE",
    "ModelPrice",
    "PRICES_ENV",
    "PriceTable",
    "PricesError",
    "ReplayCost",
    "Split",
    "TokenCounter",
    "compaction_cost",
    "context_window",
    "dollars",
    "graded_costs",
    "load_prices",
    "price",
    "price_histories",
    "prices_from_toml",
]
