"""Vercel AI SDK ``pruneMessages``: drop reasoning and tool calls before the last messages.

From the AI SDK's source, ``packages/ai/src/generate-text/prune-messages.ts`` (vercel/ai, AI SDK
5, 2025; documented at https://ai-sdk.dev/docs/reference/ai-sdk-core/prune-messages):
``reasoning`` (``'all'``, ``'before-last-message'``, ``'none'``: the default) removes
reasoning parts from assistant messages; ``toolCalls`` (``'all'``, ``'before-last-message'``,
``'before-last-N-messages'``, ``'none'``; default none) removes tool-call and tool-result
parts from assistant and tool messages outside the last N messages, except those whose call id
also appears in the last N (so a kept call keeps its result and the other way round; as the
SDK's ``messages.slice(-N)``, an N of at least the count prunes nothing, and 0 keeps every call
id); its
array form ``[{type, tools}]`` prunes only the named tools (here: ``tools``, one entry);
``emptyMessages`` (``'remove'``, the default, or ``'keep'``) removes the messages left empty.

On this project's histories: a tool call is a call line of an assistant message, a tool result
a ``tool`` message (one part, its id the call id); an assistant message without call lines is
string content, which ``pruneMessages`` leaves alone. The histories hold no reasoning parts, so
``reasoning`` changes nothing (assumed; the imports keep no reasoning). A tool result without
an id matches no kept id and is pruned.

At the same budget: ``pruneMessages`` has no trigger and the budget does not change it; the
lineup runs the documentation's example (``reasoning: 'before-last-message'``,
``toolCalls: 'before-last-2-messages'``); whether what is returned fits is reported.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from compactor.model import Request
from compactor.strategies._returned import StrategyResult
from compactor.strategies._spec import Parameter, RegisteredStrategy, Source
from compactor.strategies._tool_uses import CALL_LINE, peer_result

KEY = "vercel-prune"
_BEFORE_LAST = re.compile(r"before-last-(\d+)-messages")
BLANK = "\n\n"


def messages_spared(tool_calls: str) -> int | None:
    """How many last messages a ``toolCalls`` value spares: None for ``'all'``.

    >>> messages_spared("before-last-2-messages"), messages_spared("before-last-message")
    (2, 1)
    """
    if tool_calls == "all":
        return None
    if tool_calls == "before-last-message":
        return 1
    return int(_BEFORE_LAST.fullmatch(tool_calls)[1])  # type: ignore[index]


def prune_messages(
    roles: Sequence[str],
    contents: Sequence[str],
    ids: Sequence[str | None],
    *,
    tool_calls: str = "none",
    tools: Sequence[str] | None = None,
    empty_messages: str = "remove",
) -> dict[int, str]:
    """The messages ``pruneMessages`` returns, by index.

    >>> prune_messages(["user", "assistant", "tool", "assistant"],
    ...     ["hi", "Looking.\\n\\n[tool call ls id=a] {}", "x", "done"], [None, None, "a", None],
    ...     tool_calls="before-last-message")
    {0: 'hi', 1: 'Looking.', 3: 'done'}
    """
    out = dict(enumerate(contents))
    if tool_calls != "none":
        n = messages_spared(tool_calls)
        spared, scanned = _last(len(contents), n)
        kept_ids = {ids[i] for i in scanned if roles[i] == "tool" and ids[i]}
        for i in scanned:
            if roles[i] == "assistant":
                kept_ids.update(m["id"] for m in CALL_LINE.finditer(contents[i]) if m["id"])
        names = _names(roles, contents)
        if tools is not None:  # the other tools' parts are kept, and traced as kept
            kept_ids.update(i for i, name in names.items() if name not in tools)
        for i, role in enumerate(roles):
            if i in spared:
                continue
            if role == "tool" and ids[i] not in kept_ids:
                out[i] = ""
            elif role == "assistant":
                out[i] = _without_calls(contents[i], kept_ids)
    if empty_messages == "remove":
        out = {i: c for i, c in out.items() if c}
    return out


def _last(count: int, n: int | None) -> tuple[range, range]:
    """The messages left alone and the messages whose call ids are kept, as the SDK slices
    them: ``messages.slice(-n)`` is every message when ``n`` is 0 or at least the count
    (JavaScript clamps a start before the first to the first, and -0 is 0), and a message is
    left alone when ``n`` is not 0 and it is among the last ``n``. So ``n`` over the count
    prunes nothing, and ``n`` = 0 prunes only the calls and results without an id.

    >>> _last(5, 2)
    (range(3, 5), range(3, 5))
    >>> _last(2, 5)  # more than there are: every message is among the last
    (range(0, 2), range(0, 2))
    >>> _last(3, 0)  # none left alone, but every call id is kept
    (range(0, 0), range(0, 3))
    """
    if n is None:  # 'all'
        return range(0), range(0)
    last = range(max(count - n, 0), count)
    return (last, last) if n else (range(0), range(count))


def _names(roles: Sequence[str], contents: Sequence[str]) -> dict[str, str]:
    """Call id to tool name, over the whole history (as the SDK's global map)."""
    found: dict[str, str] = {}
    for role, content in zip(roles, contents, strict=True):
        if role == "assistant":
            found.update((m["id"], m["name"]) for m in CALL_LINE.finditer(content) if m["id"])
    return found


def _without_calls(content: str, kept_ids: set[str | None]) -> str:
    """The assistant message without its call lines whose id is not kept; the text pieces and
    kept calls joined as the import joins them (a blank line; a line break between calls)."""
    matches = list(CALL_LINE.finditer(content))
    if not matches or all(m["id"] in kept_ids for m in matches):
        return content
    pieces: list[tuple[bool, str]] = []
    position = 0
    for m in matches:
        text = content[position : m.start()].strip("\n")
        if text:
            pieces.append((False, text))
        if m["id"] in kept_ids:
            pieces.append((True, m[0]))
        position = m.end()
    tail = content[position:].strip("\n")
    if tail:
        pieces.append((False, tail))
    out = ""
    for k, (is_call, text) in enumerate(pieces):
        if k:
            out += "\n" if is_call and pieces[k - 1][0] else BLANK
        out += text
    return out


def _run(
    request: Request, budget: int, params: Mapping[str, Any], given: frozenset[str]
) -> StrategyResult:
    tools = params["tools"]
    out = dict(
        _pruned(
            request.roles,
            request.contents,
            request.ids,
            params["toolCalls"],
            None if tools is None else tuple(tools),
            params["emptyMessages"],
        )
    )
    how = ", ".join(f"{k}: {v!r}" for k, v in params.items() if v is not None)
    return peer_result(KEY, "AI SDK pruneMessages", how, params, request, out, budget)


@functools.lru_cache(maxsize=4)
def _pruned(
    roles: tuple[str, ...],
    contents: tuple[str, ...],
    ids: tuple[str | None, ...],
    tool_calls: str,
    tools: tuple[str, ...] | None,
    empty_messages: str,
) -> Mapping[int, str]:
    """:func:`prune_messages`, kept for the last few histories (keyed on the texts themselves;
    one entry per message returned, its content shared with the history or cut from it): the
    budget does not change what it returns, so a budget move over one history (the explorer's
    slider) need not prune it again. Read-only (a mapping proxy)."""
    return MappingProxyType(
        prune_messages(
            roles,
            contents,
            ids,
            tool_calls=tool_calls,
            tools=tools,
            empty_messages=empty_messages,
        )
    )


_WHICH = ("all", "before-last-message", "none")
STRATEGY = RegisteredStrategy(
    KEY,
    "Vercel AI SDK pruneMessages",
    Source(
        "vercel/ai packages/ai/src/generate-text/prune-messages.ts; ai-sdk.dev reference",
        "https://ai-sdk.dev/docs/reference/ai-sdk-core/prune-messages",
        "AI SDK 5, 2025",
    ),
    (
        Parameter("reasoning", "choice", "none", "reasoning parts removed", choices=_WHICH),
        Parameter(
            "toolCalls",
            "choice",
            "none",
            "tool calls and results removed",
            choices=_WHICH,
            pattern=_BEFORE_LAST.pattern,
        ),
        Parameter("tools", "names", None, "only these tools (the array form)", nullable=True),
        Parameter(
            "emptyMessages", "choice", "remove", "empty messages", choices=("keep", "remove")
        ),
    ),
    _run,
    budget="no trigger: the budget does not change it",
    lineup={"reasoning": "before-last-message", "toolCalls": "before-last-2-messages"},
)
