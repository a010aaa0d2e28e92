"""The trim strategy of seeds/003, registered as drop-oldest: keep the last N, drop tool parts,
drop the oldest messages until a token estimate fits (the seed's own names, ``trim_context`` and
its camelCase options, are kept here).

Request: ``messages`` plus optional ``keepLastMessages``, ``dropToolParts`` (default false) and
``maxTokensEstimate``. ``keepLastMessages`` and ``dropToolParts`` apply first; then the oldest
remaining messages are dropped until the token estimate fits ``maxTokensEstimate``. A request
with only ``messages`` returns them unchanged, with their ``stats``: a cheap size probe.

Messages may be plain ``{role, content}`` (as memory-compact takes them, ``id`` and ``pin``
allowed), AI SDK v4 messages (``content`` a string or a list of parts, ``role: "tool"`` for tool
results) or AI SDK v5 UI messages (``parts``). A tool part is a v4 ``tool-call`` or
``tool-result`` part, a v5 ``tool-<name>`` or ``dynamic-tool`` part, or an OpenAI ``tool_calls``
entry; a tool message is one with role ``tool``.

Token estimate: the rule of thumb of one token per four characters, per message,
``ceil(characters / 4)``, where a message's characters are its text (a string content, or the
``text`` of its text and reasoning parts) plus the compact JSON of its tool parts, and the
request's estimate is the sum over its messages. It is a heuristic, not a tokenizer count, and it
differs from Algolia's unpublished one (61 tokens for its five-message example; ours gives 54).
``trim_context(request, count_tokens=...)`` counts with any per-message counter instead, such as
:func:`compactor.analyses.tokens.trim_token_counter` (a real tokenizer over :func:`message_text`);
the stats keep their names.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from typing import Any

from compactor.errors import InvalidRequest
from compactor.input import Report, Schema, check_request, finish, json_value_problems
from compactor.text import CHARS_PER_TOKEN, DEFAULT_ENCODING, count_tokens, tokenizer

#: The strategy's name (its registry key and its replay name): it drops the oldest messages
#: until the estimate fits. It was "seed-trim" in the registry and "trim" in the replay; both
#: old names still work (:data:`compactor.strategies._registry.OLD_NAMES`).
DROP_OLDEST = "drop-oldest"

TRIM_REQUEST_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["messages"],
    "additionalProperties": False,
    "properties": {
        "messages": {
            "type": "array",
            "description": "The conversation, oldest first: {role, content} or AI SDK messages.",
            "items": {
                "type": "object",
                "required": ["role"],
                "properties": {
                    "role": {"type": "string", "minLength": 1},
                    "content": {"type": ["string", "array", "null"]},
                    "parts": {"type": "array", "items": {"type": "object"}},
                    "tool_calls": {"type": "array"},
                },
                "anyOf": [{"required": ["content"]}, {"required": ["parts"]}],
            },
        },
        "keepLastMessages": {
            "type": "integer",
            "minimum": 0,
            "description": "Keep only the last N messages.",
        },
        "dropToolParts": {
            "type": "boolean",
            "default": False,
            "description": "Remove tool calls and tool results from the messages kept.",
        },
        "maxTokensEstimate": {
            "type": "integer",
            "minimum": 1,
            "description": "Drop the oldest messages until the token estimate fits this budget.",
        },
    },
}
_MESSAGES = TRIM_REQUEST_SCHEMA["properties"]["messages"]
# A failed anyOf says nothing readable: content-or-parts is checked by _missing_text instead.
_SCHEMA = Schema(
    {
        **TRIM_REQUEST_SCHEMA,
        "properties": {
            **TRIM_REQUEST_SCHEMA["properties"],
            "messages": {
                **_MESSAGES,
                "items": {k: v for k, v in _MESSAGES["items"].items() if k != "anyOf"},
            },
        },
    }
)
_V4_TOOL_PARTS = {"tool-call", "tool-result", "tool_use", "tool_result"}
#: v5 parts that mark a step and hold nothing the model reads.
_EMPTY_PARTS = {"step-start"}


def estimate_message_tokens(message: dict[str, Any]) -> int:
    """The token estimate of one message: ``ceil(characters / 4)``."""
    return math.ceil(message_chars(message) / CHARS_PER_TOKEN)


def message_chars(message: dict[str, Any]) -> int:
    """The characters the estimate counts: text, plus the compact JSON of tool parts."""
    chars = 0
    content = message.get("content")
    if isinstance(content, str):
        chars += len(content)
    for part in _parts(message):
        if is_tool_part(part):
            chars += len(json.dumps(part, ensure_ascii=False, separators=(",", ":")))
        elif isinstance(part.get("text"), str):
            chars += len(part["text"])
    for call in message.get("tool_calls") or []:
        chars += len(json.dumps(call, ensure_ascii=False, separators=(",", ":")))
    return chars


def message_text(message: dict[str, Any]) -> str:
    """What :func:`message_chars` counts, as one text (the pieces joined by newlines)."""
    pieces = []
    content = message.get("content")
    if isinstance(content, str):
        pieces.append(content)
    for part in _parts(message):
        if is_tool_part(part):
            pieces.append(json.dumps(part, ensure_ascii=False, separators=(",", ":")))
        elif isinstance(part.get("text"), str):
            pieces.append(part["text"])
    for call in message.get("tool_calls") or []:
        pieces.append(json.dumps(call, ensure_ascii=False, separators=(",", ":")))
    return "\n".join(pieces)


def is_tool_part(part: dict[str, Any]) -> bool:
    kind = str(part.get("type", ""))
    return kind in _V4_TOOL_PARTS or kind.startswith("tool-") or kind == "dynamic-tool"


def is_tool_message(message: dict[str, Any]) -> bool:
    return message.get("role") == "tool"


def trim_context(
    request: dict[str, Any], count_tokens: Callable[[dict[str, Any]], int] | None = None
) -> dict[str, Any]:
    """Trim a conversation as seeds/003 describes; returns ``{"messages", "stats"}``.

    ``count_tokens`` counts one message's tokens for ``maxTokensEstimate`` and the stats
    (default :func:`estimate_message_tokens`, the characters / 4 estimate).

    >>> shoes = [{"role": "user", "content": "I need running shoes for trail races."},
    ...          {"role": "assistant", "content": "Cushioning or ground feel?"},
    ...          {"role": "user", "content": "Cushioning."}]
    >>> out = trim_context({"messages": shoes, "keepLastMessages": 2})
    >>> [m["content"] for m in out["messages"]], out["stats"]["messagesDropped"]
    (['Cushioning or ground feel?', 'Cushioning.'], 1)
    """
    errors = trim_problems(request)
    if errors:
        raise InvalidRequest(errors)
    count = count_tokens or estimate_message_tokens
    messages: list[dict[str, Any]] = list(request["messages"])
    before = _tokens(messages, count)
    count_before = len(messages)

    keep_last = request.get("keepLastMessages")
    if keep_last is not None:
        # JSON Schema lets 2.0 be the integer 2; more than there are keeps them all.
        messages = messages[max(0, len(messages) - int(keep_last)) :]
    if request.get("dropToolParts", False):
        messages = [m for m in map(_without_tool_parts, messages) if m is not None]
    budget = request.get("maxTokensEstimate")
    if budget is not None:
        tokens = [count(m) for m in messages]
        total = sum(tokens)
        start = 0
        while start < len(messages) and total > budget:
            total -= tokens[start]
            start += 1
        messages = messages[start:]

    return {
        "messages": messages,
        "stats": {
            "messagesBefore": count_before,
            "messagesAfter": len(messages),
            "messagesDropped": count_before - len(messages),
            "tokensBeforeEstimate": before,
            "tokensAfterEstimate": _tokens(messages, count),
        },
    }


def _tokens(
    messages: Iterable[dict[str, Any]],
    count: Callable[[dict[str, Any]], int] = estimate_message_tokens,
) -> int:
    return sum(count(m) for m in messages)


def _parts(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message.get("content")
    parts = message.get("parts")
    found = content if isinstance(content, list) else parts if isinstance(parts, list) else []
    return [p for p in found if isinstance(p, dict)]


def _without_tool_parts(message: dict[str, Any]) -> dict[str, Any] | None:
    """The message without tool parts; None for a tool message, or for one that had tool parts
    and has nothing else left (a message without tool parts is kept as it is)."""
    if is_tool_message(message):
        return None
    out = {k: v for k, v in message.items() if k != "tool_calls"}
    for key in ("content", "parts"):
        if isinstance(message.get(key), list):
            out[key] = [p for p in message[key] if not (isinstance(p, dict) and is_tool_part(p))]
    if out == message:
        return message
    has_content = (isinstance(out.get("content"), str) and out["content"] != "") or any(
        not is_tool_part(p) and p.get("type") not in _EMPTY_PARTS for p in _parts(out)
    )
    return out if has_content else None


def trim_problems(request: Any) -> list:
    """Every problem of a trim request, sorted by path (at most MAX_PROBLEMS listed).

    Beyond the schema: each message needs ``content`` or ``parts``, and since messages are
    echoed back, everything in them must be JSON that can be written back (no NaN, no unpaired
    surrogate, at most MAX_DEPTH levels deep, and so on).
    """
    schema, texts, values = Report(), Report(), Report()
    check_request(_SCHEMA, request, schema)
    messages = request.get("messages") if isinstance(request, dict) else None
    if isinstance(messages, list):
        textless = [
            i
            for i, m in enumerate(messages)
            if isinstance(m, dict) and "content" not in m and "parts" not in m
        ]
        for i in textless[: texts.limit]:
            texts.add(("messages", i), "needs content or parts; it has neither")
        texts.more += max(0, len(textless) - texts.limit)
        json_value_problems(messages, values, ("messages",), level=2)
    return finish([schema, texts, values])


def trim_token_counter(encoding: str = DEFAULT_ENCODING) -> Callable[[dict[str, Any]], int]:
    """A ``count_tokens`` for :func:`trim_context`: the real
    tokens of what the estimate counts (text, plus the compact JSON of tool parts)."""
    tokenizer(encoding)  # fail now, not on the first message, when the extra is missing
    return lambda message: count_tokens(message_text(message), encoding)
