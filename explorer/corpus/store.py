"""Corpora loaded on the Corpus page and the results of evaluating them, kept in the workspace's
SQLite database (:mod:`explorer.session.database`), so reopening a corpus shows its results
without a re-run.

A corpus is keyed by the hash of its conversations (loading the same file twice keeps one
entry); a run by the corpus and its grid (the settings and the budgets), so running the same
grid again replaces its rows. As with the workspace, a database that cannot be written never
stops the page (:func:`explorer.session.database.attempt`): saving reports False and the results
are used as they are; the lists of corpora and runs come from covering indexes, so listing them
reads none of the stored conversations or rows.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from compactor.analyses.outcomes import Probe
from compactor.evaluation import CorpusItem
from compactor.formats import RecordedCompaction
from explorer.session import database, workspace
from explorer.session.conversation import Conversation, params_from

log = logging.getLogger("explorer")

_PREPARE = database.statements(
    """
    create table if not exists corpora (
        key text primary key,
        name text not null,
        format text,
        items text not null,
        conversations integer not null,
        created real not null,
        used real not null
    )
    """,
    """
    create table if not exists corpus_runs (
        corpus text not null references corpora(key) on delete cascade,
        grid text not null,
        rows text not null,
        row_count integer not null,
        created real not null,
        primary key (corpus, grid)
    )
    """,
    # The lists of corpora and of runs are read from these indexes alone (each covers its
    # query), so a page run that lists them reads none of the conversations or rows.
    "create index if not exists corpora_listed on corpora (used, key, name, conversations)",
    "create index if not exists corpus_runs_listed "
    "on corpus_runs (corpus, created, grid, row_count)",
)


@dataclass(frozen=True)
class Corpus:
    """A corpus as the page holds it: a label (the explorer's own words), the conversations."""

    key: str
    name: str
    format: str | None
    items: tuple[CorpusItem, ...]


@dataclass(frozen=True)
class CorpusEntry:
    """A stored corpus, as the page's list of corpora shows it."""

    key: str
    name: str
    conversations: int
    runs: int


@dataclass(frozen=True)
class Run:
    """An evaluation of a corpus: the settings, the budgets (None: every budget of the sweep),
    and the engine's rows."""

    settings: tuple[dict[str, Any], ...]
    budgets: tuple[int, ...] | None
    rows: tuple[dict[str, Any], ...]
    created: float = 0.0

    @property
    def grid(self) -> str:
        return grid_key(self.settings, self.budgets)


def safe_record(conversation: Any, limit: int = 80) -> str:
    """A conversation's name in its corpus as the explorer may show it anywhere (labels,
    Markdown): ``record 3``, or a folder's ``PATH#i`` with letters, digits and ``. - _ ( ) # /``
    kept and anything else as ``-``."""
    if isinstance(conversation, int) and not isinstance(conversation, bool):
        return f"record {conversation}"
    text = str(conversation)
    kept = "".join(c if c.isalnum() or c in "._-()#/ " else "-" for c in text).strip()
    return kept[:limit] or "a conversation"


def conversation_of(corpus: Corpus, item: CorpusItem, fallback: Mapping[str, Any]) -> Conversation:
    """One conversation of ``corpus`` as the single-conversation views load it: its messages,
    the parameters its request states (the others from ``fallback``), its tool links."""
    record = item.conversation
    return Conversation(
        messages=tuple(dict(m) for m in item.request["messages"]),
        params=params_from(item.request, fallback),
        label=f"Corpus {corpus.name}, {safe_record(record)}",
        source="loaded",
        format=corpus.format,
        tool_links=tuple(item.tool_links),
        file_name=corpus.name,
        record=record if isinstance(record, int) and not isinstance(record, bool) else None,
    )


def grid_key(settings: Sequence[Mapping[str, Any]], budgets: Sequence[int] | None) -> str:
    """A grid as canonical JSON: the key of its run."""
    return json.dumps(
        {
            "settings": [dict(s) for s in settings],
            "budgets": None if budgets is None else list(budgets),
        },
        sort_keys=True,
        ensure_ascii=False,
    )


def _items_json(items: Sequence[CorpusItem]) -> str:
    return json.dumps(
        [
            {
                "conversation": i.conversation,
                "request": i.request,
                "tool_links": [list(link) for link in i.tool_links],
                # only when there are any, so a corpus without probes keeps its key
                **({"probes": [p.to_dict() for p in i.probes]} if i.probes else {}),
                # the record's own id, by which a question set may name it (when it has one)
                **({"record_id": i.record_id} if i.record_id is not None else {}),
                # the compactions its log recorded, which the re-read columns judge
                **(
                    {"compactions": [_compaction(c) for c in i.compactions]}
                    if i.compactions
                    else {}
                ),
            }
            for i in items
        ],
        ensure_ascii=False,
        sort_keys=True,
    )


_COMPACTION_FIELDS = ("boundary", "summary", "trigger", "pre_tokens", "post_tokens", "source")


def _compaction(found: RecordedCompaction) -> dict[str, Any]:
    return {name: getattr(found, name) for name in _COMPACTION_FIELDS}


def corpus_key(items: Sequence[CorpusItem]) -> str:
    """The fingerprint of a corpus: its conversations and their requests, in order."""
    text = _items_json(items)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:24]


def save_corpus(
    name: str,
    format: str | None,
    items: Sequence[CorpusItem],
    notices: list[str] | None = None,
) -> Corpus:
    """Keep a corpus (one entry per content) and give it back with its key.

    ``name`` must be the explorer's own words (a file name made safe); a corpus that cannot be
    kept is still returned, to be used for this session.
    """
    corpus = Corpus(corpus_key(items), name, format, tuple(items))
    now = time.time()
    database.attempt(
        _PREPARE,
        lambda db: db.execute(
            "insert into corpora values (?, ?, ?, ?, ?, ?, ?) on conflict(key) "
            "do update set used = excluded.used, name = excluded.name",
            (corpus.key, name, format, _items_json(items), len(items), now, now),
        ),
        None,
        write=True,
        notices=notices,
    )
    return corpus


def get_corpus(key: str, notices: list[str] | None = None) -> Corpus | None:
    """The stored corpus with this key, or None (unknown here, not a key at all, or damaged:
    then named in a notice)."""
    if not workspace.KEY.fullmatch(key):
        return None
    row = database.attempt(
        _PREPARE,
        lambda db: db.execute(
            "select name, format, items from corpora where key = ?", (key,)
        ).fetchone(),
        None,
        notices=notices,
    )
    if row is None:
        return None
    name, format, items = row
    try:
        loaded = _items(items)
    except (TypeError, KeyError, ValueError, RecursionError) as error:
        log.warning("workspace: corpus %s cannot be read back: %r", key, error)
        if notices is not None:
            notices.append(
                f"The workspace's corpus `{key}` cannot be read back (it is not as the "
                "explorer keeps corpora); load its file again."
            )
        return None
    # marked used in a write of its own, never waited for: a read-only workspace still opens it
    database.attempt(
        _PREPARE,
        lambda db: db.execute("update corpora set used = ? where key = ?", (time.time(), key)),
        None,
        write=True,
        wait=False,
    )
    return Corpus(key, name, format, loaded)


def _items(items: str) -> tuple[CorpusItem, ...]:
    return tuple(
        CorpusItem(
            i["conversation"],
            i["request"],
            tuple(tuple(t) for t in i["tool_links"]),
            tuple(
                Probe(p["id"], tuple(p["evidence"]), p.get("answer"), p.get("question"))
                for p in i.get("probes", ())
            ),
            tuple(RecordedCompaction(**c) for c in i.get("compactions", ())),
            record_id=i.get("record_id"),
        )
        for i in json.loads(items)
    )


def corpora(limit: int = 20, notices: list[str] | None = None) -> list[CorpusEntry]:
    """The stored corpora, used most recently first, with how many runs each has."""
    rows = database.attempt(
        _PREPARE,
        lambda db: db.execute(
            "select c.key, c.name, c.conversations, "
            "(select count(*) from corpus_runs r where r.corpus = c.key) "
            "from corpora c order by c.used desc limit ?",
            (limit,),
        ).fetchall(),
        [],
        notices=notices,
    )
    return [CorpusEntry(*row) for row in rows]


@dataclass(frozen=True)
class RunEntry:
    """A kept run, as the page's list of runs shows it (its rows are read only when opened)."""

    grid: str
    settings: int
    budgets: tuple[int, ...] | None
    rows: int
    created: float


def save_run(corpus: Corpus, run: Run, notices: list[str] | None = None) -> bool:
    """Keep a run's rows with its corpus (the same grid again replaces them); True when kept."""

    def write(db: sqlite3.Connection) -> bool:
        db.execute(
            "insert into corpus_runs values (?, ?, ?, ?, ?) on conflict(corpus, grid) "
            "do update set rows = excluded.rows, row_count = excluded.row_count, "
            "created = excluded.created",
            (
                corpus.key,
                run.grid,
                json.dumps(list(run.rows), ensure_ascii=False),
                len(run.rows),
                run.created or time.time(),
            ),
        )
        return True

    return database.attempt(_PREPARE, write, False, write=True, notices=notices)


def _budgets(grid: dict[str, Any]) -> tuple[int, ...] | None:
    return None if grid["budgets"] is None else tuple(grid["budgets"])


def run_entries(key: str, notices: list[str] | None = None) -> list[RunEntry]:
    """The runs kept for the corpus with this key, newest first."""
    found = database.attempt(
        _PREPARE,
        lambda db: db.execute(
            "select grid, row_count, created from corpus_runs where corpus = ? "
            "order by created desc",
            (key,),
        ).fetchall(),
        [],
        notices=notices,
    )
    out = []
    for grid, count, created in found:
        data = json.loads(grid)
        out.append(RunEntry(grid, len(data["settings"]), _budgets(data), count, created))
    return out


def get_run(key: str, grid: str, notices: list[str] | None = None) -> Run | None:
    """The kept run of the corpus with this key and this grid (:attr:`Run.grid`), or None."""
    found = database.attempt(
        _PREPARE,
        lambda db: db.execute(
            "select rows, created from corpus_runs where corpus = ? and grid = ?", (key, grid)
        ).fetchone(),
        None,
        notices=notices,
    )
    if found is None:
        return None
    rows, created = found
    try:
        data = json.loads(grid)
        return Run(tuple(data["settings"]), _budgets(data), tuple(json.loads(rows)), created)
    except (TypeError, KeyError, ValueError, RecursionError) as error:
        log.warning("workspace: a run of corpus %s cannot be read back: %r", key, error)
        return None
