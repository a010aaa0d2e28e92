"""LangChain messages in and out of ``shrink``: message objects (``HumanMessage``, ``AIMessage``
with ``tool_calls``, ``ToolMessage``, ...) or their serialised dicts (``messages_to_dict``).

They go in as OpenAI Chat Completions messages (``convert_to_openai_messages``: tool calls and
``tool_call_id`` kept) and come back as LangChain messages (``convert_to_messages``), each with
the ``id`` of the input message it comes from, so a LangGraph state can tell them apart.
langchain-core is imported only here, when LangChain messages are given.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from compactor.integrations.extras import IntegrationUnavailable

#: The ``type`` of a serialised LangChain message (``{"type": ..., "data": {...}}``).
SERIALISED_TYPES = frozenset({"human", "ai", "system", "tool", "chat", "function", "remove"})
_INDEX = re.compile(r"\[(\d+)\]")


def is_langchain(messages: Any) -> bool:
    """Whether ``messages`` is a list of LangChain message objects or serialised dicts."""
    if not isinstance(messages, list) or not messages:
        return False
    first = messages[0]
    if isinstance(first, dict):
        return first.get("type") in SERIALISED_TYPES and isinstance(first.get("data"), dict)
    return type(first).__module__.startswith("langchain_core.messages")


def _core() -> Any:
    try:
        from langchain_core import messages
        from langchain_core.messages import utils
    except ImportError:
        raise IntegrationUnavailable("LangChain messages", "langchain") from None
    return messages, utils


def as_objects(messages: list[Any]) -> list[Any]:
    """LangChain message objects, from objects or serialised dicts."""
    core, _ = _core()
    if isinstance(messages[0], dict):
        return list(core.messages_from_dict(messages))
    return messages


def to_openai(messages: Sequence[Any]) -> list[dict[str, Any]]:
    """The messages as OpenAI Chat Completions messages, one for each."""
    _, utils = _core()
    out = utils.convert_to_openai_messages(list(messages))
    if len(out) != len(messages):  # pragma: no cover - langchain-core converts one for one
        raise ValueError("convert_to_openai_messages did not return one message for each")
    return out


def from_openai(
    exported: list[dict[str, Any]],
    origins: Sequence[int | None],
    originals: Sequence[Any],
    sent: Sequence[dict[str, Any]],
    serialised: bool,
) -> list[Any]:
    """The exported OpenAI messages as LangChain messages. ``origins[k]`` is the input position
    of exported message ``k`` (None for a message the export made); ``sent`` is the input as
    OpenAI messages. A message that comes back as it went in is the input's own object (its
    name, metadata and usage kept); a changed one is a new message with the input's ``id``."""
    core, utils = _core()
    out = []
    for message, origin in zip(exported, origins, strict=True):
        if origin is not None and _same(message, sent[origin]):
            out.append(originals[origin])
            continue
        (made,) = utils.convert_to_messages([message])
        source_id = getattr(originals[origin], "id", None) if origin is not None else None
        if source_id is not None:
            made.id = source_id
        out.append(made)
    return list(core.messages_to_dict(out)) if serialised else out


def _same(exported: dict[str, Any], original: dict[str, Any]) -> bool:
    """Whether an exported message says what the original said: role, text, calls, result."""
    keys = ("role", "tool_call_id")
    if any(exported.get(k) != original.get(k) for k in keys):
        return False
    if (exported.get("content") or "") != _text(original.get("content")):
        return False
    return _calls(exported) == _calls(original)


def _text(content: Any) -> str:
    if isinstance(content, list):  # text blocks, joined as the import joins them
        return "\n\n".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content or ""


def _calls(message: dict[str, Any]) -> list[tuple[Any, ...]]:
    out = []
    for call in message.get("tool_calls") or []:
        function = call.get("function", {})
        try:
            arguments = json.loads(function.get("arguments") or "null")
        except ValueError:
            arguments = function.get("arguments")
        out.append((call.get("id"), function.get("name"), arguments))
    return out


def input_position(source: str) -> int | None:
    """The input position a conversion source names (``[4]``, ``messages[4].content``)."""
    found = _INDEX.search(source)
    return int(found[1]) if found else None
