"""The tool uses of a history as the import writes them: a call is a line
``[tool call NAME id=ID] ARGUMENTS`` of an assistant message, its result a ``tool`` message whose
``id`` is the call's id. The peers' strategies clear, mask or prune these.

The call line is :mod:`compactor.text._call_line`'s, the one the import writes and the export
reads back.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from compactor.model import Request
from compactor.strategies._returned import Span, StrategyResult, strategy_result
from compactor.text import CALL_LINE, CHARS_PER_TOKEN, call_line, count_tokens

#: What a cleared tool input becomes: no arguments, as LangChain's ``args = {}``.
CLEARED_INPUT = "{}"


@dataclass(frozen=True)
class ToolUse:
    """One tool result and the call that asked for it."""

    result: int  # index of the tool message
    call: int | None  # index of the assistant message with the call (None: none found)
    name: str | None  # the tool's name, from the call line (None: no call line names it)
    id: str | None  # the call id


def tool_uses(
    roles: Sequence[str], contents: Sequence[str], ids: Sequence[str | None]
) -> list[ToolUse]:
    """Every tool message, oldest first, with its call: the call line with its id in an earlier
    assistant message, else (no id, or no such line) the nearest earlier assistant message
    with only tool messages in between, its tool name then unknown.

    The lineup asks this of one history several times (the clearing peers, OpenAI's
    truncation): the last few histories' answers are kept (keyed on the texts themselves)."""
    return list(_tool_uses(tuple(roles), tuple(contents), tuple(ids)))


@functools.lru_cache(maxsize=4)
def _tool_uses(
    roles: tuple[str, ...], contents: tuple[str, ...], ids: tuple[str | None, ...]
) -> tuple[ToolUse, ...]:
    by_id: dict[str, tuple[int, str]] = {}
    uses = []
    caller: int | None = None
    for i, (role, content) in enumerate(zip(roles, contents, strict=True)):
        if role == "assistant":
            caller = i
            for match in CALL_LINE.finditer(content):
                if match["id"]:
                    by_id.setdefault(match["id"], (i, match["name"]))
        elif role == "tool":
            found = by_id.get(ids[i] or "")
            if found:
                uses.append(ToolUse(i, found[0], found[1], ids[i]))
            else:
                uses.append(ToolUse(i, caller, None, ids[i]))
        else:
            caller = None
    return tuple(uses)


def clear_input(content: str, call_id: str | None) -> str:
    """``content`` with the arguments of the call line ``call_id`` cleared (``{}``)."""
    if call_id is None:
        return content

    def cleared(match: re.Match[str]) -> str:
        if match["id"] != call_id:
            return match[0]
        return call_line(match["name"], call_id, CLEARED_INPUT)

    return CALL_LINE.sub(cleared, content)


def tokens(text: str, encoding: str | None = None) -> int:
    """One message's tokens: ``ceil(characters / 4)``, or counted with ``encoding``."""
    if encoding is None:
        return math.ceil(len(text) / CHARS_PER_TOKEN)
    return count_tokens(text, encoding)


def total_tokens(contents: Sequence[str], encoding: str | None = None) -> int:
    return sum(tokens(c, encoding) for c in contents)


def budget_tokens(budget_chars: int) -> int:
    """The character budget in tokens under the estimate: ``ceil(budget_chars / 4)``."""
    return math.ceil(budget_chars / CHARS_PER_TOKEN)


def verbatim_spans(original: str, returned: str) -> tuple[Span, ...]:
    """The spans of an assistant message ``original`` that ``returned`` still holds verbatim,
    after a peer cleared some of its calls' inputs or pruned some of its call lines: the
    message is cut into its text pieces, call headers and call arguments, and each piece
    (line breaks at its ends aside) found in ``returned``, in order, is a span.

    >>> verbatim_spans("Look.\\n[tool call ls id=a] {'p': 1}", "Look.\\n[tool call ls id=a] {}")
    ((0, 5), (6, 26))
    """
    pieces: list[Span] = []
    position = 0
    for match in CALL_LINE.finditer(original):
        pieces.append((position, match.start()))
        args = match.start("args") if match["args"] is not None else match.end()
        pieces += [(match.start(), args), (args, match.end())]
        position = match.end()
    pieces.append((position, len(original)))
    out: list[Span] = []
    at = 0
    for start, end in pieces:
        text = original[start:end]
        inner = text.strip("\n")
        if not inner.strip():
            continue
        start += len(text) - len(text.lstrip("\n"))
        found = returned.find(inner, at)
        if found < 0:
            continue
        out.append((start, start + len(inner)))
        at = found + len(inner)
    return tuple(out)


def peer_result(
    key: str,
    name: str,
    how: str,
    parameters: Mapping[str, object],
    request: Request,
    returned: Mapping[int, str],
    budget_chars: int,
) -> StrategyResult:
    """The result of a peer's strategy, which may replace content with placeholders: a
    replaced tool result holds nothing of its input, a replaced assistant message the pieces
    :func:`verbatim_spans` finds."""
    spans = {
        i: verbatim_spans(request.contents[i], out)
        for i, out in returned.items()
        if request.roles[i] == "assistant" and not request.contents[i].startswith(out)
    }
    return strategy_result(
        key,
        name,
        how,
        parameters,
        request.roles,
        request.contents,
        returned,
        budget_chars,
        ids=[m.id for m in request.messages],
        replaces=True,
        spans=spans,
    )
