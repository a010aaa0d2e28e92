"""The workspace: every conversation loaded into the explorer, kept in a local SQLite database.

Conversations are keyed by their content hash (:attr:`Conversation.key`), so a link's ``?c=KEY``
reopens the same messages on the same server, and loading a file twice keeps one entry. They are
a table of the explorer's database (:mod:`explorer.session.database`). A workspace that cannot
be written (a read-only disk) never stops the explorer: saving reports False and the
conversation is used as it is.
"""

from __future__ import annotations

import json
import logging
import re
import sqlite3
import time
from dataclasses import dataclass
from typing import Any

from compactor.formats import RecordedCompaction
from explorer.session import database
from explorer.session.conversation import Conversation

#: A conversation key as :func:`explorer.session.conversation.content_key` makes it.
KEY = re.compile(r"[0-9a-f]{24}")

log = logging.getLogger("explorer")

_SCHEMA = (
    """
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
""",
)


@dataclass(frozen=True)
class Entry:
    """A conversation of the workspace, as the sidebar lists it."""

    key: str
    label: str
    messages: int
    chars: int


def _body(conv: Conversation) -> str:
    return json.dumps(
        {
            "messages": list(conv.messages),
            "params": dict(conv.params),
            "tool_links": [list(link) for link in conv.tool_links],
            "sources": list(conv.sources),
            "removed_results": [list(r) for r in conv.removed_results],
            "compactions": [c.to_dict() for c in conv.compactions],
        },
        ensure_ascii=False,
    )


def save(conv: Conversation) -> bool:
    """Keep ``conv`` (a loaded file, paste or edit); True when it is in the workspace."""
    now = time.time()
    try:
        with database.connection(_SCHEMA) as db:
            db.execute(
                "insert into conversations values (?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict(key) "
                "do update set used = excluded.used",
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
    except (sqlite3.Error, OSError):
        log.exception("the workspace could not be written")
        return False
    return True


def get(key: str) -> Conversation | None:
    """The conversation with this key, or None (unknown here, or not a key at all)."""
    if not KEY.fullmatch(key):
        return None
    try:
        with database.connection(_SCHEMA) as db:
            row = db.execute(
                "select label, file_name, record, format, source, body from conversations "
                "where key = ?",
                (key,),
            ).fetchone()
            if row is not None:
                db.execute("update conversations set used = ? where key = ?", (time.time(), key))
    except (sqlite3.Error, OSError):
        log.exception("the workspace could not be read")
        return None
    if row is None:
        return None
    label, file_name, record, format, source, body = row
    data = json.loads(body)
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
    )
    return conv if conv.key == key else None


def _compaction(data: dict[str, Any]) -> RecordedCompaction:
    return RecordedCompaction(
        data["boundary"],
        data["summary"],
        data["trigger"],
        data["pre_tokens"],
        data["post_tokens"],
        data["source"],
    )


def recent(limit: int = 20) -> list[Entry]:
    """The conversations used most recently, newest first."""
    try:
        with database.connection(_SCHEMA) as db:
            rows = db.execute(
                "select key, label, body from conversations order by used desc limit ?", (limit,)
            ).fetchall()
    except (sqlite3.Error, OSError):
        log.exception("the workspace could not be read")
        return []
    out = []
    for key, label, body in rows:
        messages = json.loads(body)["messages"]
        out.append(Entry(key, label, len(messages), sum(len(m["content"]) for m in messages)))
    return out
