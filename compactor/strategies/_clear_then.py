"""Clear, then fit: what platforms do with a clearing strategy (issue 36).

Clearing old tool results alone returns whatever it did not clear, often several times the
budget (Anthropic's ``clear_tool_uses_20250919`` frees tool results, never a user turn). A
platform that must fit a context window runs a second strategy after it. ``clear-then-fit``
is that composition, as one strategy with both steps' parameters:

1. **clear**: Anthropic context editing, ``clear_tool_uses_20250919``, from the "Context
   editing" page of Claude's documentation
   (https://docs.claude.com/en/docs/build-with-claude/context-editing, as published
   2025-09-29), with its parameters (``trigger``, ``keep``, ``clear_at_least``,
   ``exclude_tools``, ``clear_tool_inputs``, ``encoding``) exactly as the
   ``anthropic-clear-tool-uses`` strategy takes them (:mod:`compactor.strategies._context_editing`);
2. **fit**: ``then`` = ``keep-last`` (the last whole messages whose characters fit the budget)
   or ``memory-compact`` (the request's own parameters at the budget), run on what the clearing
   returned, each message keeping its role, id and pin.

Each input message is then removed (by either step), returned verbatim, cut (a prefix of it),
or replaced (its content cleared, whole or in part, then kept or cut by the second step).

>>> from compactor import validate
>>> from compactor.samples import load_sample
>>> request = validate(load_sample("support-chat").request)
>>> result = STRATEGY.apply(request, budget_chars=2000)
>>> result.output_chars <= 2000, result.budget_met
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from compactor.input import validate
from compactor.model import Request
from compactor.strategies import _context_editing as context_editing
from compactor.strategies import _first_lineup as first_lineup
from compactor.strategies._returned import (
    REMOVED,
    REPLACED,
    VERBATIM,
    StrategyResult,
    strategy_result,
)
from compactor.strategies._spec import Parameter, RegisteredStrategy, Source

KEY = "clear-then-fit"
#: The second step's strategies.
THEN = (first_lineup.KEEP_LAST, first_lineup.MEMORY_COMPACT)
_CLEAR = context_editing.ANTHROPIC_STRATEGY
_CLEARING = frozenset(p.name for p in _CLEAR.parameters)


def _fit(request: Request, then: str, budget: int) -> StrategyResult:
    if then == first_lineup.KEEP_LAST:
        ids = [m.id for m in request.messages]
        return first_lineup.keep_last(request.roles, request.contents, budget, ids)
    return first_lineup.memory_compact(request)


def _run(
    request: Request, budget: int, params: Mapping[str, Any], given: frozenset[str]
) -> StrategyResult:
    clearing = {k: params[k] for k in _CLEARING if k in given}
    cleared = _CLEAR.apply(request, budget_chars=budget, params=clearing)
    kept = [m for m in cleared.messages if m.kept != REMOVED]
    originals = request.to_dict()["messages"]
    then = params["then"]
    returned: dict[int, str] = {}
    spans: dict[int, Any] = {}
    if len(kept) >= 2:
        after = validate(
            {
                **request.to_dict(),
                "messages": [{**originals[m.index], "content": m.content} for m in kept],
                "budget_chars": budget,
            },
            limits=request.limits,
        )
        fitted = _fit(after, then, budget)
        for first, second in zip(kept, fitted.messages, strict=True):
            if second.kept == REMOVED:
                continue
            returned[first.index] = second.content or ""
            if first.kept == REPLACED:
                # what the second step kept of a cleared message: its input spans while it is
                # whole, none once it is cut (a placeholder holds no input)
                spans[first.index] = first.kept_spans if second.kept == VERBATIM else ()
    else:
        returned = {m.index: m.content or "" for m in kept}
        spans = {m.index: m.kept_spans for m in kept if m.kept == REPLACED}
    used = {**cleared.parameters, "then": then}
    how = f"{cleared.how}; then {then} at {budget:,} characters"
    return strategy_result(
        KEY,
        "clear tool uses, then fit the budget",
        how,
        used,
        request.roles,
        request.contents,
        returned,
        budget,
        ids=[m.id for m in request.messages],
        replaces=True,
        spans=spans,
    )


STRATEGY = RegisteredStrategy(
    KEY,
    "clear tool uses (Anthropic context editing), then fit the budget",
    Source(
        "Claude docs: Context editing (the clearing step), then keep-last or memory-compact",
        "https://docs.claude.com/en/docs/build-with-claude/context-editing",
        "2025-09-29",
    ),
    (
        *_CLEAR.parameters,
        Parameter(
            "then",
            "choice",
            first_lineup.KEEP_LAST,
            "the strategy that fits what the clearing returned into the budget",
            choices=THEN,
        ),
    ),
    _run,
    budget=f"the clearing's {_CLEAR.budget}; then the second step fits budget_chars",
    replaces=True,
)
