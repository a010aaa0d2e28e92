"""Every registered strategy on one history at the same character budget, message by message.

The strategies come from :mod:`~compactor.strategies._registry`, in its order: memory-compact
(the request's parameters at that budget), keep the last N messages, the trim of seeds/003,
LangChain's ``trim_messages`` (when langchain-core is installed), then the peers' strategies,
each with the budget mapped to its own trigger (its registry entry says how). Each
:class:`StrategyResult` says how the strategy returned each input message (verbatim, cut,
replaced or removed), what it returns, and its totals in characters and in estimated tokens.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from compactor.collector import collector_paused
from compactor.input import validate
from compactor.model import Request
from compactor.strategies import _registry as registry
from compactor.strategies._first_lineup import (
    DROP_OLDEST,
    KEEP_LAST,
    LANGCHAIN,
    MEMORY_COMPACT,
    SEMANTIC_DEDUPE,
    drop_oldest,
    keep_last,
    langchain,
    memory_compact,
    semantic_memory_compact,
)
from compactor.strategies._returned import (
    CUT,
    REMOVED,
    REPLACED,
    VERBATIM,
    StrategyMessage,
    StrategyResult,
    estimated_tokens,
)
from compactor.text import TextAnalysis

__all__ = [
    "CUT",
    "KEEP_LAST",
    "LANGCHAIN",
    "MEMORY_COMPACT",
    "REMOVED",
    "REPLACED",
    "DROP_OLDEST",
    "SEMANTIC_DEDUPE",
    "VERBATIM",
    "StrategyComparison",
    "StrategyMessage",
    "StrategyResult",
    "compare_strategies",
    "default_lineup",
    "keep_last",
    "langchain",
    "memory_compact",
    "drop_oldest",
    "semantic_memory_compact",
]


@dataclass(frozen=True)
class StrategyComparison:
    budget_chars: int
    input_messages: int
    input_chars: int
    input_tokens_estimate: int
    results: tuple[StrategyResult, ...]

    def result(self, key: str) -> StrategyResult:
        return next(o for o in self.results if o.key == key)

    def rows(self) -> list[dict[str, Any]]:
        """One row per input message: index, role, original_chars, then each strategy's kept."""
        available = [o for o in self.results if o.available]
        rows = []
        for k in range(self.input_messages):
            first = available[0].messages[k]
            row: dict[str, Any] = {
                "index": first.index,
                "role": first.role,
                "original_chars": first.original_chars,
            }
            row.update({o.key: o.messages[k].kept for o in available})
            rows.append(row)
        return rows


def default_lineup() -> tuple[str, ...]:
    """Every registered strategy but semantic dedupe (compared when given a threshold)."""
    return tuple(n for n in registry.names() if n != SEMANTIC_DEDUPE)


def compare_strategies(
    request: Request,
    budget_chars: int | None = None,
    *,
    keep_last_messages: int | None = None,
    drop_tool_parts: bool = False,
    analysis: TextAnalysis | None = None,
    semantic_threshold: float | None = None,
    trim_encoding: str | None = None,
    strategies: Sequence[str] | None = None,
    params: Mapping[str, Mapping[str, Any]] | None = None,
) -> StrategyComparison:
    """Run the ``strategies`` (default :func:`default_lineup`) on ``request``'s history at
    ``budget_chars`` (default: its own).

    ``params`` gives a strategy's own parameters by its name (else the registry's lineup
    parameters). ``keep_last_messages`` and ``drop_tool_parts`` are the seeds/003 trim's own
    options (``keepLastMessages``, ``dropToolParts``). With ``semantic_threshold``,
    memory-compact with semantic dedupe is compared too. With ``trim_encoding`` (``o200k_base``
    or ``cl100k_base``, the ``tokens`` extra), the seeds/003 trim counts ``maxTokensEstimate``
    with that tokenizer instead of the estimate. A budget outside the schema's range raises
    :class:`compactor.InvalidRequest`; an unknown strategy or parameter
    :class:`~compactor.strategies._spec.StrategyParameterError`.
    """
    budget = request.params.budget_chars if budget_chars is None else budget_chars
    if budget != request.params.budget_chars:
        request = validate({**request.to_dict(), "budget_chars": budget}, limits=request.limits)
    params = dict(params or {})
    lineup = list(default_lineup() if strategies is None else strategies)
    if semantic_threshold is not None and SEMANTIC_DEDUPE not in lineup:
        lineup.append(SEMANTIC_DEDUPE)
    trim = {"keepLastMessages": keep_last_messages, "dropToolParts": drop_tool_parts}
    trim["encoding"] = trim_encoding
    # The strategies build tens of thousands of acyclic objects (units, term sets, records) on
    # an agent session, which sets off collections that walk every object of the process (a
    # fifth of a lineup on 1,000,000 characters): the collector is paused for the lineup.
    with collector_paused():
        results = _run_lineup(request, budget, lineup, params, trim, analysis, semantic_threshold)
    return StrategyComparison(
        budget,
        len(request.contents),
        sum(map(len, request.contents)),
        estimated_tokens(request.contents),
        tuple(results),
    )


def _run_lineup(
    request: Request,
    budget: int,
    lineup: Sequence[str],
    params: Mapping[str, Mapping[str, Any]],
    trim: Mapping[str, Any],
    analysis: TextAnalysis | None,
    semantic_threshold: float | None,
) -> list[StrategyResult]:
    results = []
    for name in lineup:
        strategy = registry.get(name)
        if name == MEMORY_COMPACT and name not in params:
            results.append(memory_compact(request, analysis))  # reuses the page's analysis
        elif name == SEMANTIC_DEDUPE and semantic_threshold is not None:
            results.append(semantic_memory_compact(request, semantic_threshold, analysis))
        elif name == DROP_OLDEST and name not in params:
            results.append(strategy.apply(request, budget_chars=budget, params=trim))
        else:
            results.append(
                strategy.apply(
                    request, budget_chars=budget, params=params.get(name, strategy.lineup)
                )
            )
    return results
