"""Replay (SPEC part C): a recorded conversation sent through an agent loop that compacts it on
every turn: the loop (:mod:`~compactor.analyses.replay._loop`), its drift kept up to date turn
by turn (:mod:`~compactor.analyses.replay._drift`), what happened to each message
(:mod:`~compactor.analyses.replay._fates`) and the strategies it runs
(:mod:`~compactor.analyses.replay._strategies`)."""

from compactor.analyses.replay._drift import (
    REMOVAL,
    FactIndex,
    Loss,
    Lost,
)
from compactor.analyses.replay._fates import (
    GONE,
    NEW,
    TRIMMED,
    MessageFate,
    cache_reuse,
    message_fates,
    recorded_of,
)
from compactor.analyses.replay._loop import (
    ALWAYS,
    OVER_BUDGET,
    POLICIES,
    Carried,
    Fact,
    Replay,
    Shrunk,
    Strategy,
    Turn,
    facts_from_phrases,
    replay,
)
from compactor.analyses.replay._strategies import (
    STRATEGIES,
    ContextTrim,
    KeepLast,
    MemoryCompact,
    ProviderCompact,
    Registered,
    SeedLoop,
    build_strategy,
    replay_request,
)

__all__ = [
    "ALWAYS",
    "Carried",
    "ContextTrim",
    "Fact",
    "FactIndex",
    "GONE",
    "KeepLast",
    "Loss",
    "Lost",
    "MemoryCompact",
    "MessageFate",
    "NEW",
    "OVER_BUDGET",
    "POLICIES",
    "ProviderCompact",
    "REMOVAL",
    "Registered",
    "Replay",
    "STRATEGIES",
    "SeedLoop",
    "Shrunk",
    "Strategy",
    "TRIMMED",
    "Turn",
    "build_strategy",
    "cache_reuse",
    "facts_from_phrases",
    "message_fates",
    "recorded_of",
    "replay",
    "replay_request",
]
