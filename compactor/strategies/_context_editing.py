"""Context editing: clear old tool results, as Anthropic's API and LangChain's middleware do.

**Anthropic** ``clear_tool_uses_20250919`` (beta header ``context-management-2025-06-27``),
from the "Context editing" page of Claude's documentation
(https://docs.claude.com/en/docs/build-with-claude/context-editing, as published 2025-09-29 and
read 2025-10): once the prompt exceeds ``trigger`` input tokens (default 100,000), the API
clears the oldest tool results in chronological order, replacing each with placeholder text,
keeping the last ``keep`` tool uses (default 3); ``clear_at_least`` (default none) is the
fewest tokens a clearing must free, else the strategy is not applied; ``exclude_tools`` are
never cleared; ``clear_tool_inputs`` (default false) clears the calls' parameters too.
Unpublished, so assumed here: the placeholder's text (:data:`ANTHROPIC_PLACEHOLDER`); that a
cleared input becomes ``{}``; that ``keep`` counts every tool use, excluded ones too; that every
tool result but the kept and excluded ones is cleared (not just enough to get under the
trigger); and that the freed tokens are net of the placeholders. ``clear_tool_inputs`` as a list
of tool names (the SDKs allow it) is not supported.

**LangChain** ``ContextEditingMiddleware(edits=[ClearToolUsesEdit()])``, from
``libs/langchain_v1/langchain/agents/middleware/context_editing.py`` (langchain 1.0, 2025-10;
read from the source, langchain itself is not a dependency): when the tokens exceed
``trigger`` (default 100,000), each tool message but the last ``keep`` (default 3) becomes
``placeholder`` (default ``"[cleared]"``) unless already cleared, its tool is in
``exclude_tools``, or the nearest earlier assistant message holds no call with its id; with
``clear_tool_inputs`` that call's arguments become ``{}``; with ``clear_at_least`` > 0 it stops
once that many tokens are freed. The int forms of ``trigger`` and ``keep`` are implemented (not
the newer ``("messages", n)`` tuples). Its "approximate" counter adds 3 tokens and the role per
message; here, as for every strategy, tokens are ``ceil(characters / 4)`` per message unless
an ``encoding`` is given.

At the same budget: when ``trigger`` is not given, it is the budget in tokens,
``ceil(budget_chars / 4)``; whether what is returned fits the budget is then reported.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from compactor.model import Request
from compactor.strategies._returned import StrategyResult
from compactor.strategies._spec import Parameter, RegisteredStrategy, Source, encoding_parameter
from compactor.strategies._tool_uses import (
    budget_tokens,
    clear_input,
    peer_result,
    tool_uses,
    total_tokens,
)

ANTHROPIC = "anthropic-clear-tool-uses"
LANGCHAIN = "langchain-clear-tool-uses"
#: Anthropic does not publish its placeholder's text; this stands in for it.
ANTHROPIC_PLACEHOLDER = "[tool result cleared]"
LANGCHAIN_PLACEHOLDER = "[cleared]"
DEFAULT_TRIGGER = 100_000
DEFAULT_KEEP = 3
_FROM_BUDGET = "ceil(budget_chars / 4) when not given"


def anthropic_clear(
    roles: Sequence[str],
    contents: Sequence[str],
    ids: Sequence[str | None],
    *,
    trigger: int = DEFAULT_TRIGGER,
    keep: int = DEFAULT_KEEP,
    clear_at_least: int | None = None,
    exclude_tools: Sequence[str] = (),
    clear_tool_inputs: bool = False,
    encoding: str | None = None,
) -> dict[int, str]:
    """The contents after ``clear_tool_uses_20250919``, by index (every message is returned).

    >>> out = anthropic_clear(["assistant", "tool", "assistant", "tool"],
    ...     ["[tool call ls id=a] {}", "x" * 40, "[tool call ls id=b] {}", "y" * 40],
    ...     [None, "a", None, "b"], trigger=10, keep=1)
    >>> out[1], out[3] == "y" * 40
    ('[tool result cleared]', True)
    """
    out = dict(enumerate(contents))
    before = total_tokens(contents, encoding)
    if before <= trigger:
        return out
    uses = tool_uses(roles, contents, ids)
    older = uses[: max(0, len(uses) - keep)]
    excluded = set(exclude_tools)
    for use in older:
        if use.name in excluded:
            continue
        out[use.result] = ANTHROPIC_PLACEHOLDER
        if clear_tool_inputs and use.call is not None:
            out[use.call] = clear_input(out[use.call], use.id)
    freed = before - total_tokens(list(out.values()), encoding)
    if clear_at_least is not None and freed < clear_at_least:
        return dict(enumerate(contents))  # cannot free enough: not applied
    return out


def langchain_clear(
    roles: Sequence[str],
    contents: Sequence[str],
    ids: Sequence[str | None],
    *,
    trigger: int = DEFAULT_TRIGGER,
    clear_at_least: int = 0,
    keep: int = DEFAULT_KEEP,
    clear_tool_inputs: bool = False,
    exclude_tools: Sequence[str] = (),
    placeholder: str = LANGCHAIN_PLACEHOLDER,
    encoding: str | None = None,
) -> dict[int, str]:
    """The contents after ``ClearToolUsesEdit.apply``, by index (every message is returned)."""
    out = dict(enumerate(contents))
    before = total_tokens(contents, encoding)
    if not before > trigger:
        return out
    candidates = [i for i, r in enumerate(roles) if r == "tool"]
    if keep >= len(candidates):
        candidates = []
    elif keep > 0:
        candidates = candidates[:-keep]
    excluded = set(exclude_tools)
    named = {u.result: u for u in tool_uses(roles, contents, ids)}
    for i in candidates:
        if out[i] == placeholder:
            continue  # cleared before (LangChain marks it in response_metadata)
        ai = next((k for k in range(i - 1, -1, -1) if roles[k] == "assistant"), None)
        use = named[i]
        if ai is None or use.call != ai or use.name is None:
            continue  # the nearest assistant message holds no call with this id
        if use.name in excluded:
            continue
        out[i] = placeholder
        if clear_tool_inputs:
            out[ai] = clear_input(out[ai], use.id)
        freed = before - total_tokens(list(out.values()), encoding)
        if clear_at_least > 0 and freed >= clear_at_least:
            break
    return out


def _trigger(params: Mapping[str, Any], given: frozenset[str], budget: int) -> int:
    return params["trigger"] if "trigger" in given else budget_tokens(budget)


def _run_anthropic(
    request: Request, budget: int, params: Mapping[str, Any], given: frozenset[str]
) -> StrategyResult:
    used = {**params, "trigger": _trigger(params, given, budget)}
    out = anthropic_clear(request.roles, request.contents, [m.id for m in request.messages], **used)
    how = (
        f"clear_tool_uses_20250919 with trigger {used['trigger']} input tokens, keep "
        f"{used['keep']} tool uses; placeholder {ANTHROPIC_PLACEHOLDER!r} (assumed)"
    )
    return peer_result(ANTHROPIC, "Anthropic context editing", how, used, request, out, budget)


def _run_langchain(
    request: Request, budget: int, params: Mapping[str, Any], given: frozenset[str]
) -> StrategyResult:
    used = {**params, "trigger": _trigger(params, given, budget)}
    out = langchain_clear(request.roles, request.contents, [m.id for m in request.messages], **used)
    how = (
        f"ClearToolUsesEdit(trigger={used['trigger']}, keep={used['keep']}, "
        f"placeholder={used['placeholder']!r})"
    )
    name = "LangChain ContextEditingMiddleware"
    return peer_result(LANGCHAIN, name, how, used, request, out, budget)


def _common(clear_at_least: Parameter) -> tuple[Parameter, ...]:
    return (
        Parameter("trigger", "int", DEFAULT_TRIGGER, "input tokens", 1, from_budget=_FROM_BUDGET),
        Parameter("keep", "int", DEFAULT_KEEP, "the last tool uses kept", 0),
        clear_at_least,
        Parameter("exclude_tools", "names", [], "tools never cleared"),
        Parameter("clear_tool_inputs", "bool", False, "clear the calls' inputs too"),
    )


_ENCODING = encoding_parameter("tokenizer instead of ceil(chars / 4) (ours)")

ANTHROPIC_STRATEGY = RegisteredStrategy(
    ANTHROPIC,
    "Anthropic context editing (clear_tool_uses_20250919)",
    Source(
        "Claude docs: Context editing",
        "https://docs.claude.com/en/docs/build-with-claude/context-editing",
        "2025-09-29",
    ),
    (
        *_common(Parameter("clear_at_least", "int", None, "input tokens", 0, nullable=True)),
        _ENCODING,
    ),
    _run_anthropic,
    budget=f"trigger = {_FROM_BUDGET}",
    replaces=True,
)

LANGCHAIN_STRATEGY = RegisteredStrategy(
    LANGCHAIN,
    "LangChain ContextEditingMiddleware (ClearToolUsesEdit)",
    Source(
        "langchain-ai/langchain libs/langchain_v1/langchain/agents/middleware/context_editing.py",
        "https://github.com/langchain-ai/langchain/blob/master/libs/langchain_v1/langchain/"
        "agents/middleware/context_editing.py",
        "langchain 1.0, 2025-10",
    ),
    (
        *_common(Parameter("clear_at_least", "int", 0, "tokens to reclaim", 0)),
        Parameter("placeholder", "str", LANGCHAIN_PLACEHOLDER, "text of a cleared result"),
        _ENCODING,
    ),
    _run_langchain,
    budget=f"trigger = {_FROM_BUDGET}",
    replaces=True,
)
