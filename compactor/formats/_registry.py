"""The formats: one entry each, with how it is told apart, read and written. Every surface reads
this table: ``import``, ``compact --emit``, ``shrink`` and ``evaluate`` on the command line, the
explorer's paste box, upload and corpus loader, and :func:`compactor.shrink`.

>>> [name for name, entry in FORMATS.items() if entry.write is None]
['jsonl', 'claude-code', 'codex', 'records']
>>> detect_format([{"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"}])
'responses'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from compactor.errors import FormatError, Problem, quoted
from compactor.formats import (
    _anthropic as anthropic,
)
from compactor.formats import (
    _chat as chat,
)
from compactor.formats import (
    _claude_code as claude_code,
)
from compactor.formats import (
    _codex as codex,
)
from compactor.formats import (
    _langchain as langchain,
)
from compactor.formats import (
    _responses as responses,
)
from compactor.formats import (
    _sharegpt as sharegpt,
)
from compactor.formats import (
    _vercel as vercel,
)
from compactor.formats._builder import Builder
from compactor.formats._collections import ManyConversations, Record, collection_of
from compactor.formats._detect import Shape, message_kind, undetected
from compactor.formats._types import Conversion
from compactor.formats._writing import Compacted


@dataclass(frozen=True)
class Format:
    """One format: its name, a line saying what it is, and how it is detected, read, written."""

    name: str
    label: str  # one line, for the format pickers, ``--help`` and the docs
    read: Callable[[Any], Conversion]  # parsed JSON (or JSONL's lines) -> the conversation
    #: Whether a parsed document is in this format; None: never told from a parsed value (one
    #: message a line is only known from the file's layout).
    detect: Callable[[Shape], bool] | None = None
    write: Callable[[Compacted], Any] | None = None  # None: read, never written
    many: bool = False  # the file holds many conversations, each read by its own format
    lines: bool = False  # its files are JSON Lines, one record a line


def _lines_of(data: Any) -> list[tuple[str, Any]]:
    """JSONL's lines as ``(source, value)``; values alone are named ``line 1``, ..."""
    if not isinstance(data, list) or not data:
        raise FormatError([Problem("JSONL needs one message per line; there are none", path="$")])
    if all(isinstance(item, tuple) for item in data):
        return data
    return [(f"line {i + 1}", value) for i, value in enumerate(data)]


#: The message readers of one message a line, by the kind the messages show.
_MESSAGE_READERS: dict[str, Callable[[Builder, list[tuple[str, Any]]], None]] = {
    "messages": chat.read,
    "openai": chat.read,
    "anthropic": anthropic.read,
    "vercel": vercel.read,
    "sharegpt": sharegpt.read,
}


def _jsonl(data: Any) -> Conversion:
    """JSON Lines: an agent's log when the lines are one (Claude Code, Codex), else one message
    a line, in any of the message shapes."""
    lines = _lines_of(data)
    values = [value for _, value in lines]
    shape = Shape(values)
    log = next((name for name in LINE_LOGS if FORMATS[name].detect(shape)), None)
    if log is not None:
        return FORMATS[log].read(lines)
    b = Builder("jsonl")
    _MESSAGE_READERS[message_kind(values, "$", first=lines[0][0])](b, lines)
    return b.finish()


def _claude_code(data: Any) -> Conversion:
    if isinstance(data, dict):
        return claude_code.convert_export(data)
    return claude_code.convert_lines(_lines_of(data if isinstance(data, list) else []))


def _codex(data: Any) -> Conversion:
    return codex.convert_lines(_lines_of(data if isinstance(data, list) else []))


def _records(data: Any) -> Conversion:
    """A collection of one record; :class:`ManyConversations` when it holds more."""
    lines = data if isinstance(data, list) and data and isinstance(data[0], tuple) else None
    collection = collection_of(None if lines else data, lines)
    if collection is None:
        raise FormatError(
            [
                Problem(
                    "expected records: a list of objects, each holding a conversation under "
                    "conversations, messages or traj",
                    path="$",
                )
            ]
        )
    if len(collection) != 1:
        raise ManyConversations(collection)
    return convert_record(collection.records[0])


def _sharegpt(shape: Shape) -> bool:
    data = shape.data
    if isinstance(data, dict):
        return "conversations" in data
    records = (
        isinstance(data, list)
        and data
        and all(isinstance(item, dict) and "conversations" in item for item in data)
    )
    return bool(records) or shape.kind == "sharegpt"


def _claude_code_log(shape: Shape) -> bool:
    data = shape.data
    if isinstance(data, dict):
        return isinstance(data.get("loglines"), list)
    return isinstance(data, list) and claude_code.is_transcript(data)


def _openai(shape: Shape) -> bool:
    body = shape.kind == "messages" and "model" in (shape.envelope or {})  # a request body
    return shape.kind == "openai" or body


def _kind(name: str) -> Callable[[Shape], bool]:
    return lambda shape: shape.kind == name


_ENTRIES = (
    Format(
        "request",
        "Service request: messages plus budget_chars and the other parameters",
        chat.convert_request,
        Shape.request_envelope,
        chat.write_request,
    ),
    Format(
        "messages",
        "A list of {role, content} messages (bare, or under 'messages' with other fields)",
        chat.convert_messages,
        _kind("messages"),
        chat.write_messages,
    ),
    Format(
        "openai",
        "OpenAI Chat Completions messages (tool_calls, tool messages, developer role)",
        chat.convert_openai,
        _openai,
        chat.write_openai,
    ),
    Format(
        responses.NAME,
        "OpenAI Responses API input items (message, function_call, function_call_output, the "
        "hosted tools' items such as web_search_call), as the Agents SDK's sessions hold them",
        responses.convert,
        lambda shape: responses.is_responses(shape.data),
        responses.write,
    ),
    Format(
        "anthropic",
        "Anthropic Messages (top-level system; text, tool_use, tool_result blocks)",
        anthropic.convert,
        _kind("anthropic"),
        anthropic.write,
    ),
    Format(
        "vercel",
        "Vercel AI SDK messages: UI messages with parts (text, tool-*, reasoning, file), or "
        "model messages (tool-call, tool-result parts), as it writes them",
        vercel.convert,
        _kind("vercel"),
        vercel.write,
    ),
    Format(
        langchain.NAME,
        "LangChain messages: messages_to_dict's {type, data} (in Python, message objects too)",
        langchain.convert,
        lambda shape: langchain.is_langchain(shape.data),
        langchain.write,
    ),
    Format(
        "sharegpt",
        "ShareGPT: {conversations: [{from: human|gpt|system|tool, value}]}",
        sharegpt.convert,
        _sharegpt,
        sharegpt.write,
    ),
    Format(
        "jsonl",
        "JSON Lines: one message per line, in any of the message shapes above",
        _jsonl,
        lines=True,
    ),
    Format(
        "claude-code",
        'Claude Code session transcript (JSONL of user/assistant records, or {"loglines": [...]})',
        _claude_code,
        _claude_code_log,
        lines=True,
    ),
    Format(
        "codex",
        "Codex CLI session log (rollout JSONL: session_meta, response_item, event_msg)",
        _codex,
        lambda shape: isinstance(shape.data, list) and codex.is_rollout(shape.data),
        lines=True,
    ),
    Format(
        "records",
        "Many conversations: a JSON list (or JSON Lines) of records, each holding one under "
        "conversations, messages or traj (ShareGPT datasets, tau-bench trajectories)",
        _records,
        lambda shape: collection_of(shape.data) is not None,
        many=True,
    ),
)
#: Every format by name, in the order a picker shows them.
FORMATS: dict[str, Format] = {entry.name: entry for entry in _ENTRIES}
#: The order detection tries the formats in: envelopes and logs before message shapes, and a
#: Chat Completions body (``model``) before a request.
DETECTION = (
    "sharegpt",
    "records",
    "claude-code",
    "codex",
    responses.NAME,
    langchain.NAME,
    "vercel",
    "anthropic",
    "openai",
    "request",
    "messages",
)
#: The agent logs, told apart in JSON Lines before one message a line is assumed.
LINE_LOGS = tuple(name for name in DETECTION if FORMATS[name].lines)
#: Formats whose files are JSON Lines, one record a line.
LINE_FORMATS = tuple(name for name, entry in FORMATS.items() if entry.lines)
#: Formats with a writer: what ``compact --emit`` and ``shrink`` write.
WRITABLE = tuple(name for name, entry in FORMATS.items() if entry.write is not None)


def detect_format(data: Any) -> str:
    """The name of the format ``data`` is in; raises :class:`FormatError` saying why none fits."""
    shape = Shape(data)
    for name in DETECTION:
        if FORMATS[name].detect(shape):
            return name
    raise undetected(data)


def format_named(name: str) -> Format:
    """The entry of ``name``; a :class:`FormatError` naming the formats when there is none."""
    entry = FORMATS.get(name)
    if entry is None:
        raise FormatError(
            [
                Problem(
                    f"unknown format {quoted(name)}; the formats are {', '.join(FORMATS)}",
                    path="$",
                )
            ]
        )
    return entry


def convert(data: Any, format: str | None = None) -> Conversion:
    """Convert parsed JSON to a request; the format is detected unless given.

    Raises :class:`FormatError` naming every problem (with its JSON path) when the data is not a
    conversation in that format.
    """
    return format_named(format or detect_format(data)).read(data)


def convert_lines(lines: Any, format: str | None = None) -> Conversion:
    """JSON Lines: an agent's log (Claude Code, Codex), or one message per line.

    ``lines`` is a list of ``(source, value)``, or of values (named ``line 1``, ...); the kind is
    detected from the lines unless ``format`` names it.
    """
    return format_named(format or "jsonl").read(lines)


def convert_record(record: Record, format: str | None = None) -> Conversion:
    """One record of a collection as a request, read by its own format (``format``, or the one
    detected); problems name the record's place (``[3].traj[2]``, ``line 4``)."""
    if format is not None and format_named(format).many:
        format = None  # "records": each record is read by its own format
    try:
        conversion = convert(record.conversation, format)
    except FormatError as error:
        raise record.placed_error(error) from None
    return record.placed(conversion)
