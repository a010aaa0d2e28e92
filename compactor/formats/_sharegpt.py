"""ShareGPT: ``{"conversations": [{"from": "human" | "gpt" | ..., "value": "..."}]}``.

Written with ``function_call`` turns (``{"name", "arguments"}`` as JSON) and ``observation``
turns for results.
"""

from __future__ import annotations

import json
from typing import Any

from compactor.errors import FormatError, Problem, UnreadableJSON, quoted
from compactor.formats._builder import Builder, at, describe, json_of, tool_call_text
from compactor.formats._envelope import message_list
from compactor.formats._types import Conversion
from compactor.formats._writing import Compacted

#: ShareGPT speaker names (``from``) and the role each is read as.
SPEAKERS = {
    "system": "system",
    "human": "user",
    "user": "user",
    "gpt": "assistant",
    "assistant": "assistant",
    "chatgpt": "assistant",
    "bard": "assistant",
    "bing": "assistant",
    "model": "assistant",
    "function_call": "assistant",
    "tool": "tool",
    "observation": "tool",
    "function_response": "tool",
    "function": "tool",
    "ipython": "tool",
}


def convert(data: Any) -> Conversion:
    b = Builder("sharegpt")
    record, base = _record(data)
    if record is None:
        items, params = message_list(b, data)
    else:
        conversations = record.get("conversations")
        where = at(base, "conversations")
        if not isinstance(conversations, list):
            raise FormatError(
                [Problem(f"must be a list of turns, not {describe(conversations)}", path=where)]
            )
        params = b.parameters(record, base, ("conversations", "system"))
        items = [(at(where, i), turn) for i, turn in enumerate(conversations)]
        system = record.get("system")
        if isinstance(system, str) and system:
            b.draft("system", at(base, "system")).text(system)
            b.note(
                "system-as-message",
                f"{at(base, 'system')}: the record's system prompt became the first message",
                at(base, "system"),
                b.drafts[-1],
            )
        elif system is not None:
            b.ignore("system", at(base, "system"))
    read(b, items)
    return b.finish(params)


def _record(data: Any) -> tuple[dict | None, str]:
    """The ShareGPT record (an object with ``conversations``) and its path, if there is one."""
    if isinstance(data, dict) and "conversations" in data:
        return data, ""
    records = [r for r in data if isinstance(r, dict)] if isinstance(data, list) else []
    if records and any("conversations" in r for r in records):
        if len(data) > 1:
            raise FormatError(
                [
                    Problem(
                        f"the file holds {len(data):,} ShareGPT records; a request is one "
                        "conversation, so save the one you want on its own",
                        path="$",
                    )
                ]
            )
        return data[0], "[0]"
    return None, ""


def read(b: Builder, items: list[tuple[str, Any]]) -> None:
    for source, turn in items:
        read_turn(b, turn, source)


def read_turn(b: Builder, turn: Any, source: str) -> None:
    if not isinstance(turn, dict):
        b.problem(f"a turn must be an object, not {describe(turn)}", source)
        return
    speaker = turn.get("from", turn.get("role"))
    where = at(source, "from")
    if not isinstance(speaker, str):
        found = "is missing" if speaker is None else f"must be a string, not {describe(speaker)}"
        b.problem(f"the speaker (from) {found}", where)
        return
    role = SPEAKERS.get(speaker.lower())
    if role is None:
        b.problem(
            f"{quoted(speaker)} is not a speaker this import knows; expected {_known()}", where
        )
        return
    if speaker != role:
        b.renamed(speaker, role, source)
    value = turn.get("value", turn.get("content"))
    draft = b.draft(role, source)
    if isinstance(value, str) and speaker.lower() == "function_call":
        call = _call(value)
        if call is not None:
            name, text = call
            draft.call(text, None)
            b.note(
                "tool-call-as-text",
                f"{source}: the function call to {name} is written into the message text",
                source,
                draft,
            )
            value = None
    if isinstance(value, str):
        draft.text(value)
    elif value is not None:
        b.problem(f"value must be text, not {describe(value)}", at(source, "value"))
    for name in turn:
        if name not in ("from", "value", "role", "content"):
            b.ignore(name, at(source, name))


def _call(value: str) -> tuple[str, str] | None:
    """A ``function_call`` turn's JSON (``{"name", "arguments"}``): its name and rendered call."""
    try:
        call = json_of(value)
    except UnreadableJSON:
        return None
    if not isinstance(call, dict) or not isinstance(call.get("name"), str) or not call["name"]:
        return None
    return call["name"], tool_call_text(call["name"], call.get("arguments", call.get("parameters")))


def _known() -> str:
    return ", ".join(SPEAKERS)


#: The speaker each role is written as.
ROLE_SPEAKERS = {"system": "system", "user": "human", "assistant": "gpt", "tool": "observation"}


def write(compacted: Compacted) -> dict[str, Any]:
    turns = compacted.turns
    conversations = []
    for turn in turns:
        if turn.role == "assistant" and turn.calls:
            if turn.text:
                conversations.append({"from": "gpt", "value": turn.text})
            for call in turn.calls:
                arguments = call.raw if call.raw is not None else call.arguments
                value = json.dumps({"name": call.name, "arguments": arguments}, ensure_ascii=False)
                conversations.append({"from": "function_call", "value": value})
        else:
            conversations.append({"from": ROLE_SPEAKERS[turn.role], "value": turn.text})
    if any(t.calls for t in turns):
        compacted.notes.append(
            "ShareGPT turns carry no call ids: an observation answers the call before it"
        )
    return {"conversations": conversations}
