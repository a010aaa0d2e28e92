"""Claude Code session transcripts: the JSONL it writes (one record a line, in
``~/.claude/projects/<project>/<session>.jsonl``) and the JSON export ``{"loglines": [...]}``.

Records of type ``user`` and ``assistant`` hold an Anthropic message under ``message``. Claude
Code writes each content block of one model response on its own line with the same
``message.id``, so consecutive assistant lines of one id are read as one message again (parallel
tool calls stay together). ``tool_use`` blocks become call lines in the assistant's text with
their ids; ``tool_result`` blocks (in user records) become tool messages with the
``tool_use_id``. Every other record (``summary``, ``system``, ``queue-operation``,
``file-history-snapshot``, ``progress``, ...) is Claude Code's own bookkeeping: skipped, each kind
reported once. A subagent's records (``isSidechain``) inside a main session are skipped too; a
file that holds only a subagent's records is read as that subagent's conversation.
"""

from __future__ import annotations

from typing import Any

from compactor.errors import FormatError, Problem
from compactor.formats.anthropic import read_block
from compactor.formats.builder import Builder, at, describe
from compactor.formats.chat import read_role
from compactor.formats.skips import Skips
from compactor.formats.turns import Turn
from compactor.formats.types import Conversion

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
    records = [(s, r) for s, r in items if isinstance(r, dict)]
    messages = [r for _, r in records if _is_message(r)]
    if not messages:
        raise FormatError([Problem("the transcript has no user or assistant records", path="$")])
    subagent_only = all(r.get("isSidechain") is True for r in messages)
    turn: Turn | None = None
    turn_id: Any = None
    for source, record in items:
        if not isinstance(record, dict):
            b.problem(f"a transcript record must be an object, not {describe(record)}", source)
            continue
        if not _is_message(record):
            skips.add(f"type {record.get('type')!r}", source)
            continue
        if record.get("isSidechain") is True and not subagent_only:
            skips.add("a subagent's messages (isSidechain)", source)
            continue
        message = record["message"]
        where = at(source, "message")
        message_id = message.get("id") if isinstance(message.get("id"), str) else None
        same = (
            turn is not None
            and record["type"] == "assistant"
            and message_id is not None
            and message_id == turn_id
        )
        if not same:
            if turn is not None:
                turn.close()
            role = read_role(b, message, where, {})
            if role is None:
                turn = None
                continue
            turn = Turn(b, role, where, message_id if role == "assistant" else None)
            turn_id = message_id
        _content(b, turn, message.get("content"), at(where, "content"))
        skips.envelope([name for name in record if name not in ("type", "message")])
        for name in message:
            if name not in MESSAGE_FIELDS:
                b.ignore(name, at(where, name))
    if turn is not None:
        turn.close()
    skips.report(b)
    return b.finish()


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
