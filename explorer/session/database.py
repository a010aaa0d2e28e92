"""The explorer's one SQLite database: where it lives, and the one way to open it.

The database is ``workspace.sqlite3`` in the data folder: ``$COMPACTOR_EXPLORER_DATA`` when set,
else ``$XDG_DATA_HOME/compaction-explorer`` (``~/.local/share/compaction-explorer``); it is
created on first use. The workspace's conversations (:mod:`explorer.session.workspace`) and the
corpora with their runs (:mod:`explorer.session.corpus_store`) are tables of it; each states
its own tables, and every connection is opened and configured here.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from pathlib import Path

DATA_ENV = "COMPACTOR_EXPLORER_DATA"
DATABASE = "workspace.sqlite3"
#: Seconds a connection waits for another's write lock (two sessions saving at once).
TIMEOUT = 5


def data_folder() -> Path:
    given = os.environ.get(DATA_ENV)
    if given:
        return Path(given)
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "compaction-explorer"


@contextmanager
def connection(schema: Sequence[str]) -> Iterator[sqlite3.Connection]:
    """The database, its folder made and the ``schema`` statements (``create table if not
    exists``) run, inside one transaction committed on success; closed on leaving. Raises
    :class:`sqlite3.Error` or :class:`OSError` when the database cannot be opened or written."""
    folder = data_folder()
    folder.mkdir(parents=True, exist_ok=True)
    with closing(sqlite3.connect(folder / DATABASE, timeout=TIMEOUT)) as db:
        for statement in schema:
            db.execute(statement)
        with db:  # one transaction, committed on success
            yield db
