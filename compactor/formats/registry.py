"""The formats by name: their descriptions (in picker order) and their adapters."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from compactor.errors import FormatError, Problem, quoted
from compactor.formats import anthropic, chat, sharegpt, vercel
from compactor.formats.builder import Builder
from compactor.formats.detect import detect_format, message_kind
from compactor.formats.types import Conversion

#: Format name -> one-line description, in the order a picker shows them.
FORMATS: dict[str, str] = {
    "request": "Service request: messages plus budget_chars and the other parameters",
    "messages": "A list of {role, content} messages (bare, or under 'messages' with other fields)",
    "openai": "OpenAI Chat Completions messages (tool_calls, tool messages, developer role)",
    "anthropic": "Anthropic Messages (top-level system; text, tool_use, tool_result blocks)",
    "vercel": "Vercel AI SDK UI messages with parts (text, tool-*, reasoning, file)",
    "sharegpt": "ShareGPT: {conversations: [{from: human|gpt|system|tool, value}]}",
    "jsonl": "JSON Lines: one message per line, in any of the message shapes above",
}

#: Message readers by format: they read ``(source, message)`` pairs into a builder.
READERS: dict[str, Callable[[Builder, list[tuple[str, Any]]], None]] = {
    "request": chat.read,
    "messages": chat.read,
    "openai": chat.read,
    "anthropic": anthropic.read,
    "vercel": vercel.read,
    "sharegpt": sharegpt.read,
}


def convert_lines(lines: Any) -> Conversion:
    """JSONL: one message per line (a list of ``(source, message)``, or of messages)."""
    if not isinstance(lines, list) or not lines:
        raise FormatError([Problem("JSONL needs one message per line; there are none", path="$")])
    if not all(isinstance(item, tuple) for item in lines):
        lines = [(f"line {i + 1}", message) for i, message in enumerate(lines)]
    kind = message_kind([message for _, message in lines], "$", first=lines[0][0])
    b = Builder("jsonl")
    READERS[kind](b, lines)
    return b.finish()


ADAPTERS: dict[str, Callable[[Any], Conversion]] = {
    "request": chat.convert_request,
    "messages": chat.convert_messages,
    "openai": chat.convert_openai,
    "anthropic": anthropic.convert,
    "vercel": vercel.convert,
    "sharegpt": sharegpt.convert,
    "jsonl": convert_lines,
}


def convert(data: Any, format: str | None = None) -> Conversion:
    """Convert parsed JSON to a request; the format is detected unless given.

    Raises :class:`FormatError` naming every problem (with its JSON path) when the data is not a
    conversation in that format.
    """
    adapter: Callable[[Any], Conversion] | None = ADAPTERS.get(format or detect_format(data))
    if adapter is None:
        raise FormatError(
            [
                Problem(
                    f"unknown format {quoted(format)}; the formats are {', '.join(FORMATS)}",
                    path="$",
                )
            ]
        )
    return adapter(data)
