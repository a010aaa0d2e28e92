"""OpenAI Responses API input items (what the Agents SDK's sessions hold) in and out of
``shrink``: ``{"role", "content"}`` messages, ``message`` items with text parts,
``function_call`` and ``function_call_output`` items, ``reasoning`` items.

They are read as the Codex import reads the same items (:mod:`compactor.formats.codex`: calls
become call lines of the assistant message before them, outputs tool messages with the
``call_id``, reasoning items removed and reported) and written back from the export's Chat
Completions messages: a text message as ``{"role", "content"}``, each call as a
``function_call`` item, each result as a ``function_call_output`` item right after its call.
"""

from __future__ import annotations

from typing import Any

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


def is_responses(messages: Any) -> bool:
    """Whether ``messages`` is a list of Responses input items (one of them typed as one)."""
    return isinstance(messages, list) and any(
        isinstance(m, dict) and m.get("type") in ITEM_TYPES for m in messages
    )


def as_log(items: list[Any]) -> list[Any]:
    """The items as the Codex import reads bare items: ``{"role", "content"}`` messages (the
    easy form, without ``type``) typed as ``message`` items."""
    return [
        {"type": "message", **item} if isinstance(item, dict) and "type" not in item else item
        for item in items
    ]


def from_chat(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Chat Completions messages (the export's ``openai``) as Responses input items."""
    out: list[dict[str, Any]] = []
    for message in messages:
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
