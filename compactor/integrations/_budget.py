"""A budget in tokens, turned into the character budget the strategies take: the largest
``budget_chars`` whose output fits ``budget_tokens``.

The output's tokens are counted as the explorer counts "tokens out": each returned message's
content in the encoding (``compactor.text._tokens``), summed; the few tokens a chat format adds
per message are not counted.

- **memory-compact**, exact, from one run: pin, dedupe, trim and the scores do not depend on
  the budget, so one run and its budget sweep (:func:`compactor.analyses._sweeps.budget_sweep`)
  give the output at every budget. Each message's returned text (after any trim) is counted
  once; the output's tokens at a step are those of the messages the step keeps. The answer is
  the last budget of the highest step that fits.
- **any other strategy**, by bisection: the rule assumes that a larger budget never returns
  more tokens less (true of every strategy in the registry that keeps or cuts by the budget).
  It keeps a fitting lower bound and a failing upper bound and halves the gap, so it finds a
  budget that fits where one character more does not, in at most 19 runs over 100..400,000.

When no budget fits (the protected messages alone are over), the smallest budget is used and
the report says the token budget is not met.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from compactor.analyses import budget_sweep
from compactor.contract import CONTRACT_LIMITS, MEMORY_COMPACT, budget_range
from compactor.engine import Fate, run
from compactor.errors import IntegrationUnavailable
from compactor.input import validate
from compactor.strategies import apply_strategy
from compactor.text import TokenizerUnavailable, count_tokens


@dataclass(frozen=True)
class TokenFit:
    """The character budget chosen for a token budget, and the output's tokens at it."""

    budget_chars: int
    output_tokens: int
    fits: bool  # output_tokens <= the token budget


def counter(encoding: str) -> Callable[[str], int]:
    """Token counts in ``encoding``; the tokens extra's install command when it is missing."""
    try:
        count_tokens("x", encoding)
    except TokenizerUnavailable:
        raise IntegrationUnavailable("A budget in tokens", "tokens") from None
    return lambda text: count_tokens(text, encoding)


def fit_tokens(
    request: Mapping[str, Any],
    strategy: str,
    params: Mapping[str, Any],
    budget_tokens: int,
    encoding: str,
    *,
    limits: str = CONTRACT_LIMITS,
) -> TokenFit:
    """The largest ``budget_chars`` at which ``strategy`` returns at most ``budget_tokens``
    tokens of ``request`` (its own budget is ignored), among the budgets of the ``limits``
    mode (``"agent"``: up to 2,000,000 characters, a whole session)."""
    count = counter(encoding)
    if strategy == MEMORY_COMPACT:
        return _memory_compact(request, budget_tokens, count, limits)
    return _bisect(request, strategy, params, budget_tokens, count, limits)


def _memory_compact(
    request: Mapping[str, Any], limit: int, count: Callable[[str], int], limits: str
) -> TokenFit:
    low, high = budget_range(limits)
    result = run(validate({**request, "budget_chars": high}, limits=limits))
    sweep = budget_sweep(result)
    traces = result.messages
    kept = [
        0 if t.fate is Fate.DUPLICATE else count(_returned_text(t.message.content, t.cut))
        for t in traces
    ]
    # tokens[d]: the output's tokens when drop removes the first d candidates of its order
    order_tokens = np.array([kept[i] for i in result.dropping.order], dtype=np.int64)
    tokens = sum(kept) - np.concatenate(([0], np.cumsum(order_tokens)))
    for step in reversed(sweep.steps):
        if tokens[step.dropped_messages] <= limit:
            return TokenFit(step.to_budget, int(tokens[step.dropped_messages]), True)
    first = sweep.steps[0]
    return TokenFit(low, int(tokens[first.dropped_messages]), False)


def _returned_text(content: str, cut: Any) -> str:
    return content[: cut.chars] if cut is not None else content


def _bisect(
    request: Mapping[str, Any],
    strategy: str,
    params: Mapping[str, Any],
    limit: int,
    count: Callable[[str], int],
    limits: str,
) -> TokenFit:
    typed = validate(dict(request), limits=limits)
    low, high = budget_range(limits)

    def tokens_at(budget: int) -> int:
        outcome = apply_strategy(strategy, typed, budget_chars=budget, params=params)
        return output_tokens([m["content"] for m in outcome.returned()], count)

    top = tokens_at(high)
    if top <= limit:
        return TokenFit(high, top, True)
    bottom = tokens_at(low)
    if bottom > limit:
        return TokenFit(low, bottom, False)
    fits, fails = low, high  # tokens_at(fits) <= limit < tokens_at(fails)
    fitting = bottom
    while fails - fits > 1:
        middle = (fits + fails) // 2
        found = tokens_at(middle)
        if found <= limit:
            fits, fitting = middle, found
        else:
            fails = middle
    return TokenFit(fits, fitting, True)


def output_tokens(contents: Sequence[str], count: Callable[[str], int]) -> int:
    """The tokens of a returned conversation: each content's, summed."""
    return sum(count(c) for c in contents)
