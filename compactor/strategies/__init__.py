"""Strategies: other ways to shrink a history, to compare with memory-compact on the same
conversation: keep-last, the seeds/003 trim (:mod:`~compactor.strategies._context_trim`),
LangChain's ``trim_messages``, memory-compact with semantic dedupe, and the seeds/003 LLM
compact through a provider, and the strategies other teams ship (Anthropic and LangChain context
editing, observation masking, the AI SDK's ``pruneMessages``, OpenAI's ``truncation: "auto"``).
:mod:`~compactor.strategies._anchor_keep` is our own: the units that hold salient terms, within
the budget, then recent context; so is :mod:`~compactor.strategies._focus`: what the pending
turn is about (BM25), then recent context. :mod:`~compactor.strategies._registry` names every
one with its parameters and source; :mod:`~compactor.strategies._lineup` runs them side by side."""

from compactor.strategies._context_trim import (
    TRIM_REQUEST_SCHEMA,
    estimate_message_tokens,
    trim_context,
    trim_token_counter,
)
from compactor.strategies._focus import KEY as FOCUS
from compactor.strategies._focus import FocusResult, default_focus
from compactor.strategies._focus import apply as focus_account
from compactor.strategies._keep_last import (
    keep_last,
    keep_last_count,
    keep_last_from_budgets,
)
from compactor.strategies._langchain_trim import (
    INSTALL_HINT as LANGCHAIN_HINT,
)
from compactor.strategies._lineup import (
    DROP_OLDEST,
    KEEP_LAST,
    LANGCHAIN,
    MEMORY_COMPACT,
    SEMANTIC_DEDUPE,
    StrategyComparison,
    StrategyResult,
    compare_strategies,
)
from compactor.strategies._llm_compact import (
    COMPACT_REQUEST_SCHEMA,
    CannotSummarize,
    LLMCompact,
    allm_compact,
    cache_key,
    llm_compact,
    needs_summary,
    validate_compact_request,
)
from compactor.strategies._registry import (
    OLD_NAMES as OLD_STRATEGY_NAMES,
)
from compactor.strategies._registry import (
    STRATEGIES,
    register,
)
from compactor.strategies._registry import (
    apply as apply_strategy,
)
from compactor.strategies._registry import (
    available as strategy_available,
)
from compactor.strategies._registry import (
    current_name as current_strategy_name,
)
from compactor.strategies._registry import (
    get as get_strategy,
)
from compactor.strategies._registry import (
    names as strategy_names,
)
from compactor.strategies._registry import (
    renamed_notice as strategy_renamed_notice,
)
from compactor.strategies._registry import (
    require_available as require_strategy_available,
)
from compactor.strategies._returned import (
    CUT,
    REMOVED,
    REPLACED,
    VERBATIM,
    StrategyMessage,
)
from compactor.strategies._setting import FILE_NAME as SETTING_FILE_NAME
from compactor.strategies._setting import (
    Setting,
    SettingError,
    load_setting,
    setting_from_toml,
    setting_toml,
)
from compactor.strategies._spec import (
    Parameter,
    RegisteredStrategy,
    Source,
    StrategyParameterError,
    StrategyUnavailable,
)

__all__ = [
    "allm_compact",
    "apply_strategy",
    "cache_key",
    "CannotSummarize",
    "COMPACT_REQUEST_SCHEMA",
    "compare_strategies",
    "current_strategy_name",
    "CUT",
    "default_focus",
    "DROP_OLDEST",
    "estimate_message_tokens",
    "FOCUS",
    "focus_account",
    "FocusResult",
    "get_strategy",
    "KEEP_LAST",
    "keep_last",
    "keep_last_count",
    "keep_last_from_budgets",
    "LANGCHAIN",
    "LANGCHAIN_HINT",
    "llm_compact",
    "LLMCompact",
    "load_setting",
    "MEMORY_COMPACT",
    "needs_summary",
    "OLD_STRATEGY_NAMES",
    "Parameter",
    "register",
    "RegisteredStrategy",
    "REMOVED",
    "REPLACED",
    "require_strategy_available",
    "SEMANTIC_DEDUPE",
    "Setting",
    "SETTING_FILE_NAME",
    "setting_from_toml",
    "setting_toml",
    "SettingError",
    "Source",
    "STRATEGIES",
    "strategy_available",
    "strategy_names",
    "strategy_renamed_notice",
    "StrategyComparison",
    "StrategyMessage",
    "StrategyParameterError",
    "StrategyResult",
    "StrategyUnavailable",
    "trim_context",
    "TRIM_REQUEST_SCHEMA",
    "trim_token_counter",
    "validate_compact_request",
    "VERBATIM",
]
