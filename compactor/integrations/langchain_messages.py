"""LangChain messages in and out of ``shrink``: message objects (``HumanMessage``, ``AIMessage``
with ``tool_calls``, ``ToolMessage``, ...) or their serialised dicts (``messages_to_dict``).

They go in as OpenAI Chat Completions messages (``convert_to_openai_messages``: tool calls and
``tool_call_id`` kept) and come back as LangChain messages (``convert_to_messages``), each with
the ``id`` of the input message it comes from, so a LangGraph state can tell them apart.
langchain-core is imported only here, when LangChain messages are given.
"""

from __future__ import annotations

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
    serialised: bool,
) -> list[Any]:
    """The exported OpenAI messages as LangChain messages: ``origins[k]`` is the input position
    of exported message ``k`` (None for a message the export made), whose id it takes."""
    core, utils = _core()
    out = []
    for message, origin in zip(utils.convert_to_messages(exported), origins, strict=True):
        source_id = getattr(originals[origin], "id", None) if origin is not None else None
        if source_id is not None:
            message.id = source_id
        out.append(message)
    return list(core.messages_to_dict(out)) if serialised else out


def input_position(source: str) -> int | None:
    """The input position a conversion source names (``[4]``, ``messages[4].content``)."""
    found = _INDEX.search(source)
    return int(found[1]) if found else None
