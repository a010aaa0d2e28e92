"""OpenAI Responses API input items (what the Agents SDK's sessions hold): ``{"role",
"content"}`` messages, ``message`` items with text parts, ``function_call`` and
``function_call_output`` items, ``reasoning`` items.

They are read as the Codex import reads the same items (:mod:`compactor.formats._codex`: calls
become call lines of the assistant message before them, outputs tool messages with the
``call_id``, reasoning items removed and reported) and written from the Chat Completions
messages the OpenAI writer makes: a text message as ``{"role", "content"}``, each call as a
``function_call`` item, each result as a ``function_call_output`` item right after its call.
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
    for message in chat.write_openai(compacted):
        role = message["role"]
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
