"""OpenAI Responses API input items (what the Agents SDK's sessions hold): ``{"role",
"content"}`` messages, ``message`` items with text parts, ``function_call`` and
``function_call_output`` items, ``reasoning`` items, and the items of OpenAI's hosted tools
(``web_search_call``, ``file_search_call``, ``code_interpreter_call``, ...).

They are read as the Codex import reads the same items (:mod:`compactor.formats._codex`: calls
become call lines of the assistant message before them, outputs tool messages with the
``call_id``, a hosted tool's item, which carries its own result, an assistant message holding
it, reasoning items removed and reported) and written from the Chat Completions messages the
OpenAI writer makes: a text message as ``{"role", "content"}``, each call as a
``function_call`` item, each result as a ``function_call_output`` item right after its call, and
a hosted tool's message as its item again (one a trim cut is dropped, with a note: the item is
sent whole or not at all).
"""

from __future__ import annotations

from typing import Any

from compactor.errors import FormatError, Problem
from compactor.formats import _chat as chat
from compactor.formats import _codex as codex
from compactor.formats._builder import at, describe
from compactor.formats._types import Conversion
from compactor.formats._writing import Compacted

NAME = "responses"
#: Item types that tell a list of Responses items from Chat Completions messages.
ITEM_TYPES = frozenset(
    {
        "message",
        "function_call",
        "function_call_output",
        "reasoning",
        "custom_tool_call",
        "custom_tool_call_output",
        *codex.HOSTED,
    }
)


def is_responses(data: Any) -> bool:
    """Whether ``data`` is a list of Responses input items (one of them typed as one)."""
    return isinstance(data, list) and any(
        isinstance(m, dict) and isinstance(m.get("type"), str) and m["type"] in ITEM_TYPES
        for m in data
    )


def convert(data: Any) -> Conversion:
    if not isinstance(data, list) or not data:
        found = "an empty list" if data == [] else describe(data)
        raise FormatError([Problem(f"expected a list of Responses items, not {found}", path="$")])
    return codex.convert_items([(at("", i), _typed(item)) for i, item in enumerate(data)], NAME)


def _typed(item: Any) -> Any:
    """The easy form of a message, ``{"role", "content"}`` without a ``type``, as a ``message``
    item (the form the Codex import reads)."""
    return {"type": "message", **item} if isinstance(item, dict) and "type" not in item else item


def write(compacted: Compacted) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    messages = chat.write_openai(compacted)
    for message, turn in zip(messages, compacted.turns, strict=True):
        role = message["role"]
        content = message.get("content") or ""
        hosted = codex.hosted_kind(content) if role == "assistant" else None
        if hosted and not message.get("tool_calls"):
            item = codex.hosted_item(content)
            if item is not None:
                out.append(item)
            else:
                compacted.notes.append(
                    f"#{turn.index}: dropped the {hosted} item: a trim cut it, and a hosted "
                    "tool's item is sent whole or not at all"
                )
            continue
        if role == "tool":
            out.append(
                {
                    "type": "function_call_output",
                    "call_id": message["tool_call_id"],
                    "output": message["content"],
                }
            )
            continue
        if message.get("content") or not message.get("tool_calls"):
            out.append({"role": role, "content": message.get("content") or ""})
        for call in message.get("tool_calls", []):
            out.append(
                {
                    "type": "function_call",
                    "call_id": call["id"],
                    "name": call["function"]["name"],
                    "arguments": call["function"]["arguments"],
                }
            )
    return out
