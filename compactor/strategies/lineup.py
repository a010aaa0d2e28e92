"""Every strategy on one history at the same character budget, message by message.

memory-compact (the request's parameters at that budget), keep the last N messages, the trim of
seeds/003 (its budget in tokens is the character budget under the same estimate it uses,
``ceil(budget_chars / 4)``) and LangChain's ``trim_messages`` with a character counter (when
langchain-core is installed). Each :class:`StrategyOutcome` says which input messages the
strategy returns, whole or cut, and its totals in characters and in estimated tokens.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from compactor.engine.pipeline import run
from compactor.input.validation import validate
from compactor.model import Request
from compactor.strategies import keep_last as keep_last_strategy
from compactor.strategies import langchain_trim as langchain_strategy
from compactor.strategies import semantic_dedupe
from compactor.strategies.context_trim import (
    CHARS_PER_TOKEN,
    estimate_tokens,
    trim_context,
    trim_token_counter,
)
from compactor.text.profile import TextAnalysis

# Keys of the strategies, in the order they are compared.
MEMORY_COMPACT = "memory-compact"
KEEP_LAST = "keep-last"
SEED_TRIM = "seed-trim"
LANGCHAIN = "langchain"
SEMANTIC_DEDUPE = "semantic-dedupe"  # only when compare_strategies is given semantic_threshold

# How a strategy returned a message (``StrategyMessage.kept``).
VERBATIM = "verbatim"
CUT = "cut"
REMOVED = "removed"


@dataclass(frozen=True)
class StrategyMessage:
    index: int
    role: str
    original_chars: int
    kept: str  # "verbatim", "cut" or "removed"
    chars: int  # characters returned (0 when removed)


@dataclass(frozen=True)
class StrategyOutcome:
    key: str  # "memory-compact", "keep-last", "seed-trim" or "langchain"
    name: str
    how: str  # how it was run, in words
    available: bool
    #: Why it could not run and how to fix that (LangChain not installed); None when it ran.
    unavailable: str | None
    parameters: Mapping[str, Any]  # what was passed to the strategy
    messages: tuple[StrategyMessage, ...]  # one per input message; empty when unavailable
    budget_chars: int
    output_chars: int | None  # None when unavailable
    output_messages: int | None
    cut_messages: int | None
    #: Estimated tokens of what it returns: ceil(characters / 4) per message, summed.
    tokens_estimate: int | None
    budget_met: bool | None
    stats: Mapping[str, int] | None = field(default=None)  # the seeds/003 trim's stats block

    @property
    def kept(self) -> tuple[int, ...]:
        """Indices of the messages returned, whole or cut."""
        return tuple(m.index for m in self.messages if m.kept != REMOVED)


@dataclass(frozen=True)
class StrategyComparison:
    budget_chars: int
    input_messages: int
    input_chars: int
    input_tokens_estimate: int
    outcomes: tuple[StrategyOutcome, ...]

    def outcome(self, key: str) -> StrategyOutcome:
        return next(o for o in self.outcomes if o.key == key)

    def rows(self) -> list[dict[str, Any]]:
        """One row per input message: index, role, original_chars, then each strategy's kept."""
        available = [o for o in self.outcomes if o.available]
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


def compare_strategies(
    request: Request,
    budget_chars: int | None = None,
    *,
    keep_last_messages: int | None = None,
    drop_tool_parts: bool = False,
    analysis: TextAnalysis | None = None,
    semantic_threshold: float | None = None,
    trim_encoding: str | None = None,
) -> StrategyComparison:
    """Run every strategy on ``request``'s history at ``budget_chars`` (default: its own).

    ``keep_last_messages`` and ``drop_tool_parts`` are the seeds/003 trim's own options
    (``keepLastMessages``, ``dropToolParts``). With ``semantic_threshold``, memory-compact with
    semantic dedupe (:mod:`compactor.strategies.semantic_dedupe`) is compared too. With
    ``trim_encoding`` (``o200k_base`` or ``cl100k_base``, the ``tokens`` extra), the seeds/003
    trim counts ``maxTokensEstimate`` with that tokenizer instead of the estimate. A budget
    outside the schema's range raises :class:`compactor.InvalidRequest`.
    """
    budget = request.params.budget_chars if budget_chars is None else budget_chars
    if budget != request.params.budget_chars:
        request = validate({**request.to_dict(), "budget_chars": budget})
    roles, contents = request.roles, request.contents
    outcomes = (
        memory_compact(request, analysis),
        keep_last(roles, contents, budget),
        seed_trim(roles, contents, budget, keep_last_messages, drop_tool_parts, trim_encoding),
        langchain(roles, contents, budget),
    )
    if semantic_threshold is not None:
        outcomes += (semantic_memory_compact(request, semantic_threshold, analysis),)
    return StrategyComparison(
        budget,
        len(contents),
        sum(map(len, contents)),
        _tokens(roles, contents),
        outcomes,
    )


def memory_compact(request: Request, analysis: TextAnalysis | None = None) -> StrategyOutcome:
    """memory-compact with the request's parameters."""
    result = run(request, analysis)
    params = request.params.to_dict()
    returned = {t.index: t.output for t in result.messages if t.survived}
    how = ", ".join(f"{name}={json.dumps(value)}" for name, value in params.items())
    return _outcome(
        MEMORY_COMPACT,
        "memory-compact",
        how,
        params,
        request.roles,
        request.contents,
        returned,
        request.params.budget_chars,
    )


def keep_last(roles: Sequence[str], contents: Sequence[str], budget_chars: int) -> StrategyOutcome:
    """The last N messages, N the largest whose characters fit ``budget_chars``."""
    kept = keep_last_strategy.keep_last(contents, budget_chars)
    how = f"the last {len(kept)} messages, the most whose characters fit the budget"
    return _outcome(
        KEEP_LAST,
        "keep the last N",
        how,
        {"n": len(kept)},
        roles,
        contents,
        {i: contents[i] for i in kept},
        budget_chars,
    )


def seed_trim(
    roles: Sequence[str],
    contents: Sequence[str],
    budget_chars: int,
    keep_last_messages: int | None = None,
    drop_tool_parts: bool = False,
    encoding: str | None = None,
) -> StrategyOutcome:
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
    outcome = _outcome(
        SEED_TRIM, "trim (seeds/003)", how, parameters, roles, contents, returned, budget_chars
    )
    return replace(outcome, stats=out["stats"])


def langchain(roles: Sequence[str], contents: Sequence[str], budget_chars: int) -> StrategyOutcome:
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
        return StrategyOutcome(
            LANGCHAIN,
            name,
            langchain_strategy.CALL,
            False,
            str(missing),
            parameters,
            (),
            budget_chars,
            None,
            None,
            None,
            None,
            None,
        )
    how = f"langchain-core {langchain_strategy.langchain_version()}: {langchain_strategy.CALL}"
    return _outcome(LANGCHAIN, name, how, parameters, roles, contents, returned, budget_chars)


def _tokens(roles: Sequence[str], contents: Sequence[str]) -> int:
    return sum(
        estimate_tokens({"role": r, "content": c}) for r, c in zip(roles, contents, strict=True)
    )


def _outcome(
    key: str,
    name: str,
    how: str,
    parameters: Mapping[str, Any],
    roles: Sequence[str],
    contents: Sequence[str],
    returned: Mapping[int, str],
    budget_chars: int,
) -> StrategyOutcome:
    """The outcome of a strategy that returned ``{index: content}`` (each a prefix of its input)."""
    messages = []
    for i, (role, content) in enumerate(zip(roles, contents, strict=True)):
        if i not in returned:
            messages.append(StrategyMessage(i, role, len(content), REMOVED, 0))
            continue
        out = returned[i]
        if not content.startswith(out):
            raise ValueError(f"{key} returned message {i} changed, not as a prefix of its input")
        kept = VERBATIM if out == content else CUT
        messages.append(StrategyMessage(i, role, len(content), kept, len(out)))
    output_chars = sum(m.chars for m in messages)
    return StrategyOutcome(
        key=key,
        name=name,
        how=how,
        available=True,
        unavailable=None,
        parameters=dict(parameters),
        messages=tuple(messages),
        budget_chars=budget_chars,
        output_chars=output_chars,
        output_messages=len(returned),
        cut_messages=sum(m.kept == CUT for m in messages),
        tokens_estimate=_tokens([roles[i] for i in returned], list(returned.values())),
        budget_met=output_chars <= budget_chars,
    )


def semantic_memory_compact(
    request: Request, threshold: float, analysis: TextAnalysis | None = None
) -> StrategyOutcome:
    """memory-compact with semantic dedupe (:mod:`compactor.strategies.semantic_dedupe`)."""
    name = "memory-compact, semantic dedupe"
    parameters = {**request.params.to_dict(), "semantic_threshold": threshold}
    try:
        found = semantic_dedupe.semantic_dedupe(request, threshold, analysis=analysis)
    except semantic_dedupe.SemanticUnavailable as missing:
        return StrategyOutcome(
            semantic_dedupe.KEY,
            name,
            "",
            False,
            str(missing),
            parameters,
            (),
            request.params.budget_chars,
            None,
            None,
            None,
            None,
            None,
        )
    returned = {t.index: t.output for t in found.result.messages if t.survived}
    how = (
        f"memory-compact with the request's parameters; dedupe also removes a message whose "
        f"meaning is within cosine {threshold} of an earlier one of its role "
        f"({len(found.by_meaning)} removed so)"
    )
    return _outcome(
        semantic_dedupe.KEY,
        name,
        how,
        parameters,
        request.roles,
        request.contents,
        returned,
        request.params.budget_chars,
    )
