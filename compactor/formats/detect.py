"""Which format a parsed document is in, from the shape of its envelope and its messages."""

from __future__ import annotations

from typing import Any

from compactor.contract import PARAMETERS, ROLES
from compactor.errors import FormatError, Problem, quoted
from compactor.formats import claude_code, codex
from compactor.formats.builder import at, describe, type_of

ANTHROPIC_BLOCKS = frozenset(
    {
        "tool_use",
        "tool_result",
        "server_tool_use",
        "web_search_tool_result",
        "document",
        "thinking",
        "redacted_thinking",
        "search_result",
    }
)
OPENAI_PARTS = frozenset({"image_url", "input_audio", "refusal", "file", "input_text"})
VERCEL_PARTS = frozenset({"tool-call", "tool-result", "reasoning"})
OPENAI_FIELDS = frozenset({"tool_calls", "tool_call_id", "function_call"})
#: When messages show signs of several formats, the first in this order wins.
PRIORITY = ("vercel", "sharegpt", "anthropic", "openai")
EXPECTED = (
    "expected a request ({messages, budget_chars, ...}), a list of {role, content} messages "
    "(OpenAI, Anthropic or Vercel AI SDK), a ShareGPT {conversations: [{from, value}]}, or an "
    "agent's log (Claude Code or Codex CLI JSONL)"
)


def detect_format(data: Any) -> str:
    """The name of the format ``data`` is in; raises :class:`FormatError` saying why none fits."""
    if isinstance(data, dict):
        if "conversations" in data:
            return "sharegpt"
        if isinstance(data.get("loglines"), list):
            return "claude-code"
        if "messages" not in data:
            return _not_a_conversation(data)
        messages = data["messages"]
        if not isinstance(messages, list):
            raise FormatError(
                [Problem(f"must be a list of messages, not {describe(messages)}", path="messages")]
            )
        kind = message_kind(messages, "messages", data)
        if kind == "messages" and "model" in data:
            return "openai"  # a Chat Completions request body
        if kind == "messages" and (set(data) <= {"messages"} or set(data) & set(PARAMETERS)):
            return "request"
        return kind
    if isinstance(data, list):
        if not data:
            raise FormatError([Problem(f"the list is empty; {EXPECTED}", path="$")])
        if all(isinstance(item, dict) and "conversations" in item for item in data):
            return "sharegpt"
        if claude_code.is_transcript(data):
            return "claude-code"
        if codex.is_rollout(data):
            return "codex"
        return message_kind(data, "")
    raise FormatError([Problem(f"the document is {describe(data)}; {EXPECTED}", path="$")])


def message_kind(
    messages: list[Any], base: str, envelope: dict | None = None, first: str | None = None
) -> str:
    """The format the messages' own shape shows: the formats' telltale fields and part types.

    ``base`` is where the list is; ``first`` names the first message (default ``base[0]``).
    """
    signs: set[str] = set()
    if envelope is not None and "system" in envelope:
        signs.add("anthropic")
    for message in messages:
        if isinstance(message, dict):
            signs |= _signs(message)
    for name in PRIORITY:
        if name in signs:
            return name
    if any(isinstance(m, dict) and "role" in m for m in messages):
        return "messages"
    if not messages:
        raise FormatError([Problem("there are no messages", path=base or "$")])
    where = first or at(base, 0)
    if not isinstance(messages[0], dict):
        raise FormatError(
            [Problem(f"a message must be an object, not {describe(messages[0])}", path=where)]
        )
    keys = _fields(messages[0])
    raise FormatError(
        [Problem(f"the message has no role (its fields: {keys}); {EXPECTED}", path=where)]
    )


def _signs(message: dict) -> set[str]:
    signs = set()
    if isinstance(message.get("parts"), list):
        signs.add("vercel")
    if "from" in message and "value" in message:
        signs.add("sharegpt")
    if OPENAI_FIELDS & message.keys() or message.get("role") in ("developer", "function"):
        signs.add("openai")
    content = message.get("content")
    if content is None and message.get("role") in ROLES:
        signs.add("openai")  # only Chat Completions has null contents
    if isinstance(content, list):
        for part in content:
            kind = type_of(part)
            if kind in ANTHROPIC_BLOCKS or (kind == "image" and "source" in part):
                signs.add("anthropic")
            elif kind in OPENAI_PARTS:
                signs.add("openai")
            elif kind in VERCEL_PARTS or (kind == "image" and "image" in part):
                signs.add("vercel")
    return signs


def _not_a_conversation(data: dict) -> str:
    if "role" in data and ("content" in data or "parts" in data):
        raise FormatError(
            [
                Problem(
                    "this is a single message; a conversation is a list of messages (in JSONL, "
                    "one message per line)",
                    path="$",
                )
            ]
        )
    keys = _fields(data)
    raise FormatError(
        [
            Problem(
                f"an object with no messages or conversations (its fields: {keys}); {EXPECTED}",
                path="$",
            )
        ]
    )


def _fields(data: dict) -> str:
    """The first fields of an object, each shortened: enough to recognise what it is."""
    names = [quoted(name) for name in list(data)[:8]]
    more = f" and {len(data) - 8:,} more" if len(data) > 8 else ""
    return (", ".join(names) or "none") + more
