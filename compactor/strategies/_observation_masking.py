"""Observation masking: tool results older than the last ``n`` turns become a placeholder.

From "The Complexity Trap: Simple Observation Masking Is as Efficient as LLM Summarization for
Agent Context Management" (Lindenbauer et al., JetBrains Research, arXiv 2508.21433, 2025-08;
NeurIPS 2025 DL4Code workshop): the agent's observations (tool results) outside a rolling
window of the last M turns are replaced by a placeholder, its reasoning and actions kept whole;
the paper's window is 10 turns. The placeholder is SWE-agent's ``LastNObservations`` template,
``Old environment output: ({n_lines} lines omitted)`` (``sweagent/agent/history_processors.py``),
which the paper's implementation builds on; the parameter is named ``n`` as there.

Assumed here: a turn is an assistant message (one agent step: its action and the results that
answer it); a tool result belongs to the turn of the assistant message before it; a tool
result before any assistant message is in no turn and is masked once there are ``n`` turns.
SWE-agent's ``polling`` (masking every few steps to spare the prompt cache) is not modelled.

At the same budget: masking has no trigger (it runs on every step), so the budget does not
change it; whether what is returned fits the budget is reported.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from compactor.model import Request
from compactor.strategies._returned import StrategyResult
from compactor.strategies._spec import Parameter, RegisteredStrategy, Source
from compactor.strategies._tool_uses import peer_result

KEY = "observation-masking"
DEFAULT_N = 10
TEMPLATE = "Old environment output: ({n_lines} lines omitted)"


def mask_observations(
    roles: Sequence[str], contents: Sequence[str], n: int = DEFAULT_N
) -> dict[int, str]:
    """The contents with the tool results of all but the last ``n`` turns masked.

    >>> mask_observations(["assistant", "tool", "assistant", "tool"], ["a", "1\\n2", "b", "3"], 1)
    {0: 'a', 1: 'Old environment output: (2 lines omitted)', 2: 'b', 3: '3'}
    """
    turns = sum(r == "assistant" for r in roles)
    first_kept_turn = turns - n + 1  # turns are numbered from 1
    out = dict(enumerate(contents))
    turn = 0
    for i, role in enumerate(roles):
        if role == "assistant":
            turn += 1
        elif role == "tool" and turn < first_kept_turn:
            out[i] = TEMPLATE.format(n_lines=len(contents[i].splitlines()))
    return out


def _run(
    request: Request, budget: int, params: Mapping[str, Any], given: frozenset[str]
) -> StrategyResult:
    out = mask_observations(request.roles, request.contents, params["n"])
    how = f"tool results older than the last {params['n']} turns masked"
    return peer_result(KEY, "observation masking", how, params, request, out, budget)


STRATEGY = RegisteredStrategy(
    KEY,
    "Observation masking (The Complexity Trap)",
    Source(
        "Lindenbauer et al., The Complexity Trap, JetBrains Research (arXiv 2508.21433)",
        "https://arxiv.org/abs/2508.21433",
        "2025-08",
    ),
    (Parameter("n", "int", DEFAULT_N, "turns whose tool results stay whole", 0),),
    _run,
    budget="no trigger: the budget does not change it",
    replaces=True,
)
