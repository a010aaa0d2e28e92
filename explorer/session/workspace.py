"""The workspace: every conversation loaded into the explorer, kept in a local SQLite database.

Conversations are keyed by their content hash (:attr:`Conversation.key`), so a link's ``?c=KEY``
reopens the same messages on the same server, and loading a file twice keeps one entry. They are
two tables of the explorer's database (:mod:`explorer.session.database`): ``conversations``
holds each one whole (its ``body``, read only when it is opened), ``conversation_entries`` what
the sidebar lists (label, counts, last use), so listing reads no body and marking one used
rewrites no body.

Whatever state the database is in, the explorer goes on: each function takes a ``notices``
list and adds what the page should say (a damaged entry skipped, by name; a damaged file moved
aside; a lock held elsewhere; a read-only folder), and gives what it could (None, [], False).
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from compactor.formats import RecordedCompaction
from explorer.session import database
from explorer.session.conversation import Conversation

#: A conversation key as :func:`explorer.session.conversation.content_key` makes it.
KEY = re.compile(r"[0-9a-f]{24}")
#: A label a notice may repeat: the characters the explorer's own labels are made of.
_SAFE_LABEL = re.compile(r"[\w .,:#()-]{1,120}")

_CONVERSATIONS = """
create table if not exists conversations (
    key text primary key,
    label text not null,
    file_name text,
    record integer,
    format text,
    source text not null,
    body text not null,
    created real not null,
    used real not null
)
"""
_ENTRIES = """
create table if not exists conversation_entries (
    key text primary key,
    label text not null,
    messages integer not null,
    chars integer not null,
    used real not null,
    damaged integer not null default 0
)
"""
#: ``conversation_entries.damaged``: readable; found damaged, not yet named in a notice; named.
FINE, DAMAGED, NAMED = 0, 1, 2


@dataclass(frozen=True)
class Entry:
    """A conversation of the workspace, as the sidebar lists it (counts None when unknown)."""

    key: str
    label: str
    messages: int | None
    chars: int | None


class Damaged(ValueError):
    """A stored conversation that cannot be read back; says what is wrong with it."""


def _prepare(db: sqlite3.Connection) -> None:
    db.execute(_CONVERSATIONS)
    db.execute(_ENTRIES)
    # A database from before the entries table: list its conversations once (reading each
    # body this one time); an entry that cannot be read is listed as damaged.
    missing = db.execute(
        "select key from conversations where key not in (select key from conversation_entries)"
    ).fetchall()
    for (key,) in missing:
        label, body, used = db.execute(
            "select label, body, used from conversations where key = ?", (key,)
        ).fetchone()
        try:
            messages, chars = _counts(_decode(body).get("messages"))
        except Damaged:
            messages, chars, damaged = 0, 0, DAMAGED
        else:
            damaged = FINE
        db.execute(
            "insert into conversation_entries values (?, ?, ?, ?, ?, ?)",
            (key, str(label), messages, chars, used, damaged),
        )


def _body(conv: Conversation) -> str:
    return json.dumps(
        {
            "messages": list(conv.messages),
            "params": dict(conv.params),
            "tool_links": [list(link) for link in conv.tool_links],
            "sources": list(conv.sources),
            "removed_results": [list(r) for r in conv.removed_results],
            "window_orphans": list(conv.window_orphans),
            "compactions": [c.to_dict() for c in conv.compactions],
        },
        ensure_ascii=False,
    )


def _counts(messages: Any) -> tuple[int, int]:
    try:
        return len(messages), sum(len(m["content"]) for m in messages)
    except (TypeError, KeyError) as error:
        raise Damaged(f"its messages are not as the explorer keeps them ({error!r})") from None


def save(conv: Conversation, notices: list[str] | None = None) -> bool:
    """Keep ``conv`` (a loaded file, paste or edit); True when it is in the workspace (stored
    now, or before: a read-only workspace that holds it still has it)."""
    now = time.time()
    messages, chars = _counts(conv.messages)

    def write(db: sqlite3.Connection) -> bool:
        db.execute(
            "insert into conversations values (?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict(key) "
            "do update set body = excluded.body where conversations.key in "
            "(select key from conversation_entries where damaged > 0)",
            (
                conv.key,
                conv.label,
                conv.file_name,
                conv.record,
                conv.format,
                conv.source,
                _body(conv),
                now,
                now,
            ),
        )
        db.execute(
            "insert into conversation_entries values (?, ?, ?, ?, ?, 0) on conflict(key) "
            "do update set used = excluded.used, damaged = 0",
            (conv.key, conv.label, messages, chars, now),
        )
        return True

    found: list[str] = []
    if database.attempt(_prepare, write, False, write=True, notices=found):
        _forward(found, notices)
        return True

    def stored(db: sqlite3.Connection) -> bool:
        row = db.execute("select 1 from conversations where key = ?", (conv.key,)).fetchone()
        return row is not None

    if database.attempt(_prepare, stored, False, wait=False):
        return True  # a read-only workspace that already holds it: a link still reopens it
    _forward(found, notices)
    return False


def get(key: str, notices: list[str] | None = None) -> Conversation | None:
    """The conversation with this key, or None (unknown here, not a key at all, or damaged:
    then named in a notice and no longer listed)."""
    if not KEY.fullmatch(key):
        return None

    def read(db: sqlite3.Connection) -> tuple[Any, ...] | None:
        return db.execute(
            "select label, file_name, record, format, source, body from conversations "
            "where key = ?",
            (key,),
        ).fetchone()

    row = database.attempt(_prepare, read, None, notices=notices)
    if row is None:
        return None
    label, file_name, record, format, source, body = row
    try:
        conv = _conversation(key, label, file_name, record, format, source, body)
    except Damaged as damaged:
        _mark(key, NAMED)
        named = _named(label, key)
        _forward(
            [
                f"The workspace's conversation {named} cannot be read back ({damaged}); it is "
                "skipped and no longer listed. Load its file again to keep it."
            ],
            notices,
        )
        return None
    # Marking it used is a write of its own, never waited for: a read-only or busy workspace
    # still opens every conversation it holds.
    database.attempt(
        _prepare,
        lambda db: db.execute(
            "update conversation_entries set used = ? where key = ?", (time.time(), key)
        ),
        None,
        write=True,
        wait=False,
    )
    return conv


def _conversation(
    key: str, label: Any, file_name: Any, record: Any, format: Any, source: Any, body: Any
) -> Conversation:
    data = _decode(body)
    try:
        conv = Conversation(
            messages=tuple(data["messages"]),
            params=data["params"],
            label=label,
            source=source,
            format=format,
            tool_links=tuple(tuple(link) for link in data["tool_links"]),
            file_name=file_name,
            record=record,
            sources=tuple(data["sources"]),
            removed_results=tuple((i, call) for i, call in data["removed_results"]),
            compactions=tuple(_compaction(c) for c in data.get("compactions", ())),
            window_orphans=tuple(int(i) for i in data.get("window_orphans", ())),
        )
        _counts(conv.messages)
        same = conv.key == key
    except (TypeError, KeyError, ValueError, AttributeError) as error:
        raise Damaged(f"it is not as the explorer keeps conversations ({error!r})") from None
    if not same:
        raise Damaged("its messages do not match its key")
    return conv


def _decode(body: Any) -> Mapping[str, Any]:
    try:
        data = json.loads(body)
    except (TypeError, ValueError, RecursionError) as error:
        raise Damaged(f"what is stored is not JSON: {str(error)[:80]}") from None
    if not isinstance(data, dict):
        raise Damaged("what is stored is not a JSON object")
    return data


def _mark(key: str, damaged: int) -> None:
    """Mark an entry damaged (or named), if the workspace can be written now."""
    database.attempt(
        _prepare,
        lambda db: db.execute(
            "update conversation_entries set damaged = ? where key = ?", (damaged, key)
        ),
        None,
        write=True,
        wait=False,
    )


def _compaction(data: dict[str, Any]) -> RecordedCompaction:
    return RecordedCompaction(
        data["boundary"],
        data["summary"],
        data["trigger"],
        data["pre_tokens"],
        data["post_tokens"],
        data["source"],
    )


def recent(limit: int = 20, notices: list[str] | None = None) -> list[Entry]:
    """The conversations used most recently, newest first, from the entries alone (no body is
    read); an entry that is not as the explorer writes them is skipped and named."""

    def read(db: sqlite3.Connection) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        if not database.columns(db, "conversation_entries"):
            # an old database in a read-only folder, never listed: labels only
            return db.execute(
                "select key, label, null, null from conversations order by used desc limit ?",
                (limit,),
            ).fetchall(), []
        listed = db.execute(
            "select key, label, messages, chars from conversation_entries where damaged = ? "
            "order by used desc limit ?",
            (FINE, limit),
        ).fetchall()
        found = db.execute(
            "select key, label from conversation_entries where damaged = ?", (DAMAGED,)
        ).fetchall()
        return listed, found

    listed, found = database.attempt(_prepare, read, ([], []), notices=notices)
    for key, label in found:  # damaged entries the listing found (an older database's)
        _forward(
            [
                f"The workspace's conversation {_named(label, key)} cannot be read back (what "
                "is stored is not a conversation); it is skipped. Load its file again to keep it."
            ],
            notices,
        )
        _mark(key, NAMED)
    out = []
    for key, label, messages, chars in listed:
        counts_ok = all(n is None or _count(n) for n in (messages, chars))
        if isinstance(key, str) and KEY.fullmatch(key) and isinstance(label, str) and counts_ok:
            out.append(Entry(key, label, messages, chars))
        else:
            _forward(
                [f"The workspace's entry {_named(label, key)} is damaged; it is skipped."],
                notices,
            )
    return out


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _named(label: Any, key: Any) -> str:
    """An entry as a notice names it: its label and key, or as much of them as is safe to show
    (a damaged row may hold anything; a notice must not render it as Markdown)."""
    safe_key = f"`{key}`" if isinstance(key, str) and KEY.fullmatch(key) else "without a valid key"
    if isinstance(label, str) and _SAFE_LABEL.fullmatch(label):
        return f'"{label}" {safe_key}'
    return safe_key


def _forward(found: list[str], notices: list[str] | None) -> None:
    if notices is not None:
        notices.extend(n for n in found if n not in notices)
