"""Claude Code session transcripts: the JSONL it writes (one record a line, in
``~/.claude/projects/<project>/<session>.jsonl``) and the JSON export ``{"loglines": [...]}``.

Records of type ``user`` and ``assistant`` hold an Anthropic message under ``message``. Claude
Code writes each content block of one model response on its own line with the same
``message.id``, so consecutive assistant lines of one id are read as one message again (parallel
tool calls stay together). ``tool_use`` blocks become call lines in the assistant's text with
their ids; ``tool_result`` blocks (in user records) become tool messages with the
``tool_use_id``. A compaction Claude Code recorded (a ``system`` record of subtype
``compact_boundary`` with ``compactMetadata`` {trigger, preTokens, postTokens}, then the ``user``
record marked ``isCompactSummary`` holding the summary it wrote) is kept in the conversion's
``compactions``, the summary with it: the summary is not a message of the request (the user did
not write it; the history it replaced is in the request whole). Every other record (``summary``,
``system``, ``queue-operation``,
``file-history-snapshot``, ``progress``, ...) is Claude Code's own bookkeeping: skipped, each kind
reported once. A subagent's records (``isSidechain``) inside a main session are skipped too; a
file that holds only a subagent's records is read as that subagent's conversation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from compactor.errors import FormatError, Problem
from compactor.formats._anthropic import read_block
from compactor.formats._builder import Builder, at, describe
from compactor.formats._chat import read_role
from compactor.formats._skips import Skips
from compactor.formats._turns import Turn
from compactor.formats._types import Conversion

MESSAGE_TYPES = ("user", "assistant")
#: Fields of an Anthropic message that a request has no place for and that say nothing lost.
MESSAGE_FIELDS = frozenset(
    {"role", "content", "id", "model", "type", "stop_reason", "stop_sequence", "usage"}
)


def is_transcript(values: list[Any]) -> bool:
    """True when the records look like Claude Code's: user/assistant records with a message."""
    return any(isinstance(v, dict) and _is_message(v) for v in values)


def convert_export(data: Any) -> Conversion:
    """The JSON export, ``{"loglines": [record, ...]}``."""
    lines = data.get("loglines") if isinstance(data, dict) else None
    if not isinstance(lines, list):
        raise FormatError([Problem("must be a list of transcript records", path="loglines")])
    return _convert([(at("loglines", i), line) for i, line in enumerate(lines)])


def convert_lines(items: list[tuple[str, Any]]) -> Conversion:
    """The JSONL transcript, as ``(source, record)`` pairs (``("line 3", {...})``)."""
    return _convert(items)


def _convert(items: list[tuple[str, Any]]) -> Conversion:
    b = Builder("claude-code")
    skips = Skips("Claude Code's own records, not messages")
    subagent_only = _only_a_subagent(items)
    current: _Open | None = None
    for source, record in items:
        if not isinstance(record, dict):
            b.problem(f"a transcript record must be an object, not {describe(record)}", source)
            continue
        compaction = _compaction_part(record, subagent_only)
        if compaction is not None:
            current = _closed(current)
            _record(b, compaction, record, source)
            continue
        skipped = _skipped_as(record, subagent_only)
        if skipped is not None:
            skips.add(skipped, source)
            continue
        where = at(source, "message")
        current = _turn_for(b, current, record["message"], record["type"], where)
        if current is not None:
            _read_message(b, skips, current.turn, record, where)
    if current is not None:
        current.turn.close()
    skips.report(b)
    return b.finish()


@dataclass(frozen=True)
class _Open:
    """The message being read, and the ``message.id`` its later lines would carry."""

    turn: Turn
    id: str | None


def _only_a_subagent(items: list[tuple[str, Any]]) -> bool:
    """Whether every message record is a subagent's (then they are the conversation read);
    a problem when there is no message record at all."""
    messages = [r for _, r in items if isinstance(r, dict) and _is_message(r)]
    if not messages:
        raise FormatError([Problem("the transcript has no user or assistant records", path="$")])
    return all(r.get("isSidechain") is True for r in messages)


def _compaction_part(record: dict, subagent_only: bool) -> str | None:
    """``"boundary"`` or ``"summary"`` for the records of a compaction; None for the others
    (a subagent's own compactions are skipped with its records)."""
    if record.get("isSidechain") is True and not subagent_only:
        return None
    if record.get("type") == "system" and record.get("subtype") == "compact_boundary":
        return "boundary"
    if record.get("isCompactSummary") is True and _is_message(record):
        return "summary"
    return None


def _closed(current: _Open | None) -> None:
    """Close the open message: nothing after a compaction continues it."""
    if current is not None:
        current.turn.close()


def _record(b: Builder, part: str, record: dict, source: str) -> None:
    """A compaction's boundary (its metadata) or its summary (the text) into ``b``."""
    if part == "boundary":
        meta = record.get("compactMetadata")
        unreadable = ()
        if meta is not None and not isinstance(meta, dict):
            unreadable = (f"compactMetadata is not an object ({type(meta).__name__})",)
        meta = meta if isinstance(meta, dict) else record
        b.compactions.boundary(
            len(b.drafts),
            source,
            meta.get("trigger"),
            meta.get("preTokens"),
            meta.get("postTokens"),
            unreadable,
        )
        return
    where = at(source, "message", "content")
    b.compactions.summary(len(b.drafts), _summary_text(record["message"].get("content")), where)


def _summary_text(content: Any) -> str:
    """The text of a summary message: its string, or its text blocks joined by a blank line."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    texts = [
        block["text"]
        for block in content
        if isinstance(block, dict)
        and block.get("type") == "text"
        and isinstance(block.get("text"), str)
    ]
    return "\n\n".join(t for t in texts if t)


def _skipped_as(record: dict, subagent_only: bool) -> str | None:
    """The kind of record this is, when it is skipped; None for a message to read."""
    if not _is_message(record):
        return f"type {record.get('type')!r}"
    if record.get("isSidechain") is True and not subagent_only:
        return "a subagent's messages (isSidechain)"
    return None


def _turn_for(
    b: Builder, current: _Open | None, message: dict, kind: str, where: str
) -> _Open | None:
    """The turn a message's content goes to: the open one when the line continues its assistant
    message, else a new one (the open one closed); None when the message has no usable role."""
    message_id = message.get("id") if isinstance(message.get("id"), str) else None
    if _continues(current, kind, message_id):
        return current
    if current is not None:
        current.turn.close()
    role = read_role(b, message, where, {})
    if role is None:
        return None
    return _Open(Turn(b, role, where, message_id if role == "assistant" else None), message_id)


def _continues(current: _Open | None, kind: str, message_id: str | None) -> bool:
    """Whether a line is another block of the open assistant message (the same message id)."""
    return (
        current is not None
        and kind == "assistant"
        and message_id is not None
        and message_id == current.id
    )


def _read_message(b: Builder, skips: Skips, turn: Turn, record: dict, where: str) -> None:
    """The message's content into ``turn``; the fields around it reported as not kept."""
    message = record["message"]
    _content(b, turn, message.get("content"), at(where, "content"))
    skips.envelope([name for name in record if name not in ("type", "message")])
    for name in message:
        if name not in MESSAGE_FIELDS:
            b.ignore(name, at(where, name))


def _is_message(record: dict) -> bool:
    return record.get("type") in MESSAGE_TYPES and isinstance(record.get("message"), dict)


def _content(b: Builder, turn: Turn, content: Any, where: str) -> None:
    if isinstance(content, str):
        turn.text(content, where)
    elif isinstance(content, list):
        for j, block in enumerate(content):
            read_block(b, turn, block, at(where, j))
    elif content is not None:
        b.problem(f"content must be text or a list of blocks, not {describe(content)}", where)
