"""Role-and-content messages: the service request, a bare message list, OpenAI Chat Completions.

The three share one reader, since plain ``{role, content}`` messages are OpenAI messages too:
string or part-list contents, ``null`` content with ``tool_calls``, ``tool`` messages with
``tool_call_id``, the ``developer`` and ``function`` roles, and the request's own ``id``/``pin``.

Their writers: the request is the survivors with the parameters used, the message list the
survivors alone (call lines as text, as the import wrote them); OpenAI's ``messages`` hold an
assistant's calls in ``tool_calls`` (``{"id", "type": "function", "function": {"name",
"arguments"}}``, the arguments a JSON string) with ``content`` null when it has no text, and
each result is a ``tool`` message with ``tool_call_id``, right after the calling message.
"""

from __future__ import annotations

from typing import Any

from compactor.contract import ROLES
from compactor.errors import quoted
from compactor.formats._builder import Builder, Draft, at, describe, tool_call_text, type_of
from compactor.formats._envelope import message_list
from compactor.formats._types import Conversion
from compactor.formats._writing import Compacted

#: Role names of other APIs and what they are read as (each one reported).
ROLE_ALIASES = {
    "developer": "system",
    "function": "tool",
    "human": "user",
    "ai": "assistant",
    "bot": "assistant",
    "model": "assistant",
}
#: Content parts that are not text: (what it is, change kind).
MEDIA = {
    "image_url": ("an image", "image-removed"),
    "image": ("an image", "image-removed"),
    "input_image": ("an image", "image-removed"),
    "input_audio": ("an audio clip", "audio-removed"),
    "audio": ("an audio clip", "audio-removed"),
    "file": ("a file", "file-removed"),
    "input_file": ("a file", "file-removed"),
}
TEXT_PARTS = ("text", "input_text", "output_text")
_READ = {"role", "content", "id", "pin", "tool_calls", "tool_call_id", "function_call", "refusal"}


def convert_request(data: Any) -> Conversion:
    return _convert("request", data)


def convert_messages(data: Any) -> Conversion:
    return _convert("messages", data)


def convert_openai(data: Any) -> Conversion:
    return _convert("openai", data)


def _convert(format: str, data: Any) -> Conversion:
    b = Builder(format)
    items, params = message_list(b, data)
    read(b, items)
    return b.finish(params)


def read(b: Builder, items: list[tuple[str, Any]]) -> None:
    """Read each ``(source, message)`` into drafts, with changes and problems."""
    for source, message in items:
        read_message(b, message, source)


def read_role(b: Builder, message: dict, source: str, aliases: dict[str, str]) -> str | None:
    """The message's role as one of the request's four; a problem (and None) when it has none."""
    where = at(source, "role")
    role = message.get("role")
    if role is None:
        b.problem(f"the message has no role; expected one of {', '.join(ROLES)}", where)
        return None
    if not isinstance(role, str):
        b.problem(f"role must be a string, not {describe(role)}", where)
        return None
    if role in ROLES:
        return role
    mapped = role.lower() if role.lower() in ROLES else aliases.get(role.lower())
    if mapped is None:
        known = ", ".join([*ROLES, *aliases])
        b.problem(f"{quoted(role)} is not a role this import knows; expected one of {known}", where)
    return mapped


def read_message(b: Builder, message: Any, source: str) -> None:
    if not isinstance(message, dict):
        b.problem(f"a message must be an object, not {describe(message)}", source)
        return
    role = read_role(b, message, source, ROLE_ALIASES)
    if role is None:
        return
    draft = b.draft(role, source)
    if role != message["role"]:
        b.note(
            "role-mapped",
            f"{source}: role {quoted(message['role'])} read as {role}",
            at(source, "role"),
            draft,
        )
    read_content(b, draft, message.get("content"), at(source, "content"))
    if isinstance(message.get("refusal"), str) and message["refusal"]:
        draft.text(message["refusal"])
        b.note(
            "refusal-as-text",
            f"{source}: the model's refusal is kept as message text",
            at(source, "refusal"),
            draft,
        )
    _calls(b, draft, message, source)
    _ids(b, draft, message, source)
    for name in message:
        if name not in _READ:
            b.ignore(name, at(source, name))


def read_content(b: Builder, draft: Draft, content: Any, where: str) -> None:
    """A string, a list of content parts, or null (nothing)."""
    if content is None or isinstance(content, str):
        draft.text(content or "")
        return
    if not isinstance(content, list):
        b.problem(f"content must be text, a list of parts or null, not {describe(content)}", where)
        return
    for j, part in enumerate(content):
        part_at = at(where, j)
        if isinstance(part, str):
            draft.text(part)
        elif not isinstance(part, dict):
            b.problem(f"a content part must be an object, not {describe(part)}", part_at)
        elif type_of(part) in TEXT_PARTS or ("type" not in part and "text" in part):
            text = part.get("text")
            if text is not None and not isinstance(text, str):
                b.problem(f"text must be a string, not {describe(text)}", at(part_at, "text"))
            draft.text(text or "")
        elif type_of(part) == "refusal" and isinstance(part.get("refusal"), str):
            draft.text(part["refusal"])
            b.note("refusal-as-text", f"{part_at}: the refusal is kept as text", part_at, draft)
        elif type_of(part) in MEDIA:
            what, kind = MEDIA[part["type"]]
            b.removed(what, part_at, draft, kind)
        else:
            b.removed(_part_name(type_of(part)), part_at, draft, "part-removed")


def _calls(b: Builder, draft: Draft, message: dict, source: str) -> None:
    calls = message.get("tool_calls")
    if calls is not None and not isinstance(calls, list):
        b.problem(f"tool_calls must be a list, not {describe(calls)}", at(source, "tool_calls"))
        calls = None
    for k, call in enumerate(calls or []):
        where = at(source, "tool_calls", k)
        if not isinstance(call, dict):
            b.problem(f"a tool call must be an object, not {describe(call)}", where)
            continue
        function = call.get("function") or call.get("custom")
        if not isinstance(function, dict):
            b.problem("the tool call has no function (an object with name and arguments)", where)
            continue
        call_id = call.get("id") if isinstance(call.get("id"), str) else None
        key = "arguments" if "arguments" in function else "input"
        arguments = function.get(key)
        holder = "function" if isinstance(call.get("function"), dict) else "custom"
        _call(b, draft, function.get("name"), arguments, call_id, where, at(where, holder, key))
    legacy = message.get("function_call")
    if isinstance(legacy, dict):
        where = at(source, "function_call")
        _call(
            b,
            draft,
            legacy.get("name"),
            legacy.get("arguments"),
            None,
            where,
            at(where, "arguments"),
        )
    elif legacy is not None:
        b.problem(f"function_call must be an object, not {describe(legacy)}", source)


def _call(
    b: Builder, draft: Draft, name: Any, arguments: Any, call_id, where: str, arguments_at: str
) -> None:
    if not isinstance(name, str) or not name:
        b.problem("the tool call has no name", where)
        return
    draft.call(tool_call_text(name, arguments, call_id, arguments_at), call_id)
    b.note(
        "tool-call-as-text",
        f"{where}: the call to {name} is written into the message text",
        where,
        draft,
    )


def _ids(b: Builder, draft: Draft, message: dict, source: str) -> None:
    own = message.get("id")
    call_id = message.get("tool_call_id")
    if isinstance(call_id, str) and call_id:
        draft.id = draft.answers = call_id
        b.id_from("tool_call_id")
        if own is not None:
            b.ignore("id", at(source, "id"))
        return
    if call_id is not None:
        b.ignore("tool_call_id", at(source, "tool_call_id"))
    draft.id = read_id(b, own, at(source, "id"), draft)
    pin = message.get("pin")
    if pin is not None and not isinstance(pin, bool):
        b.problem(f"pin must be true or false, not {describe(pin)}", at(source, "pin"))
    draft.pin = pin is True


def read_id(b: Builder, value: Any, where: str, draft: Draft) -> str | None:
    """A message id: a string as it is, a whole number as its digits (reported)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        b.note(
            "id-converted", f"{where}: the number {value} is kept as the id {value}", where, draft
        )
        return str(value)
    b.problem(f"id must be a string, not {describe(value)}", where)
    return None


def _part_name(kind: str | None) -> str:
    return f"a part of type {quoted(kind)}" if kind else "a part without a type"


def write_request(compacted: Compacted) -> dict[str, Any]:
    return {"messages": compacted.messages, **compacted.params}


def write_messages(compacted: Compacted) -> list[dict[str, Any]]:
    return compacted.messages


def write_openai(compacted: Compacted) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for turn in compacted.turns:
        if turn.role == "tool":
            out.append({"role": "tool", "tool_call_id": turn.answers, "content": turn.text})
        elif turn.role == "assistant" and turn.calls:
            out.append(
                {
                    "role": "assistant",
                    "content": turn.text or None,
                    "tool_calls": [
                        {
                            "id": call.id,
                            "type": "function",
                            "function": {"name": call.name, "arguments": call.arguments_text},
                        }
                        for call in turn.calls
                    ],
                }
            )
        else:
            out.append({"role": turn.role, "content": turn.text})
    return out
