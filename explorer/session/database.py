"""The explorer's one SQLite database: where it lives, and the one way to use it.

The database is ``workspace.sqlite3`` in the data folder: ``$COMPACTOR_EXPLORER_DATA`` when set,
else ``$XDG_DATA_HOME/compaction-explorer`` (``~/.local/share/compaction-explorer``); it is
created on first use. The workspace's conversations (:mod:`explorer.session.workspace`) and the
corpora with their runs (:mod:`explorer.corpus.store`) are tables of it; each states
its own tables (``prepare``), and every connection is opened and configured here.

The database must never stop a page, whatever state it is in. :func:`attempt` runs one piece of
work in one transaction and, when the database cannot be used, gives the caller's default and a
notice saying why (for the page to show):

- **a lock held by another process**: the first wait lasts at most :data:`BUSY_SECONDS`; after
  one ran out, no connection waits at all for :data:`QUIET_SECONDS` (each uses the database if it
  is free at that instant), so a page run waits on a lock for at most half a second in all;
- **a read-only folder** (or file, or disk): the database is opened read-only (``mode=ro``), so
  everything stored can still be read; writes are refused with a notice, at once;
- **a damaged file** (not a database, or truncated): it is moved aside, named in the notice,
  and a new one is made, on which the work runs again.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
Prepare = Callable[[sqlite3.Connection], None]

DATA_ENV = "COMPACTOR_EXPLORER_DATA"
DATABASE = "workspace.sqlite3"
#: The longest a connection waits for another's lock (two sessions saving at once).
BUSY_SECONDS = 0.5
#: After a wait for a lock ran out, connections do not wait for this long.
QUIET_SECONDS = 30.0
#: What SQLite says of a file that is not a database, or not a whole one.
_DAMAGED = {"SQLITE_CORRUPT", "SQLITE_NOTADB"}
_BUSY = {"SQLITE_BUSY", "SQLITE_LOCKED"}

log = logging.getLogger("explorer")
#: Until when (monotonic) connections do not wait for a lock; shared by every session of this
#: server, since they share the database and its locks.
_quiet_until = 0.0
_moving = threading.Lock()


class Unavailable(Exception):
    """The database cannot be used for this work; the message is the notice for the page."""


class _Nothing(Unavailable):
    """There is no database, and none can be made (a read-only folder): nothing to read."""


def data_folder() -> Path:
    given = os.environ.get(DATA_ENV)
    if given:
        return Path(given)
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "compaction-explorer"


def statements(*sql: str) -> Prepare:
    """A ``prepare`` that runs ``sql`` (``create table if not exists ...``)."""

    def prepare(db: sqlite3.Connection) -> None:
        for statement in sql:
            db.execute(statement)

    return prepare


def attempt(
    prepare: Prepare,
    work: Callable[[sqlite3.Connection], T],
    default: T,
    *,
    write: bool = False,
    wait: bool = True,
    notices: list[str] | None = None,
) -> T:
    """``work`` on the database in one transaction (committed when it returns), or ``default``
    when the database cannot be used; every notice is added to ``notices`` (and logged).

    ``write`` says that ``work`` writes (refused at once in a read-only folder); ``wait=False``
    never waits for a lock (for a write that may be skipped, like a last-used time).
    """
    found: list[str] = []
    try:
        return run(prepare, work, write=write, wait=wait, notices=found)
    except _Nothing:
        return default
    except Unavailable as error:
        found.append(str(error))
        return default
    finally:
        for notice in found:
            log.warning("workspace: %s", notice)
            if notices is not None and notice not in notices:
                notices.append(notice)


def run(
    prepare: Prepare,
    work: Callable[[sqlite3.Connection], T],
    *,
    write: bool = False,
    wait: bool = True,
    notices: list[str],
) -> T:
    """:func:`attempt`, raising :class:`Unavailable` instead of giving a default."""
    try:
        return _once(prepare, work, write, wait)
    except _Damaged as damaged:
        notices.append(_move_aside(damaged.path, damaged.inode, damaged.reason))
        return _once(prepare, work, write, wait)


def _once(prepare: Prepare, work: Callable[[sqlite3.Connection], T], write: bool, wait: bool) -> T:
    path = data_folder() / DATABASE
    writable = _writable(path)
    if not writable and write:
        raise Unavailable(_read_only(path, "this could not be kept"))
    if not writable and not path.exists():
        raise _Nothing
    inode = _inode(path)
    try:
        db = _connect(path, writable, _wait_seconds(wait))
    except sqlite3.Error as error:
        raise _unavailable(error, path, inode) from None
    try:
        with db:  # one transaction, committed on success
            if writable:
                prepare(db)
            return work(db)
    except sqlite3.Error as error:
        raise _unavailable(error, path, inode if inode is not None else _inode(path)) from None
    finally:
        db.close()


def _connect(path: Path, writable: bool, timeout: float) -> sqlite3.Connection:
    """A connection to ``path``: read-write (the folder made), or read-only (``mode=ro``)."""
    if writable:
        path.parent.mkdir(parents=True, exist_ok=True)
        return sqlite3.connect(path, timeout=timeout)
    return sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=timeout)


def _writable(path: Path) -> bool:
    """Whether the database can be written: its folder (for the journal) and the file itself.

    ``os.access`` answers for the effective user, root included: a read-only mount or an
    immutable folder is not writable even for root.
    """
    folder = path.parent
    while not folder.exists():
        if folder.parent == folder:
            return False
        folder = folder.parent
    if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
        return False
    return not path.exists() or os.access(path, os.R_OK | os.W_OK)


def _wait_seconds(wait: bool) -> float:
    return BUSY_SECONDS if wait and time.monotonic() >= _quiet_until else 0.0


class _Damaged(Exception):
    def __init__(self, path: Path, inode: int | None, reason: str):
        super().__init__(reason)
        self.path, self.inode, self.reason = path, inode, reason


def _unavailable(error: sqlite3.Error, path: Path, inode: int | None) -> Exception:
    global _quiet_until
    name = getattr(error, "sqlite_errorname", "")
    if name in _BUSY or "locked" in str(error):
        _quiet_until = time.monotonic() + QUIET_SECONDS
        return Unavailable(
            f"The workspace database `{path}` is locked by another program, so this page goes "
            "on without it for now (nothing was kept or read from it this time); it is tried "
            "again on later runs."
        )
    if name in _DAMAGED and _writable(path):
        return _Damaged(path, inode, str(error))
    if name in _DAMAGED:
        return Unavailable(
            f"The workspace database `{path}` is damaged ({error}) and its folder is read-only, "
            "so it cannot be moved aside; this page goes on without it."
        )
    return Unavailable(f"The workspace database `{path}` cannot be used ({error})")


def _move_aside(path: Path, inode: int | None, reason: str) -> str:
    """Rename a damaged database (and its journal) out of the way; the notice saying where.

    Only the very file that failed is moved (by its inode): another session may already have
    moved it and made a new one in its place.
    """
    aside = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
    with _moving:
        if inode is None or _inode(path) != inode:
            return f"The workspace database `{path}` was damaged and has been replaced"
        n = 1
        while aside.exists():
            n += 1
            aside = aside.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}-{n}")
        try:
            os.replace(path, aside)
            for suffix in ("-journal", "-wal", "-shm"):
                companion = path.with_name(path.name + suffix)
                if companion.exists():
                    os.replace(companion, aside.with_name(aside.name + suffix))
        except OSError as error:
            raise Unavailable(
                f"The workspace database `{path}` is damaged ({reason}) and could not be moved "
                f"aside ({error.strerror}); this page goes on without it."
            ) from None
    return (
        f"The workspace database `{path}` was damaged ({reason}); it was moved aside to "
        f"`{aside}` and a new one was made. Conversations kept before are in the moved file."
    )


def _inode(path: Path) -> int | None:
    try:
        return path.stat().st_ino
    except OSError:
        return None


def _read_only(path: Path, what: str) -> str:
    return f"The workspace folder `{path.parent}` cannot be written (read-only), so {what}."


def columns(db: sqlite3.Connection, table: str) -> set[str]:
    """The names of ``table``'s columns (none when it does not exist)."""
    return {row[1] for row in db.execute(f"pragma table_info({table})")}


def add_columns(db: sqlite3.Connection, table: str, wanted: Iterable[tuple[str, str]]) -> bool:
    """Add each ``(name, definition)`` column ``table`` lacks; whether any was added."""
    have = columns(db, table)
    added = False
    for name, definition in wanted:
        if name not in have:
            db.execute(f"alter table {table} add column {name} {definition}")
            added = True
    return added
