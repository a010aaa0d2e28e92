"""LangChain messages: message objects (``HumanMessage``, ``AIMessage`` with ``tool_calls``,
``ToolMessage``, ...) or their serialised dicts (``messages_to_dict``: ``{"type", "data"}``).

The dicts are read here, without langchain-core: ``human``, ``ai``, ``system``, ``tool`` (and
``chat`` with its own role) are the request's roles, ``data.tool_calls`` (``{"name", "args",
"id"}``) call lines, a tool message's ``tool_call_id`` its id; LangChain's own fields with a
value (``response_metadata``, ``usage_metadata``, ...) are left out and reported. Objects are
made dicts first, and the writer makes messages again (``convert_to_messages``), each with the
``id`` of the input message it comes from: both need langchain-core (the langchain extra), which
is imported only then.
"""

from __future__ import annotations

import json
import re
from typing import Any

from compactor.errors import FormatError, IntegrationUnavailable, Problem, excerpt, quoted
from compactor.formats import _chat as chat
from compactor.formats._builder import Builder, at, describe, type_of
from compactor.formats._types import Conversion
from compactor.formats._writing import Compacted

NAME = "langchain"
#: A serialised message's ``type`` and the role it is read as (``chat`` messages name their own).
TYPES = {
    "human": "user",
    "ai": "assistant",
    "system": "system",
    "tool": "tool",
    "function": "tool",
    "chat": None,
    "HumanMessageChunk": "user",
    "AIMessageChunk": "assistant",
    "SystemMessageChunk": "system",
    "ToolMessageChunk": "tool",
    "FunctionMessageChunk": "tool",
    "ChatMessageChunk": None,
}
#: The fields of ``data`` a request holds (``type`` repeats the message's own).
_READ = frozenset({"content", "tool_calls", "tool_call_id", "id", "role", "type"})
_INDEX = re.compile(r"\[(\d+)\]")


def is_langchain(data: Any) -> bool:
    """Whether ``data`` is a list of LangChain message objects or serialised dicts."""
    if not isinstance(data, list) or not data:
        return False
    first = data[0]
    if isinstance(first, dict):
        kind = first.get("type")
        return isinstance(kind, str) and kind in TYPES and isinstance(first.get("data"), dict)
    return type(first).__module__.startswith("langchain_core.messages")


def _core() -> Any:
    try:
        from langchain_core import messages
        from langchain_core.messages import utils
    except ImportError:
        raise IntegrationUnavailable("LangChain messages", "langchain") from None
    return messages, utils


def convert(data: Any) -> Conversion:
    if not isinstance(data, list) or not data:
        found = "an empty list" if data == [] else describe(data)
        raise FormatError(
            [Problem(f"expected a list of LangChain messages, not {found}", path="$")]
        )
    b = Builder(NAME)
    for i, message in enumerate(data):
        where = at("", i)
        _read(b, message if isinstance(message, dict) else _as_dict(message, where), where)
    return b.finish()


def _as_dict(message: Any, where: str) -> Any:
    """A message object as its serialised dict; anything else as it is (the reader names it)."""
    core, _ = _core()
    if not isinstance(message, core.BaseMessage):
        return message
    return _langchain_call(core.message_to_dict, message, where)


def _read(b: Builder, message: Any, source: str) -> None:
    if not isinstance(message, dict) or not isinstance(message.get("data"), dict):
        b.problem(
            f"a LangChain message is an object {{type, data}}, not {describe(message)}", source
        )
        return
    kind, data, where = message.get("type"), message["data"], at(source, "data")
    if not isinstance(kind, str) or kind not in TYPES:
        known = ", ".join(TYPES)
        b.problem(
            f"{quoted(kind)} is not a LangChain message type; expected one of {known}",
            at(source, "type"),
        )
        return
    role = TYPES[kind]
    if role is not None and role != kind:
        b.renamed(kind, role, source)
    chat.read_message(b, _as_chat(data, role), where)
    for name, value in data.items():
        if name not in _READ and value not in (None, "", [], {}):
            b.ignore(name, at(where, name))
    for name in message:
        if name not in ("type", "data"):
            b.ignore(name, at(source, name))


def _as_chat(data: dict[str, Any], role: str | None) -> dict[str, Any]:
    """The message's data as a Chat Completions message, for the chat reader."""
    calls = data.get("tool_calls")
    message = {
        "role": role if role is not None else data.get("role"),
        "content": data.get("content"),
    }
    if isinstance(calls, list) and calls:
        message["tool_calls"] = [_openai_call(call) for call in calls]
        ids = {call.get("id") for call in calls if isinstance(call, dict)}
        message["content"] = _without_calls(message["content"], ids)
    elif calls not in (None, []):
        message["tool_calls"] = calls  # the chat reader names what is wrong with it
    for name in ("tool_call_id", "id"):
        if data.get(name) is not None:
            message[name] = data[name]
    return message


def _openai_call(call: Any) -> Any:
    if not isinstance(call, dict):
        return call
    function = {"name": call.get("name"), "arguments": call.get("args")}
    return {"id": call.get("id"), "type": "function", "function": function}


def _without_calls(content: Any, ids: set[Any]) -> Any:
    """A content list without the ``tool_use`` blocks that ``tool_calls`` holds again (an
    Anthropic model's message keeps both): the call is read once, from ``tool_calls``."""
    if not isinstance(content, list):
        return content
    return [p for p in content if not (type_of(p) == "tool_use" and p.get("id") in ids)]


def write(compacted: Compacted) -> list[Any]:
    """The compacted conversation as LangChain messages: the input's own message where one
    comes back as it went in (its name, metadata and usage kept), else a new message with the
    input's ``id``. Objects when the input was objects, else serialised dicts."""
    core, utils = _core()
    originals = _objects(core, compacted.source)
    sent = _as_openai(utils, originals) if originals else []
    where = [input_position(s) for s in compacted.sources] if originals else []
    out = []
    for message, turn in zip(chat.write_openai(compacted), compacted.turns, strict=True):
        origin = where[turn.index] if originals and not turn.restored else None
        if origin is not None and _same(message, sent[origin]):
            out.append(originals[origin])
            continue
        (made,) = utils.convert_to_messages([message])
        own_id = getattr(originals[origin], "id", None) if origin is not None else None
        if own_id is None and not originals and turn.role != "tool":
            own_id = turn.id  # the input's id, as the import kept it
        if own_id is not None:
            made.id = own_id
        out.append(made)
    if originals and not isinstance(compacted.source[0], dict):
        return out  # objects in, objects out
    return list(core.messages_to_dict(out))


def _objects(core: Any, source: Any) -> list[Any]:
    """The input's messages as objects, when the conversation is written back in its own
    format; else none. A serialised message LangChain cannot make again (a field the import
    leaves out, of a type LangChain refuses) is a FormatError at its position."""
    if not is_langchain(source):
        return []
    return [
        _langchain_call(core.messages_from_dict, [m], at("", i))[0] if isinstance(m, dict) else m
        for i, m in enumerate(source)
    ]


def _as_openai(utils: Any, originals: list[Any]) -> list[dict[str, Any]]:
    """The input's messages as LangChain writes them for OpenAI (to compare with the export),
    one by one so that one it cannot write is named by its position."""
    return [
        _langchain_call(utils.convert_to_openai_messages, m, at("", i))
        for i, m in enumerate(originals)
    ]


def _langchain_call(call: Any, value: Any, where: str) -> Any:
    """``call(value)``, with any error langchain-core raises on a message it cannot read (its
    ValueError, pydantic's ValidationError, or a TypeError or AttributeError from a field of
    the wrong type) as a :class:`FormatError` at ``where``."""
    try:
        return call(value)
    except Exception as error:  # a third party's errors on data it refuses: named, not raised
        raise FormatError(
            [Problem(f"LangChain cannot read the message: {_reason(error)}", path=where)]
        ) from None


def _reason(error: Exception) -> str:
    """One line of what LangChain (or pydantic under it) said was wrong."""
    details = getattr(error, "errors", None)
    if callable(details):  # pydantic: the field and the message of the first error
        try:
            first = details()[0]
            field = ".".join(str(part) for part in first.get("loc", ()))
            return f"{field}: {first.get('msg')}" if field else str(first.get("msg"))
        except (TypeError, IndexError, AttributeError, KeyError):
            pass
    lines = str(error).strip().splitlines()
    return excerpt(lines[0], 200) if lines else type(error).__name__


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
    """The input position a conversion source names (``[4]``, ``[4].data``)."""
    found = _INDEX.search(source)
    return int(found[1]) if found else None
