"""The explorer's one database: where it is, and one connection that the stores share."""

import sqlite3

import pytest

from explorer.session import database


@pytest.fixture
def folder(monkeypatch, tmp_path):
    monkeypatch.setenv(database.DATA_ENV, str(tmp_path / "data"))
    return tmp_path / "data"


def test_the_default_folder_is_under_the_users_data_folder(monkeypatch, tmp_path):
    monkeypatch.delenv(database.DATA_ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert database.data_folder() == tmp_path / "compaction-explorer"


def test_an_attempt_makes_the_folder_and_the_tables_and_commits_on_success(folder):
    prepare = database.statements("create table if not exists notes (text text not null)")

    def note(text, fail=False):
        def work(db):
            db.execute("insert into notes values (?)", (text,))
            if fail:
                raise RuntimeError
            return text

        return work

    assert database.attempt(prepare, note("kept"), None, write=True) == "kept"
    with pytest.raises(RuntimeError):  # a bug in the work is not hidden, and rolls back
        database.attempt(prepare, note("rolled back", fail=True), None, write=True)
    with sqlite3.connect(folder / database.DATABASE) as db:
        assert db.execute("select text from notes").fetchall() == [("kept",)]


def test_the_workspace_and_the_corpora_are_tables_of_one_database(folder):
    from explorer.corpus import store as corpus_store
    from explorer.session import workspace
    from explorer.session.conversation import Conversation

    conv = Conversation(
        messages=({"role": "user", "content": "hello"}, {"role": "user", "content": "bye"}),
        params={"budget_chars": 100},
        label="two",
        source="pasted",
    )
    assert workspace.save(conv)
    corpus_store.corpora()
    assert [p.name for p in folder.iterdir()] == [database.DATABASE]
    with sqlite3.connect(folder / database.DATABASE) as db:
        rows = db.execute("select name from sqlite_master where type = 'table'").fetchall()
    tables = {name for (name,) in rows}
    assert {"conversations", "corpora", "corpus_runs"} <= tables
