"""The Replay page's loops and one loop replayed, plain functions (no Streamlit), so the
frames read a :class:`ReplayRun` and tests build one; :mod:`explorer.replay.replay_cache` keeps
them across reruns.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from compactor import strategies as registry
from compactor.analyses.replay import (
    ALWAYS,
    OVER_BUDGET,
    Carried,
    ContextTrim,
    Fact,
    FactIndex,
    KeepLast,
    Loss,
    MemoryCompact,
    Registered,
    Replay,
    recorded_of,
    replay,
)
from compactor.model import Request
from compactor.strategies import DROP_OLDEST, STRATEGIES, strategy_available
from compactor.text import IncrementalAnalysis

MEMORY_ALWAYS = "memory-compact, every turn"
MEMORY_OVER = "memory-compact, over budget only"
KEEP_LAST = "keep-last (what fits the budget)"
DROP_OLDEST_LOOP = "drop-oldest (recency trim, token estimate)"
SEED_LOOP = "summarise when over the limit (LLM compact)"
#: The registry strategies the loops above do not already replay.
_COVERED = (registry.MEMORY_COMPACT, registry.KEEP_LAST, DROP_OLDEST)


#: The registry strategies a side can replay by their registry name, every turn at the budget
#: with their lineup parameters unless the page sets their own.
REGISTRY_LOOPS: tuple[str, ...] = tuple(
    n for n in STRATEGIES if n not in _COVERED and strategy_available(n)
)
#: The loops a side of the page can replay, without a provider.
LOOPS: tuple[str, ...] = (MEMORY_ALWAYS, MEMORY_OVER, KEEP_LAST, DROP_OLDEST_LOOP, *REGISTRY_LOOPS)


@dataclass(frozen=True)
class ReplayRun:
    """One loop replayed: the replay, the facts watched, and each loss."""

    loop: str
    replay: Replay
    recorded: tuple[Carried, ...]
    facts: tuple[Fact, ...]
    losses: tuple[Loss, ...]


def strategy_of(
    loop: str,
    request: Request,
    options: Mapping[str, Any],
    analysis: IncrementalAnalysis | None = None,
) -> tuple[Any, str]:
    """The strategy and the policy ``loop`` replays with (``options`` are the seed trim's,
    or a registry strategy's own parameters; ``analysis`` is shared by memory-compact's
    turns)."""
    params = request.params
    if loop in (MEMORY_ALWAYS, MEMORY_OVER):
        policy = ALWAYS if loop == MEMORY_ALWAYS else OVER_BUDGET
        return MemoryCompact(params, analysis), policy
    if loop == KEEP_LAST:
        return KeepLast(params.budget_chars), ALWAYS
    if loop == DROP_OLDEST_LOOP:
        strategy = ContextTrim(
            options.get("keep_last_messages"),
            bool(options.get("drop_tool_parts", False)),
            options.get("max_tokens_estimate"),
        )
        return strategy, ALWAYS
    if loop in REGISTRY_LOOPS:
        return Registered(loop, params, dict(options) if options else None), ALWAYS
    raise ValueError(f"unknown loop {loop!r}")


def replay_loop(
    loop: str,
    request: Request,
    strategy: Any,
    policy: str,
    facts: Sequence[Fact],
    index: FactIndex | None = None,
    on_turn: Callable[[int, int], None] | None = None,
) -> ReplayRun:
    """``request``'s messages replayed turn by turn with ``strategy`` and ``policy``, drift
    counted on ``facts`` (found faster through ``index`` when given)."""
    result = replay(
        request.messages,
        strategy,
        policy=policy,
        budget_chars=request.params.budget_chars,
        facts=index if index is not None else facts,
        on_turn=on_turn,
    )
    recorded = tuple(recorded_of(request.messages))
    return ReplayRun(loop, result, recorded, tuple(facts), result.losses)
