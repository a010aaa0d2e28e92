"""Strategies: other ways to shrink a history, to compare with memory-compact on the same
conversation: keep-last, the seeds/003 trim (:mod:`~compactor.strategies.context_trim`),
LangChain's ``trim_messages``, memory-compact with semantic dedupe, and the seeds/003 LLM
compact through a provider; :mod:`~compactor.strategies.lineup` runs them side by side.
:mod:`~compactor.strategies.anchor_keep` is our own: the units that hold salient terms, within
the budget, then recent context (``anchor_keep.apply`` and ``anchor_keep.outcome``)."""

from compactor.strategies.context_trim import (
    trim_context,
    trim_token_counter,
)
from compactor.strategies.keep_last import (
    keep_last_count,
)
from compactor.strategies.langchain_trim import (
    INSTALL_HINT as LANGCHAIN_HINT,
)
from compactor.strategies.lineup import (
    KEEP_LAST,
    LANGCHAIN,
    MEMORY_COMPACT,
    SEED_TRIM,
    SEMANTIC_DEDUPE,
    StrategyComparison,
    StrategyOutcome,
    compare_strategies,
)
from compactor.strategies.llm_compact import (
    LLMCompact,
    cache_key,
    llm_compact,
)

__all__ = [
    "KEEP_LAST",
    "LANGCHAIN",
    "LANGCHAIN_HINT",
    "LLMCompact",
    "MEMORY_COMPACT",
    "SEED_TRIM",
    "SEMANTIC_DEDUPE",
    "StrategyComparison",
    "StrategyOutcome",
    "cache_key",
    "compare_strategies",
    "keep_last_count",
    "llm_compact",
    "trim_context",
    "trim_token_counter",
]
