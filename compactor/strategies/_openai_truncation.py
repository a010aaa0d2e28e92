"""OpenAI Responses ``truncation``: ``"auto"`` drops the oldest input items until it fits.

From the OpenAI API reference, "Create a model response", parameter ``truncation``
(https://platform.openai.com/docs/api-reference/responses/create, read 2025-10): ``"auto"``: if
the input exceeds the model's context window, the model truncates it to fit by dropping items
from the beginning of the conversation (earlier versions of the page said "in the middle of
the conversation"); ``"disabled"`` (the default): the request fails with a 400 error.

Assumed here (unpublished): system and developer messages are the ``instructions`` and are
never dropped; the other messages are dropped oldest first until the estimate fits; a tool
result whose call was dropped is dropped too (the API rejects a ``function_call_output``
without its call); the last message is never dropped (when it alone does not fit, the API
would fail: the result then does not meet the budget). With ``"disabled"`` the history is
returned whole; when it does not fit, the API would fail, and the result says the budget was
not met.

At the same budget: the context window is the budget in tokens, ``ceil(budget_chars / 4)``
(unless ``context_window`` is given), tokens ``ceil(characters / 4)`` per message unless an
``encoding`` is given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from compactor.model import Request
from compactor.strategies._returned import StrategyResult
from compactor.strategies._spec import Parameter, RegisteredStrategy, Source, encoding_parameter
from compactor.strategies._tool_uses import (
    budget_tokens,
    peer_result,
    tokens,
    tool_uses,
)

KEY = "openai-truncation"
INSTRUCTIONS = ("system", "developer")


def truncate_auto(
    roles: Sequence[str],
    contents: Sequence[str],
    ids: Sequence[str | None],
    context_window: int,
    encoding: str | None = None,
) -> dict[int, str]:
    """The messages ``truncation: "auto"`` keeps, by index.

    >>> truncate_auto(["system", "user", "assistant", "user"], ["s", "a" * 40, "b" * 8, "c"],
    ...               [None] * 4, 5)
    {0: 's', 2: 'bbbbbbbb', 3: 'c'}
    """
    counts = [tokens(c, encoding) for c in contents]
    kept = set(range(len(contents)))
    total = sum(counts)
    droppable = [i for i, r in enumerate(roles) if r not in INSTRUCTIONS][:-1]
    calls = {u.result: u.call for u in tool_uses(roles, contents, ids)}
    results_of: dict[int, list[int]] = {}  # each call's results, read once (not per drop)
    for result, call in calls.items():
        results_of.setdefault(call, []).append(result)
    for i in droppable:
        if total <= context_window:
            break
        if i not in kept:
            continue  # went with its call
        kept.discard(i)
        total -= counts[i]
        # results whose call is now gone go with it
        for result in results_of.get(i, ()):
            if result in kept and result != len(contents) - 1:
                kept.discard(result)
                total -= counts[result]
    return {i: contents[i] for i in sorted(kept)}


def _run(
    request: Request, budget: int, params: Mapping[str, Any], given: frozenset[str]
) -> StrategyResult:
    window = params["context_window"]
    window = budget_tokens(budget) if window is None else window
    used = {**params, "context_window": window}
    if params["truncation"] == "auto":
        ids = [m.id for m in request.messages]
        out = truncate_auto(request.roles, request.contents, ids, window, params["encoding"])
        how = f'truncation="auto" at a context window of {window} tokens'
    else:
        out = dict(enumerate(request.contents))
        how = 'truncation="disabled": the whole input (the API fails with 400 when it is over)'
    return peer_result(KEY, "OpenAI truncation", how, used, request, out, budget)


STRATEGY = RegisteredStrategy(
    KEY,
    'OpenAI Responses truncation ("auto")',
    Source(
        "OpenAI API reference: Responses, create, truncation",
        "https://platform.openai.com/docs/api-reference/responses/create",
        "2025",
    ),
    (
        Parameter(
            "truncation", "choice", "disabled", "auto or disabled", choices=("auto", "disabled")
        ),
        Parameter(
            "context_window",
            "int",
            None,
            "the model's context window in tokens (ours)",
            1,
            nullable=True,
            from_budget="ceil(budget_chars / 4) when not given",
        ),
        encoding_parameter("tokenizer (ours)"),
    ),
    _run,
    budget="context window = ceil(budget_chars / 4) tokens",
    lineup={"truncation": "auto"},
)
