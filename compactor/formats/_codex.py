"""Codex CLI session logs: the rollout JSONL it writes (``~/.codex/sessions/.../rollout-*.jsonl``).

Each line is ``{"timestamp", "type", "payload"}``. Lines of type ``response_item`` hold the
Responses API items the model saw and said: ``message`` (roles user, assistant, developer,
system; ``input_text``/``output_text`` parts), ``function_call`` and ``custom_tool_call`` (call
lines in the assistant's text, with their ``call_id``), ``local_shell_call``, and
``function_call_output``/``custom_tool_call_output`` (tool messages with the ``call_id``). A
hosted tool's item (``web_search_call``, ``file_search_call``, ``code_interpreter_call``, ...:
:data:`HOSTED`) carries its own result, so it is no call waiting for one: it becomes an
assistant message of its own, ``[web_search_call] {"id": ..., "action": ...}`` (the item
without its ``type``, as JSON: :func:`hosted_text`), which the Responses writer gives back as
the item itself (:func:`hosted_item`).
``reasoning`` items are removed (lossy), counted once. ``session_meta`` gives the system prompt
(``instructions`` or ``base_instructions.text``) when it has one; ``event_msg`` and
``turn_context`` lines are Codex's own records (events repeat the items): each kind skipped and
reported once. A ``compacted`` line is a compaction Codex made (``RolloutItem::Compacted``,
payload ``CompactedItem {message, replacement_history?}`` in ``codex-rs/protocol``): it is kept in
the conversion's ``compactions`` at the point it falls, ``message`` (the summary Codex wrote;
empty when a remote compaction left only an encrypted history) as its summary, never as a
message of the request. The older layout (a first line ``{"id", "timestamp",
"instructions"}``, then bare items, and ``{"record_type": "state"}`` lines) reads the same way.
"""

from __future__ import annotations

import json
import re
from typing import Any

from compactor.errors import FormatError, Problem
from compactor.formats._builder import (
    Builder,
    Draft,
    at,
    describe,
    json_text,
    result_text,
    tool_call_text,
)
from compactor.formats._chat import read_message
from compactor.formats._skips import Skips
from compactor.formats._types import Conversion

LINE_TYPES = frozenset({"session_meta", "response_item", "event_msg", "turn_context", "compacted"})
CALLS = frozenset({"function_call", "custom_tool_call", "local_shell_call"})
OUTPUTS = frozenset({"function_call_output", "custom_tool_call_output"})
#: The items of OpenAI's hosted tools that carry their own result (or need none): the model
#: called the tool and the API ran it, so no output item follows (``openai.types.responses``:
#: ``ResponseFunctionWebSearch``, ``ResponseFileSearchToolCall``,
#: ``ResponseCodeInterpreterToolCall``, ``ImageGenerationCall``, ``McpCall``, ``McpListTools``).
HOSTED = frozenset(
    {
        "web_search_call",
        "file_search_call",
        "code_interpreter_call",
        "image_generation_call",
        "mcp_call",
        "mcp_list_tools",
    }
)
ITEM_TYPES = frozenset({"message", "reasoning", *CALLS, *OUTPUTS, *HOSTED})
#: A hosted tool's item as a message's text: ``[TYPE] {the item without its type}``.
_HOSTED_TEXT = re.compile(r"\[(?P<kind>[a-z_]+)\] (?P<json>\{.*\})", re.DOTALL)


def hosted_text(kind: str, item: dict) -> str:
    """A hosted tool's item as the text of its message: ``[web_search_call] {"id": ...}``."""
    rest = {name: value for name, value in item.items() if name != "type"}
    return f"[{kind}] {json.dumps(rest, ensure_ascii=False, default=str)}"


def hosted_kind(text: str) -> str | None:
    """The hosted tool's item type a message's text starts as (whole or cut), else None."""
    found = re.match(r"\[([a-z_]+)\] \{", text)
    return found[1] if found and found[1] in HOSTED else None


def hosted_item(text: str) -> dict | None:
    """The item a message's whole text stands for (:func:`hosted_text` read back); None when the
    text is not one (or a trim cut it)."""
    found = _HOSTED_TEXT.fullmatch(text)
    if found is None or found["kind"] not in HOSTED:
        return None
    try:
        rest = json.loads(found["json"])
    except ValueError:
        return None
    return {"type": found["kind"], **rest} if isinstance(rest, dict) else None


def is_rollout(values: list[Any]) -> bool:
    """True when the lines look like a Codex rollout (new layout, or the older one)."""
    dicts = [v for v in values if isinstance(v, dict)]
    if any(_type(v) in LINE_TYPES and isinstance(v.get("payload"), dict) for v in dicts):
        return True
    return bool(dicts) and _legacy_meta(dicts[0]) and any(_item(v) for v in dicts[1:])


def _type(value: dict) -> str | None:
    kind = value.get("type")
    return kind if isinstance(kind, str) else None


def _legacy_meta(value: dict) -> bool:
    return "id" in value and "timestamp" in value and "type" not in value and "role" not in value


def _item(value: dict) -> bool:
    return _type(value) in ITEM_TYPES and "payload" not in value


def convert_lines(items: list[tuple[str, Any]]) -> Conversion:
    """The rollout as ``(source, line)`` pairs (``("line 3", {...})``)."""
    b = Builder("codex")
    reader = _Reader(b)
    for n, (source, line) in enumerate(items):
        if not isinstance(line, dict):
            b.problem(f"a log line must be an object, not {describe(line)}", source)
        elif isinstance(line.get("payload"), dict) and _type(line) in LINE_TYPES:
            reader.line(source, line["type"], line["payload"])
        elif n == 0 and _legacy_meta(line):
            reader.meta(source, line)
        elif _item(line):
            reader.item(source, line)
        else:
            reader.skips.add(_kind_of(line), source)
    if not any(d.role != "system" for d in b.drafts) and not b.problems:
        raise FormatError([Problem("the log has no messages (no response_item lines)", path="$")])
    reader.skips.report(b)
    return b.finish()


def convert_items(items: list[tuple[str, Any]], format: str) -> Conversion:
    """Responses API items on their own, as ``(source, item)`` pairs, read as the rollout's
    items are and named ``format``: an item of another type is skipped and reported (lossy)."""
    b = Builder(format)
    reader = _Reader(b)
    for source, item in items:
        if not isinstance(item, dict):
            b.problem(f"an item must be an object, not {describe(item)}", source)
        elif not isinstance(item.get("type"), str):  # not an item of another type: malformed
            b.problem(
                f"an item's type is a text (message, function_call, ...), not "
                f"{describe(item.get('type'))}",
                at(source, "type"),
            )
        elif _item(item):
            reader.item(source, item)
        else:
            reader.skips.add(f"items of {_kind_of(item)}", source, lossy=True)
    reader.skips.report(b)
    return b.finish()


def _kind_of(line: dict) -> str:
    if "record_type" in line:
        return f"record_type {line['record_type']!r}"
    return f"type {line.get('type')!r}"


class _Reader:
    def __init__(self, b: Builder):
        self.b = b
        self.skips = Skips("Codex's own records, or events repeating the items")
        self.speaker: Draft | None = None  # the assistant message calls go to

    def line(self, source: str, kind: str, payload: dict) -> None:
        where = at(source, "payload")
        if kind == "response_item":
            self.item(where, payload)
            self.skips.envelope(["timestamp"])
        elif kind == "session_meta":
            self.meta(where, payload)
        elif kind == "compacted":
            self.compacted(source, payload)
        else:
            self.skips.add(f"type {kind!r}", source)

    def meta(self, where: str, meta: dict) -> None:
        """The session's metadata; its instructions are the system prompt the model had."""
        instructions = meta.get("instructions")
        base = meta.get("base_instructions")
        if not (isinstance(instructions, str) and instructions) and isinstance(base, dict):
            instructions = base.get("text")
            where = at(where, "base_instructions", "text")
        else:
            where = at(where, "instructions")
        if isinstance(instructions, str) and instructions:
            draft = self.b.draft("system", where)
            draft.text(instructions)
            self.b.note(
                "system-as-message",
                f"{where}: the session's instructions became the first message (role system)",
                where,
                draft,
            )
        self.skips.envelope([name for name in meta if name not in ("instructions",)])

    def compacted(self, source: str, payload: dict) -> None:
        """A compaction: its boundary after the messages so far, its ``message`` the summary."""
        drafts = len(self.b.drafts)
        message = payload.get("message")
        self.b.compactions.boundary(drafts, source, None, None, None)
        if isinstance(message, str) and message:
            self.b.compactions.summary(drafts, message, at(source, "payload", "message"))
        self.speaker = None  # a call after it does not belong to the message before

    def item(self, where: str, item: dict) -> None:
        kind = _type(item)
        if kind == "message":
            before = len(self.b.drafts)
            read_message(self.b, {"role": item.get("role"), "content": item.get("content")}, where)
            made = self.b.drafts[before:]
            self.speaker = made[-1] if made and made[-1].role == "assistant" else None
            self.skips.envelope([n for n in item if n not in ("type", "role", "content")])
        elif kind in CALLS:
            self._call(where, kind, item)
        elif kind in HOSTED:
            self._hosted(where, kind, item)
        elif kind in OUTPUTS:
            self._output(where, item)
        elif kind == "reasoning":
            self.skips.add("reasoning items (the model's reasoning summaries)", where, lossy=True)
        else:
            self.skips.add(f"response items of type {kind!r}", where, lossy=True)

    def _call(self, where: str, kind: str, item: dict) -> None:
        call_id = item.get("call_id") if isinstance(item.get("call_id"), str) else None
        key = {"function_call": "arguments", "custom_tool_call": "input"}.get(kind, "action")
        if kind == "function_call":
            name, arguments = item.get("name"), item.get("arguments")
        elif kind == "custom_tool_call":
            # free-form input (a patch, say): kept as one JSON string so the call stays one line
            name, arguments = item.get("name"), item.get("input")
            if isinstance(arguments, str):
                arguments = json_text(arguments)
        else:
            name, arguments = "local_shell", item.get("action")
        if not isinstance(name, str) or not name:
            self.b.problem("the call has no name", where)
            return
        if self.speaker is None:
            self.speaker = self.b.draft("assistant", where)
        self.speaker.call(tool_call_text(name, arguments, call_id, at(where, key)), call_id)
        self.b.note(
            "tool-call-as-text",
            f"{where}: the call to {name} is written into the assistant message's text",
            where,
            self.speaker,
        )

    def _hosted(self, where: str, kind: str, item: dict) -> None:
        """A hosted tool's item: a message of its own, never a call waiting for a result."""
        draft = self.b.draft("assistant", where)
        draft.text(hosted_text(kind, item))
        self.b.note(
            "hosted-tool-as-text",
            f"{where}: the {kind} item (a hosted tool's call and its result) became an "
            "assistant message holding it as JSON",
            where,
            draft,
        )
        self.speaker = None  # a call after it is a new message's, not the item's

    def _output(self, where: str, item: dict) -> None:
        call_id = item.get("call_id") if isinstance(item.get("call_id"), str) else None
        draft = self.b.draft("tool", where, id=call_id, answers=call_id)
        output, output_at = item.get("output"), at(where, "output")
        if isinstance(output, dict) and "content" in output:
            output = output["content"]  # {"content": ..., "success": ...}
            output_at = at(output_at, "content")
        draft.text(result_text(output, output_at))
        if call_id:
            self.b.id_from("call_id")
        self.b.note(
            "tool-result-as-message",
            f"{where}: the output became its own tool message"
            + (f" with id {call_id}" if call_id else ""),
            where,
            draft,
        )
        self.speaker = None
