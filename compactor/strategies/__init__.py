"""Strategies: other ways to shrink a history, to compare with memory-compact on the same
conversation: keep-last, the seeds/003 trim (:mod:`~compactor.strategies.context_trim`),
LangChain's ``trim_messages``, memory-compact with semantic dedupe, and the seeds/003 LLM
compact through a provider, and the strategies other teams ship (Anthropic and LangChain context
editing, observation masking, the AI SDK's ``pruneMessages``, OpenAI's ``truncation: "auto"``).
:mod:`~compactor.strategies.anchor_keep` is our own: the units that hold salient terms, within
the budget, then recent context. :mod:`~compactor.strategies.registry` names every one with its
parameters and source; :mod:`~compactor.strategies.lineup` runs them side by side."""

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
    DROP_OLDEST,
    KEEP_LAST,
    LANGCHAIN,
    MEMORY_COMPACT,
    SEMANTIC_DEDUPE,
    StrategyComparison,
    StrategyResult,
    compare_strategies,
)
from compactor.strategies.llm_compact import (
    LLMCompact,
    cache_key,
    llm_compact,
)
from compactor.strategies.registry import (
    OLD_NAMES as OLD_STRATEGY_NAMES,
)
from compactor.strategies.registry import (
    STRATEGIES,
    register,
)
from compactor.strategies.registry import (
    apply as apply_strategy,
)
from compactor.strategies.registry import (
    available as strategy_available,
)
from compactor.strategies.registry import (
    current_name as current_strategy_name,
)
from compactor.strategies.registry import (
    get as get_strategy,
)
from compactor.strategies.registry import (
    names as strategy_names,
)
from compactor.strategies.registry import (
    renamed_notice as strategy_renamed_notice,
)
from compactor.strategies.returned import (
    REPLACED,
    StrategyMessage,
)
from compactor.strategies.setting import FILE_NAME as SETTING_FILE_NAME
from compactor.strategies.setting import (
    Setting,
    SettingError,
    load_setting,
    setting_from_toml,
    setting_toml,
)
from compactor.strategies.spec import (
    Parameter,
    RegisteredStrategy,
    Source,
    StrategyParameterError,
)

__all__ = [
    "KEEP_LAST",
    "LANGCHAIN",
    "LANGCHAIN_HINT",
    "LLMCompact",
    "MEMORY_COMPACT",
    "OLD_STRATEGY_NAMES",
    "Parameter",
    "REPLACED",
    "RegisteredStrategy",
    "SETTING_FILE_NAME",
    "STRATEGIES",
    "Setting",
    "SettingError",
    "Source",
    "StrategyMessage",
    "StrategyParameterError",
    "DROP_OLDEST",
    "SEMANTIC_DEDUPE",
    "StrategyComparison",
    "StrategyResult",
    "apply_strategy",
    "cache_key",
    "compare_strategies",
    "current_strategy_name",
    "get_strategy",
    "keep_last_count",
    "load_setting",
    "llm_compact",
    "register",
    "setting_from_toml",
    "setting_toml",
    "strategy_available",
    "strategy_names",
    "strategy_renamed_notice",
    "trim_context",
    "trim_token_counter",
]
