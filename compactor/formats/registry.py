"""The formats by name: their descriptions (in picker order) and their adapters."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from compactor.errors import FormatError, Problem, quoted
from compactor.formats import anthropic, chat, claude_code, codex, sharegpt, vercel
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
    "claude-code": "Claude Code session transcript (JSONL of user/assistant records, or "
    '{"loglines": [...]})',
    "codex": "Codex CLI session log (rollout JSONL: session_meta, response_item, event_msg)",
}
#: Formats whose files are JSON Lines, one record a line.
LINE_FORMATS = ("jsonl", "claude-code", "codex")

#: Message readers by format: they read ``(source, message)`` pairs into a builder.
READERS: dict[str, Callable[[Builder, list[tuple[str, Any]]], None]] = {
    "request": chat.read,
    "messages": chat.read,
    "openai": chat.read,
    "anthropic": anthropic.read,
    "vercel": vercel.read,
    "sharegpt": sharegpt.read,
}


def convert_lines(lines: Any, format: str | None = None) -> Conversion:
    """JSON Lines: an agent's log (Claude Code, Codex), or one message per line.

    ``lines`` is a list of ``(source, value)``, or of values (named ``line 1``, ...); the kind is
    detected from the lines unless ``format`` names it.
    """
    if not isinstance(lines, list) or not lines:
        raise FormatError([Problem("JSONL needs one message per line; there are none", path="$")])
    if not all(isinstance(item, tuple) for item in lines):
        lines = [(f"line {i + 1}", message) for i, message in enumerate(lines)]
    values = [value for _, value in lines]
    if format == "claude-code" or (format is None and claude_code.is_transcript(values)):
        return claude_code.convert_lines(lines)
    if format == "codex" or (format is None and codex.is_rollout(values)):
        return codex.convert_lines(lines)
    kind = message_kind(values, "$", first=lines[0][0])
    b = Builder("jsonl")
    READERS[kind](b, lines)
    return b.finish()


def _claude_code(data: Any) -> Conversion:
    if isinstance(data, dict):
        return claude_code.convert_export(data)
    return convert_lines(data if isinstance(data, list) else [], "claude-code")


ADAPTERS: dict[str, Callable[[Any], Conversion]] = {
    "request": chat.convert_request,
    "messages": chat.convert_messages,
    "openai": chat.convert_openai,
    "anthropic": anthropic.convert,
    "vercel": vercel.convert,
    "sharegpt": sharegpt.convert,
    "jsonl": convert_lines,
    "claude-code": _claude_code,
    "codex": lambda data: convert_lines(data if isinstance(data, list) else [], "codex"),
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
