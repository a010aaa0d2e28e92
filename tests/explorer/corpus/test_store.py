"""Corpora and their runs kept in the workspace's SQLite file: read back whole from the file by a
fresh connection, one entry per content, a grid run again replaces its rows, and a workspace
that cannot be written never stops the page."""

import os
import sqlite3
import stat

import pytest

from compactor.contract import DEFAULTS
from compactor.evaluation import CorpusItem, RunOptions, evaluate, grid_points, load_corpus
from explorer.corpus import store as corpus_store
from explorer.session import database
from tests.paths import ROOT

TAU = ROOT / "tests" / "fixtures" / "real" / "tau_airline_3_records.json"


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv(database.DATA_ENV, str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.fixture(scope="module")
def items():
    return load_corpus(TAU)


def rows_of(items, grid, budgets):
    return tuple(
        evaluate(items, grid_points({}, grid), budgets=budgets, options=RunOptions(workers=1))
    )


def runs(key):
    """Every run kept for the corpus, newest first, read back whole."""
    return [corpus_store.get_run(key, entry.grid) for entry in corpus_store.run_entries(key)]


def test_a_corpus_and_its_run_come_back_whole_from_the_file(folder, items):
    assert any(i.tool_links for i in items)
    corpus = corpus_store.save_corpus("tau_airline_3_records.json", "openai", items)
    assert (folder / database.DATABASE).is_file()
    settings = grid_points({}, {"keep_last_n": [1, 4]})
    run = corpus_store.Run(
        tuple(settings), (500, 2000), rows_of(items, {"keep_last_n": [1, 4]}, [500, 2000])
    )
    assert corpus_store.save_run(corpus, run)

    again = corpus_store.get_corpus(corpus.key)
    assert again == corpus  # items with their requests and tool links
    kept = runs(corpus.key)
    assert len(kept) == 1
    entry = corpus_store.run_entries(corpus.key)[0]
    assert (entry.settings, entry.budgets, entry.rows) == (2, (500, 2000), len(run.rows))
    assert (kept[0].settings, kept[0].budgets, kept[0].rows) == (
        run.settings,
        run.budgets,
        run.rows,
    )
    # what the file itself holds, read with plain sqlite3
    with sqlite3.connect(folder / database.DATABASE) as db:
        assert db.execute("select count(*) from corpora").fetchone() == (1,)
        assert db.execute("select count(*) from corpus_runs").fetchone() == (1,)
    assert corpus_store.corpora() == [
        corpus_store.CorpusEntry(corpus.key, "tau_airline_3_records.json", 3, 1)
    ]


def test_a_sweep_run_keeps_no_budgets(folder, items):
    corpus = corpus_store.save_corpus("c", None, items[:1])
    run = corpus_store.Run(tuple(grid_points({}, {})), None, rows_of(items[:1], {}, None))
    assert corpus_store.save_run(corpus, run)
    assert runs(corpus.key)[0].budgets is None
    assert runs(corpus.key)[0].rows == run.rows


def test_one_entry_per_content_and_the_same_grid_replaces_its_rows(folder, items):
    first = corpus_store.save_corpus("a.json", None, items)
    second = corpus_store.save_corpus("b.json", None, items)
    assert first.key == second.key
    other = corpus_store.save_corpus("c.json", None, items[:2])
    assert other.key != first.key
    settings = tuple(grid_points({}, {}))
    old = corpus_store.Run(settings, (500,), ({"stale": True},), created=1.0)
    new = corpus_store.Run(settings, (500,), rows_of(items, {}, [500]), created=2.0)
    wider = corpus_store.Run(settings, (500, 900), rows_of(items, {}, [500, 900]), created=3.0)
    for run in (old, new, wider):
        corpus_store.save_run(first, run)
    kept = runs(first.key)
    assert [r.rows for r in kept] == [wider.rows, new.rows]  # newest first, the stale one gone
    assert runs(other.key) == []
    entries = {e.key: e for e in corpus_store.corpora()}
    assert (entries[first.key].name, entries[first.key].runs) == ("b.json", 2)
    assert entries[other.key].conversations == 2


def test_keys_that_are_unknown_or_not_keys_find_nothing(folder):
    assert corpus_store.get_corpus("0" * 24) is None
    assert corpus_store.get_corpus("'; drop table corpora; --") is None
    assert runs("0" * 24) == []
    assert corpus_store.corpora() == []


def test_a_workspace_that_cannot_be_written_still_gives_the_corpus(tmp_path, monkeypatch, items):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(stat.S_IRUSR | stat.S_IXUSR)
    monkeypatch.setenv(database.DATA_ENV, str(locked / "data"))
    try:
        if os.access(locked, os.W_OK):  # root writes anywhere: use a file where a folder goes
            monkeypatch.setenv(database.DATA_ENV, str(tmp_path / "file"))
            (tmp_path / "file").write_text("not a folder")
        corpus = corpus_store.save_corpus("x", None, items)
        assert corpus.items == tuple(items)
        assert not corpus_store.save_run(corpus, corpus_store.Run((), None, ()))
        assert corpus_store.get_corpus(corpus.key) is None
        assert corpus_store.corpora() == []
    finally:
        locked.chmod(stat.S_IRWXU)


def test_a_database_that_is_not_one_is_moved_aside_and_a_new_one_made(folder, items):
    folder.mkdir(parents=True)
    (folder / database.DATABASE).write_bytes(b"this is not a database" * 100)
    notices = []
    corpus = corpus_store.save_corpus("x", None, items, notices)
    assert corpus.items == tuple(items)
    (aside,) = folder.glob(f"{database.DATABASE}.damaged-*")
    assert aside.read_bytes() == b"this is not a database" * 100
    (notice,) = notices
    assert str(aside) in notice and "moved aside" in notice
    assert corpus_store.save_run(corpus, corpus_store.Run((), None, ()))
    assert corpus_store.get_corpus(corpus.key) == corpus
    assert len(runs(corpus.key)) == 1


def test_a_conversation_opens_with_its_messages_links_and_a_safe_label(items):
    corpus = corpus_store.Corpus("k" * 24, "tau.json", "openai", tuple(items))
    item = items[1]
    fallback = {"budget_chars": 777, "keep_last_n": 3, "keep_roles": ["system"]}
    fallback |= {"duplicate_threshold": 0.8, "max_message_chars": 300}
    conv = corpus_store.conversation_of(corpus, item, fallback)
    assert list(conv.messages) == item.request["messages"]
    assert conv.tool_links == item.tool_links
    assert conv.record == 1 and conv.label == "Corpus tau.json, record 1"
    for name, value in conv.params.items():
        # what the request states, else the schema's default (the budget has none)
        assert value == item.request.get(name, DEFAULTS.get(name, fallback[name]))
    hostile = CorpusItem("**x**/<img src=x onerror=alert(1)>.json#0", item.request)
    label = corpus_store.conversation_of(corpus, hostile, fallback).label
    assert not set(label) & set("*<>=[]`!")
    assert label.startswith("Corpus tau.json, ") and label.endswith(".json#0")


def test_a_corpus_keeps_its_probes_and_one_without_keeps_its_key(folder, items):
    from compactor.analyses.outcomes import Probe

    before = corpus_store.corpus_key(items)
    probed = [CorpusItem(0, items[0].request, items[0].tool_links, (Probe("p", (0, 2), "a"),))]
    kept = corpus_store.save_corpus("probed.json", None, probed)
    assert corpus_store.get_corpus(kept.key).items == tuple(probed)
    assert corpus_store.corpus_key(items) == before != kept.key


def test_a_corpus_keeps_its_recorded_compactions_and_record_ids(folder, items):
    from compactor.formats import RecordedCompaction

    found = RecordedCompaction(3, "The summary.", "auto", 150_000, 4_000, "line 9")
    logged = [CorpusItem(0, items[0].request, items[0].tool_links, (), (found,), record_id="s1")]
    kept = corpus_store.save_corpus("logged.json", None, logged)
    back = corpus_store.get_corpus(kept.key).items
    assert back == tuple(logged)  # the re-read columns judge them after a reopen too
    assert back[0].compactions == (found,) and back[0].record_id == "s1"
