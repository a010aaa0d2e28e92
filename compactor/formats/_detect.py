"""What detection reads of a parsed document: its envelope, the kind of message its messages
show (each format's telltale fields and part types), and why it is in no format when none fits."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from compactor.contract import PARAMETERS, ROLES
from compactor.errors import FormatError, Problem, quoted
from compactor.formats._builder import at, describe, type_of

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
    "(OpenAI, Anthropic or Vercel AI SDK), OpenAI Responses items, LangChain messages, a "
    "ShareGPT {conversations: [{from, value}]}, records holding conversations, or an agent's log "
    "(Claude Code or Codex CLI JSONL)"
)


@dataclass(frozen=True)
class Shape:
    """A parsed document as detection reads it: the object around the messages (when it is
    one) and the kind of message the messages show, found once for every format's test."""

    data: Any

    @property
    def envelope(self) -> dict[str, Any] | None:
        return self.data if isinstance(self.data, dict) else None

    @cached_property
    def kind(self) -> str | None:
        """The format the messages' own shape shows (:func:`message_kind`), None when they
        show none: no messages, or messages without a role."""
        envelope = self.envelope
        messages = envelope.get("messages") if envelope is not None else self.data
        if not isinstance(messages, list) or not (messages or envelope):
            return None
        try:
            return message_kind(messages, "messages" if envelope else "", envelope)
        except FormatError:
            return None

    def request_envelope(self) -> bool:
        """Role-and-content messages in an object that holds only them or the parameters."""
        envelope = self.envelope
        if envelope is None or self.kind != "messages":
            return False
        return set(envelope) <= {"messages"} or bool(set(envelope) & set(PARAMETERS))


def undetected(data: Any) -> FormatError:
    """Why ``data`` is in no format: the error that names what it is and what was expected."""
    if isinstance(data, dict):
        if "messages" not in data:
            return _not_a_conversation(data)
        messages = data["messages"]
        if not isinstance(messages, list):
            return FormatError(
                [Problem(f"must be a list of messages, not {describe(messages)}", path="messages")]
            )
        return _kind_error(messages, "messages", data)
    if isinstance(data, list):
        if not data:
            return FormatError([Problem(f"the list is empty; {EXPECTED}", path="$")])
        return _kind_error(data, "")
    return FormatError([Problem(f"the document is {describe(data)}; {EXPECTED}", path="$")])


def _kind_error(messages: list[Any], base: str, envelope: dict | None = None) -> FormatError:
    try:
        message_kind(messages, base, envelope)
    except FormatError as error:
        return error
    return FormatError([Problem(EXPECTED[0].upper() + EXPECTED[1:], path=base or "$")])


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
    if content is None and isinstance(message.get("role"), str) and message["role"] in ROLES:
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


def _not_a_conversation(data: dict) -> FormatError:
    if "role" in data and ("content" in data or "parts" in data):
        return FormatError(
            [
                Problem(
                    "this is a single message; a conversation is a list of messages (in JSONL, "
                    "one message per line)",
                    path="$",
                )
            ]
        )
    keys = _fields(data)
    return FormatError(
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
