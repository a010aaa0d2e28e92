"""The first lineup: the strategies this project compared from the start, each on a request at a
character budget: memory-compact (the request's parameters), keep the last N messages,
drop-oldest (the trim of seeds/003: its budget in tokens is the character budget under the
estimate it uses, ``ceil(budget_chars / 4)``), LangChain's ``trim_messages`` with a character
counter (when langchain-core is installed) and memory-compact with semantic dedupe. Each returns
a :class:`~compactor.strategies._returned.StrategyResult`. (Not the baselines of SPEC part D:
those are :mod:`compactor.analyses.outcomes._baselines`.)"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from compactor.contract import MEMORY_COMPACT
from compactor.engine import run
from compactor.model import Request
from compactor.strategies import _keep_last as keep_last_strategy
from compactor.strategies import _langchain_trim as langchain_strategy
from compactor.strategies import _semantic_dedupe as semantic_dedupe
from compactor.strategies._context_trim import (
    CHARS_PER_TOKEN,
    DROP_OLDEST,
    trim_context,
    trim_token_counter,
)
from compactor.strategies._keep_last import KEEP_LAST
from compactor.strategies._returned import StrategyResult, strategy_result, unavailable_result
from compactor.text import SemanticUnavailable, TextAnalysis

# Keys of the strategies (their registry names).
LANGCHAIN = "langchain-trim"
SEMANTIC_DEDUPE = semantic_dedupe.KEY


def memory_compact(request: Request, analysis: TextAnalysis | None = None) -> StrategyResult:
    """memory-compact with the request's parameters."""
    result = run(request, analysis=analysis)
    params = request.params.to_dict()
    returned = {t.index: t.output for t in result.messages if t.survived}
    how = ", ".join(f"{name}={json.dumps(value)}" for name, value in params.items())
    return strategy_result(
        MEMORY_COMPACT,
        MEMORY_COMPACT,
        how,
        params,
        request.roles,
        request.contents,
        returned,
        request.params.budget_chars,
        ids=_ids(request),
    )


def keep_last(
    roles: Sequence[str],
    contents: Sequence[str],
    budget_chars: int,
    ids: Sequence[str | None] | None = None,
) -> StrategyResult:
    """The last N messages, N the largest whose characters fit ``budget_chars``."""
    kept = keep_last_strategy.keep_last(contents, budget_chars)
    how = f"the last {len(kept)} messages, the most whose characters fit the budget"
    return strategy_result(
        KEEP_LAST,
        "keep the last N",
        how,
        {"n": len(kept)},
        roles,
        contents,
        {i: contents[i] for i in kept},
        budget_chars,
        ids=ids,
    )


def drop_oldest(
    roles: Sequence[str],
    contents: Sequence[str],
    budget_chars: int,
    keep_last_messages: int | None = None,
    drop_tool_parts: bool = False,
    encoding: str | None = None,
    ids: Sequence[str | None] | None = None,
) -> StrategyResult:
    """The seeds/003 trim with ``maxTokensEstimate = ceil(budget_chars / 4)``, counted with the
    estimate, or with the ``encoding``'s tokenizer (raises ``TokenizerUnavailable`` without the
    ``tokens`` extra)."""
    parameters: dict[str, Any] = {"maxTokensEstimate": math.ceil(budget_chars / CHARS_PER_TOKEN)}
    if keep_last_messages is not None:
        parameters["keepLastMessages"] = keep_last_messages
    parameters["dropToolParts"] = drop_tool_parts
    # The position rides along in each message (the trim ignores fields it does not know), so
    # the messages it returns can be named by index even when it copies them.
    messages = [
        {"role": r, "content": c, "index": i}
        for i, (r, c) in enumerate(zip(roles, contents, strict=True))
    ]
    counter = None if encoding is None else trim_token_counter(encoding)
    out = trim_context({"messages": messages, **parameters}, counter)
    returned = {m["index"]: m["content"] for m in out["messages"]}
    how = ", ".join(f"{name}={json.dumps(value)}" for name, value in parameters.items())
    if encoding is None:
        how += " (tokens estimated as ceil(characters / 4) per message)"
    else:
        how += f" (tokens counted with {encoding} per message)"
    result = strategy_result(
        DROP_OLDEST,
        "drop-oldest (recency trim, token estimate)",
        how,
        parameters,
        roles,
        contents,
        returned,
        budget_chars,
        ids=ids,
    )
    return replace(result, stats=out["stats"])


def langchain(
    roles: Sequence[str],
    contents: Sequence[str],
    budget_chars: int,
    ids: Sequence[str | None] | None = None,
) -> StrategyResult:
    """LangChain's ``trim_messages`` with a character counter, or why it cannot run."""
    name = "LangChain trim_messages"
    parameters = {
        "max_tokens": budget_chars,
        "token_counter": "characters",
        "strategy": "last",
        "include_system": True,
    }
    try:
        returned = langchain_strategy.langchain_trim(roles, contents, budget_chars)
    except langchain_strategy.LangChainUnavailable as missing:
        return unavailable_result(
            LANGCHAIN, name, langchain_strategy.CALL, str(missing), parameters, budget_chars
        )
    how = f"langchain-core {langchain_strategy.langchain_version()}: {langchain_strategy.CALL}"
    return strategy_result(
        LANGCHAIN, name, how, parameters, roles, contents, returned, budget_chars, ids=ids
    )


def semantic_memory_compact(
    request: Request, threshold: float, analysis: TextAnalysis | None = None
) -> StrategyResult:
    """memory-compact with semantic dedupe (:mod:`compactor.strategies._semantic_dedupe`)."""
    name = "memory-compact, semantic dedupe"
    parameters = {**request.params.to_dict(), "semantic_threshold": threshold}
    try:
        found = semantic_dedupe.semantic_dedupe(request, threshold, analysis=analysis)
    except SemanticUnavailable as missing:
        return unavailable_result(
            SEMANTIC_DEDUPE, name, "", str(missing), parameters, request.params.budget_chars
        )
    returned = {t.index: t.output for t in found.result.messages if t.survived}
    how = (
        f"memory-compact with the request's parameters; dedupe also removes a message whose "
        f"meaning is within cosine {threshold} of an earlier one of its role "
        f"({len(found.by_meaning)} removed so)"
    )
    return strategy_result(
        SEMANTIC_DEDUPE,
        name,
        how,
        parameters,
        request.roles,
        request.contents,
        returned,
        request.params.budget_chars,
        ids=_ids(request),
    )


def _ids(request: Request) -> list[str | None]:
    return [m.id for m in request.messages]
