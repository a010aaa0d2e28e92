"""Anthropic Messages: a top-level ``system`` and content blocks (text, tool_use, tool_result).

Written as a Messages request's ``system`` and ``messages``: system messages become the
top-level ``system``; calls are ``tool_use`` blocks (``input`` an object); results are
``tool_result`` blocks at the start of the next user message; consecutive messages of one role
are one message with several blocks, as the API itself would combine them.
"""

from __future__ import annotations

from typing import Any

from compactor.errors import quoted
from compactor.formats._builder import Builder, Draft, at, describe, result_text, type_of
from compactor.formats._chat import read_id, read_role
from compactor.formats._envelope import message_list
from compactor.formats._turns import Turn
from compactor.formats._types import Conversion
from compactor.formats._writing import Compacted, StructuredTurn

CALLS = ("tool_use", "server_tool_use", "mcp_tool_use")
REMOVED = {
    "image": ("an image", "image-removed"),
    "document": ("a document", "document-removed"),
    "search_result": ("a search result", "part-removed"),
    "container_upload": ("an uploaded file", "file-removed"),
    "thinking": ("the model's reasoning (a thinking block)", "reasoning-removed"),
    "redacted_thinking": ("redacted reasoning", "reasoning-removed"),
}


def convert(data: Any) -> Conversion:
    b = Builder("anthropic")
    items, params = message_list(b, data, skip=("system",))
    if isinstance(data, dict) and data.get("system") is not None:
        _system(b, data["system"])
    read(b, items)
    return b.finish(params)


def read(b: Builder, items: list[tuple[str, Any]]) -> None:
    for source, message in items:
        read_message(b, message, source)


def _system(b: Builder, system: Any) -> None:
    draft = b.draft("system", "system")
    if isinstance(system, str):
        draft.text(system)
    elif isinstance(system, list):
        _text_blocks(b, draft, system, "system")
    else:
        b.problem(f"system must be text or a list of text blocks, not {describe(system)}", "system")
        return
    b.note(
        "system-as-message",
        "system: the top-level system prompt became the first message (role system)",
        "system",
        draft,
    )


def read_message(b: Builder, message: Any, source: str) -> None:
    if not isinstance(message, dict):
        b.problem(f"a message must be an object, not {describe(message)}", source)
        return
    role = read_role(b, message, source, {})
    if role is None:
        return
    turn = Turn(b, role, source)
    turn.id = read_id(b, message.get("id"), at(source, "id"), None)
    content = message.get("content")
    where = at(source, "content")
    if isinstance(content, str):
        turn.text(content, where)
    elif isinstance(content, list):
        for j, block in enumerate(content):
            read_block(b, turn, block, at(where, j))
    elif content is not None:
        b.problem(f"content must be text or a list of blocks, not {describe(content)}", where)
    turn.close()
    for name in message:
        if name not in ("role", "content", "id"):
            b.ignore(name, at(source, name))


def read_block(b: Builder, turn: Turn, block: Any, where: str) -> None:
    """One content block of a message into the turn (text, tool_use, tool_result, removed)."""
    if isinstance(block, str):
        turn.text(block, where)
        return
    if not isinstance(block, dict):
        b.problem(f"a content block must be an object, not {describe(block)}", where)
        return
    kind = type_of(block)
    if kind == "text":
        turn.text(_string(b, block.get("text"), at(where, "text")), where)
    elif kind in CALLS:
        turn.call(block.get("name"), block.get("input"), block.get("id"), where, at(where, "input"))
    elif kind == "tool_result":
        draft = turn.result(where, block.get("tool_use_id"))
        content = block.get("content")
        if isinstance(content, list):
            _text_blocks(b, draft, content, at(where, "content"))
        elif content is None or isinstance(content, str):
            draft.text(content or "")
        else:
            b.problem(f"content must be text or blocks, not {describe(content)}", where)
        if block.get("is_error") is True:
            b.note(
                "tool-error",
                f"{where}: the result is marked as an error (is_error), which a request "
                "cannot mark; the text is kept",
                where,
                draft,
            )
    elif isinstance(kind, str) and kind.endswith("_tool_result") and "tool_use_id" in block:
        turn.output(
            where, block.get("tool_use_id"), block.get("content"), value_at=at(where, "content")
        )
    elif kind in REMOVED:
        b.removed(*REMOVED[kind][:1], where, turn.speaker(where), REMOVED[kind][1])
    else:
        b.removed(f"a block of type {quoted(kind)}", where, turn.speaker(where), "part-removed")


def _text_blocks(b: Builder, draft: Draft, blocks: list[Any], where: str) -> None:
    """Text blocks into ``draft``; anything else in them is removed and reported."""
    for k, block in enumerate(blocks):
        block_at = at(where, k)
        if isinstance(block, str):
            draft.text(block)
        elif type_of(block) == "text":
            draft.text(_string(b, block.get("text"), at(block_at, "text")))
        elif type_of(block) in REMOVED:
            what, kind = REMOVED[block["type"]]
            b.removed(what, block_at, draft, kind)
        elif isinstance(block, dict):
            b.removed(f"a block of type {quoted(type_of(block))}", block_at, draft, "part-removed")
        else:
            draft.text(result_text(block, block_at))


def _string(b: Builder, value: Any, where: str) -> str:
    if value is None or isinstance(value, str):
        return value or ""
    b.problem(f"text must be a string, not {describe(value)}", where)
    return ""


def write(compacted: Compacted) -> dict[str, Any]:
    turns, notes = compacted.turns, compacted.notes
    system = [t for t in turns if t.role == "system"]
    late = [t.index for k, t in enumerate(turns) if t.role == "system" and k >= len(system)]
    if late:
        notes.append(
            "system messages "
            + ", ".join(f"#{i}" for i in late)
            + " moved into the top-level system prompt (the Messages API has no system role)"
        )
    messages: list[dict[str, Any]] = []
    for turn in turns:
        if turn.role == "system":
            continue
        role = "assistant" if turn.role == "assistant" else "user"
        blocks = _blocks(turn, notes)
        if not blocks:
            continue
        if messages and messages[-1]["role"] == role:
            messages[-1]["content"].extend(blocks)
        else:
            messages.append({"role": role, "content": blocks})
    if messages and messages[0]["role"] == "assistant":
        first = next(t.index for t in turns if t.role != "system")
        notes.append(
            f"#{first}: the conversation starts with an assistant message: Anthropic's API "
            "accepts that, Amazon Bedrock's does not (it wants a user message first)"
        )
    out: dict[str, Any] = {}
    if system:
        out["system"] = "\n\n".join(t.text for t in system)
    out["messages"] = messages
    return out


def _blocks(turn: StructuredTurn, notes: list[str]) -> list[dict[str, Any]]:
    if turn.role == "tool":
        block: dict[str, Any] = {"type": "tool_result", "tool_use_id": turn.answers}
        if turn.text:
            block["content"] = turn.text
        return [block]
    blocks: list[dict[str, Any]] = []
    text = turn.text
    if text:
        blocks.append({"type": "text", "text": text})
    for call in turn.calls:
        arguments: Any = call.arguments
        if arguments is None and call.raw is None:
            arguments = {}  # a call without arguments
        elif not isinstance(arguments, dict):
            notes.append(
                f"#{turn.index}: the arguments of the call to {call.name} are not a JSON object, "
                'so its tool_use input holds them as {"input": ...}'
            )
            arguments = {"input": call.raw if call.raw is not None else arguments}
        blocks.append({"type": "tool_use", "id": call.id, "name": call.name, "input": arguments})
    return blocks
