"""Vercel AI SDK messages: UI messages with ``parts``, and model messages with content parts.

UI parts: ``text``, ``reasoning``, ``tool-<name>`` and ``dynamic-tool`` (``input``, ``output``
or ``errorText``, ``state``), the v4 ``tool-invocation``, ``file``, ``source-url``,
``source-document``, ``data-<name>`` and ``step-start``. Model messages (what ``streamText``
takes): ``text``, ``reasoning``, ``image``, ``file``, ``tool-call`` and ``tool-result`` parts.

Written as model messages (``ModelMessage[]``): ``tool-call`` parts in assistant content,
``tool-result`` parts (``output: {"type": "text", "value"}``) in ``tool`` messages.
"""

from __future__ import annotations

from typing import Any

from compactor.errors import quoted
from compactor.formats._builder import Builder, at, describe, result_text
from compactor.formats._chat import read_id, read_role
from compactor.formats._envelope import message_list
from compactor.formats._turns import Turn
from compactor.formats._types import Conversion
from compactor.formats._writing import Compacted

SOURCES = ("source-url", "source-document")


def convert(data: Any) -> Conversion:
    b = Builder("vercel")
    items, params = message_list(b, data)
    read(b, items)
    return b.finish(params)


def read(b: Builder, items: list[tuple[str, Any]]) -> None:
    for source, message in items:
        read_message(b, message, source)


def read_message(b: Builder, message: Any, source: str) -> None:
    if not isinstance(message, dict):
        b.problem(f"a message must be an object, not {describe(message)}", source)
        return
    role = read_role(b, message, source, {})
    if role is None:
        return
    turn = Turn(b, role, source, read_id(b, message.get("id"), at(source, "id"), None))
    parts, content = message.get("parts"), message.get("content")
    read_fields = {"role", "id", "parts", "content"}
    if isinstance(parts, list):
        for j, part in enumerate(parts):
            _ui_part(b, turn, part, at(source, "parts", j))
        if content not in (None, "") and not isinstance(content, str):
            read_fields.discard("content")  # a v4 message's content repeats its text parts
    elif parts is not None:
        b.problem(f"parts must be a list, not {describe(parts)}", at(source, "parts"))
    elif isinstance(content, str):
        turn.text(content, source)
    elif isinstance(content, list):
        for j, part in enumerate(content):
            _model_part(b, turn, part, at(source, "content", j))
    elif content is not None:
        b.problem(f"content must be text or a list of parts, not {describe(content)}", source)
    turn.close()
    for name in message:
        if name not in read_fields:
            b.ignore(name, at(source, name))


def _kind(b: Builder, part: Any, where: str) -> str | None:
    if not isinstance(part, dict):
        b.problem(f"a part must be an object, not {describe(part)}", where)
        return None
    kind = part.get("type")
    if not isinstance(kind, str):
        b.problem("the part has no type", where)
        return None
    return kind


def _ui_part(b: Builder, turn: Turn, part: Any, where: str) -> None:
    kind = _kind(b, part, where)
    if kind is None:
        return
    if kind == "text":
        turn.text(_string(b, part.get("text"), where), where)
    elif kind == "step-start":
        turn.step()
    elif kind == "dynamic-tool" or kind.startswith("tool-") and kind != "tool-invocation":
        name = part.get("toolName") if kind == "dynamic-tool" else kind.removeprefix("tool-")
        _tool(b, turn, part, where, name, part.get("input"), part.get("state"))
    elif kind == "tool-invocation":
        call = part.get("toolInvocation")
        if not isinstance(call, dict):
            b.problem("toolInvocation must be an object", at(where, "toolInvocation"))
            return
        state = "output-available" if "result" in call else call.get("state")
        _tool(
            b,
            turn,
            {**call, "output": call.get("result")},
            where,
            call.get("toolName"),
            call.get("args"),
            state,
        )
    else:
        _other(b, turn, part, kind, where)


def _tool(b: Builder, turn: Turn, part: dict, where: str, name: Any, args: Any, state: Any):
    call_id = part.get("toolCallId")
    turn.call(name, args, call_id, where)
    if state == "output-available" or (state is None and part.get("output") is not None):
        turn.output(where, call_id, part.get("output"), name, at(where, "output"))
    elif state == "output-error":
        draft = turn.output(where, call_id, part.get("errorText") or "", name)
        b.note(
            "tool-error", f"{where}: the tool failed; its error text is the result", where, draft
        )
    else:
        b.note(
            "tool-call-without-result",
            f"{where}: the call to {name} has no result yet (state {state}); only the call is kept",
            where,
            turn.made[-1] if turn.made else None,
        )


def _model_part(b: Builder, turn: Turn, part: Any, where: str) -> None:
    kind = _kind(b, part, where)
    if kind is None:
        return
    if kind == "text":
        turn.text(_string(b, part.get("text"), where), where)
    elif kind == "tool-call":
        key = "input" if "input" in part else "args"
        turn.call(
            part.get("toolName"), part.get(key), part.get("toolCallId"), where, at(where, key)
        )
    elif kind == "tool-result":
        output = part["output"] if "output" in part else part.get("result")
        name = part.get("toolName")
        draft = turn.result(where, part.get("toolCallId"), name)
        _tool_output(b, draft, output, at(where, "output"))
    else:
        _other(b, turn, part, kind, where)


def _tool_output(b: Builder, draft, output: Any, where: str) -> None:
    """A v5 typed output (``{type: text|json|error-text|error-json|content, value}``) or a value."""
    if not (isinstance(output, dict) and "type" in output and "value" in output):
        draft.text(result_text(output, where))
        return
    value = output["value"]
    if output["type"] == "content" and isinstance(value, list):
        for k, item in enumerate(value):
            if isinstance(item, dict) and item.get("type") == "text":
                draft.text(_string(b, item.get("text"), at(where, "value", k)))
            else:
                b.removed("a media item", at(where, "value", k), draft, "image-removed")
    else:
        draft.text(result_text(value, at(where, "value")))


def _other(b: Builder, turn: Turn, part: dict, kind: str, where: str) -> None:
    """Parts that are not text: removed, each with a lossy change."""
    media = str(part.get("mediaType") or part.get("mimeType") or "")
    if kind == "reasoning":
        what, change = "the model's reasoning (a reasoning part)", "reasoning-removed"
    elif kind == "image" or (kind == "file" and media.startswith("image/")):
        what, change = f"an image{_named(part, media)}", "image-removed"
    elif kind == "file":
        what, change = f"a file{_named(part, media)}", "file-removed"
    elif kind in SOURCES:
        what, change = f"a cited source{_named(part, part.get('url') or '')}", "source-removed"
    elif kind.startswith("data-"):
        what, change = f"a data part ({kind})", "data-removed"
    else:
        what, change = f"a part of type {quoted(kind)}", "part-removed"
    b.removed(what, where, turn.speaker(where), change)


def _named(part: dict, detail: str) -> str:
    name = part.get("filename") or part.get("title")
    label = ", ".join(str(x) for x in (name, detail) if x)
    return f" ({label})" if label else ""


def _string(b: Builder, value: Any, where: str) -> str:
    if value is None or isinstance(value, str):
        return value or ""
    b.problem(f"text must be a string, not {describe(value)}", at(where, "text"))
    return ""


def write(compacted: Compacted) -> list[dict[str, Any]]:
    turns = compacted.turns
    names = {call.id: call.name for turn in turns for call in turn.calls}
    out: list[dict[str, Any]] = []
    for turn in turns:
        if turn.role == "tool":
            out.append(
                {
                    "role": "tool",
                    "content": [
                        {
                            "type": "tool-result",
                            "toolCallId": turn.answers,
                            "toolName": names[turn.answers],
                            "output": {"type": "text", "value": turn.text},
                        }
                    ],
                }
            )
        elif turn.role == "assistant" and turn.calls:
            parts: list[dict[str, Any]] = []
            if turn.text:
                parts.append({"type": "text", "text": turn.text})
            parts += [
                {
                    "type": "tool-call",
                    "toolCallId": call.id,
                    "toolName": call.name,
                    "input": call.raw if call.raw is not None else call.arguments,
                }
                for call in turn.calls
            ]
            out.append({"role": "assistant", "content": parts})
        else:
            out.append({"role": turn.role, "content": turn.text})
    return out
