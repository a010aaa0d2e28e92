"""The loaded conversation: its messages, the parameters it came with, and where it came from."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from compactor.contract import (
    AGENT_LIMITS,
    CONTRACT_LIMITS,
    DEFAULTS,
    LIMITS,
    PARAMETERS,
    budget_range,
)

#: The request's parameters, in the contract's order.
PARAM_NAMES: tuple[str, ...] = PARAMETERS


def content_key(messages: Sequence[Mapping[str, Any]]) -> str:
    """A short fingerprint of the messages: the cache key of everything computed from them."""
    text = json.dumps(list(messages), ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:24]


def params_from(request: Mapping[str, Any], fallback: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters a request states; the others from the schema's defaults.

    ``budget_chars`` has no default in the schema; when the request does not state it (a bare
    messages array), it comes from ``fallback`` (the parameters in use before the load).
    """
    params: dict[str, Any] = {}
    for name in PARAM_NAMES:
        if name in request:
            value = request[name]
        elif name in DEFAULTS:
            value = DEFAULTS[name]
        else:
            value = fallback[name]
        params[name] = list(value) if name == "keep_roles" else value
    return params


@dataclass(frozen=True, eq=False)
class Conversation:
    """A valid conversation and its provenance; never holds parameters the sidebar changed.

    ``label`` is written by the explorer (a sample's name, "Pasted conversation", ...) and never
    holds text the user typed, so pages may show it anywhere. ``tool_links`` are the links between
    tool calls and tool results an import found (kept for the tool pairing check).
    """

    messages: tuple[Mapping[str, Any], ...]
    params: Mapping[str, Any]
    label: str
    source: str = "sample"  # sample | pasted | uploaded | edited | loaded
    sample: str | None = None
    format: str | None = None
    tool_links: tuple[Any, ...] = ()
    #: The file it came from, made safe to show anywhere (:func:`safe_name`); None when pasted.
    file_name: str | None = None
    record: int | None = None  # the record of a file that holds many conversations
    #: Where each message came from in the input (``messages[4]``, ``line 7``), when imported.
    sources: tuple[str, ...] = ()
    #: (calling message, call id) of each result the import removed (it was empty).
    removed_results: tuple[tuple[int, str], ...] = ()
    #: Tool messages whose call the import's window left out (``Conversion.window_orphans``).
    window_orphans: tuple[int, ...] = ()
    #: The compactions the log recorded (``RecordedCompaction``), for the Graded compactions page.
    compactions: tuple[Any, ...] = ()
    key: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", content_key(self.messages))

    @property
    def contents_chars(self) -> int:
        return sum(len(m["content"]) for m in self.messages)

    @property
    def limits(self) -> str:
        """The engine's limit mode for it: ``"agent"`` for a whole session over the contract's
        message or content limits (loaded whole, no window, no cut), else ``"contract"``."""
        return limits_of(self.messages)

    @property
    def budget_high(self) -> int:
        """The largest budget its mode takes (400,000; 2,000,000 in the agent mode)."""
        return budget_range(self.limits)[1]

    def request(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """The request for these messages with ``params``: a fresh dict, safe to hand out."""
        messages = [dict(m) for m in self.messages]
        out: dict[str, Any] = {"messages": messages}
        for name in PARAM_NAMES:
            value = params[name]
            out[name] = list(value) if name == "keep_roles" else value
        return out


def limits_of(messages: Sequence[Mapping[str, Any]]) -> str:
    """``"agent"`` when ``messages`` are over the contract's limits (more than 200 messages, or
    a content over 8,000 characters), else ``"contract"``: the mode ``limits="auto"`` picks."""
    if len(messages) > LIMITS["max_messages"]:
        return AGENT_LIMITS
    most = LIMITS["max_content_chars"]
    if any(len(str(m.get("content", ""))) > most for m in messages):
        return AGENT_LIMITS
    return CONTRACT_LIMITS


def safe_name(name: str | None, limit: int = 60) -> str | None:
    """A file name as the explorer may show it anywhere (labels, Markdown, download names):
    letters, digits and ``. - _ ( )`` kept, anything else (a path, Markdown, HTML) as ``-``."""
    if not name:
        return None
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    kept = "".join(c if c.isalnum() or c in "._-() " else "-" for c in base).strip(" .-")
    return kept[:limit] or None


def source_position(source: str | None) -> int | None:
    """The 0-based position a source names: ``messages[4]`` -> 4, ``line 7`` -> 6 (lines count
    from 1), ``[3].traj[5]`` -> 5 (the innermost list); None when it names none."""
    if not source:
        return None
    if source.startswith("line ") and "," not in source:
        digits = source[5:]
        return int(digits) - 1 if digits.isdigit() else None
    tail = source.rsplit("[", 1)
    if len(tail) == 2 and tail[1].rstrip("]").isdigit() and tail[1].endswith("]"):
        return int(tail[1][:-1])
    return None


def message_name(index: int, source: str | None = None) -> str:
    """``#3``, or ``#3 (source messages[4])`` where the source position differs."""
    if source and source_position(source) != index:
        return f"#{index} (source {source})"
    return f"#{index}"


#: The sidebar shows the whole request up to this many characters of message content.
DISPLAY_LIMIT = 20_000


def display_request(
    request: Mapping[str, Any], limit: int = DISPLAY_LIMIT
) -> tuple[dict[str, Any], str | None]:
    """The request as the sidebar shows it, and a note when its messages are left out.

    A request whose contents exceed ``limit`` characters is shown with its parameters only (the
    Output page has the whole request and its download), never with shortened contents that
    could be mistaken for the real ones.
    """
    messages = request["messages"]
    chars = sum(len(m.get("content", "")) for m in messages)
    if chars <= limit:
        return dict(request), None
    shown = {name: value for name, value in request.items() if name != "messages"}
    note = (
        f"messages: {len(messages):,} messages with {chars:,} characters of content, too long "
        "to show here; the Output page shows and downloads the whole request."
    )
    return shown, note
