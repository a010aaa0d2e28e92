"""The workspace: conversations kept in SQLite by content hash, read back whole; and whatever
state the file is in (a damaged row, a damaged file, a read-only folder, a lock held elsewhere),
the explorer goes on and says what happened."""

import os
import sqlite3
import stat
import time
from pathlib import Path

import pytest

from explorer.session import database, workspace
from explorer.session.conversation import Conversation
from tests.explorer import faults


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv(database.DATA_ENV, str(tmp_path / "data"))
    return tmp_path / "data"


def conversation(text="Where is DE-4471?", **fields):
    messages = (
        {"role": "user", "content": text},
        {"role": "assistant", "content": '[tool call lookup id=c1] {"order": "DE-4471"}'},
        {"role": "tool", "content": "in transit", "id": "c1"},
    )
    params = {"budget_chars": 400, "keep_last_n": 1, "keep_roles": ["system"]}
    params |= {"duplicate_threshold": 0.9, "max_message_chars": 400}
    return Conversation(messages, params, "Uploaded file x.json (openai)", "uploaded", **fields)


def test_the_folder_is_created_on_first_use_and_a_conversation_comes_back_whole(folder):
    assert not folder.exists()
    conv = conversation(
        format="openai",
        tool_links=((1, 2),),
        file_name="x.json",
        record=2,
        sources=("[2].traj[0]", "[2].traj[1]", "[2].traj[2]"),
        removed_results=((1, "c0"),),
        window_orphans=(2,),
    )
    assert workspace.save(conv)
    assert (folder / database.DATABASE).is_file()
    again = workspace.get(conv.key)
    fields = ("messages", "params", "label", "source", "format", "tool_links", "file_name")
    for name in (*fields, "record", "sources", "removed_results", "window_orphans", "key"):
        assert getattr(again, name) == getattr(conv, name), name


def test_one_entry_per_content_most_recent_first(folder):
    first, second = conversation("one"), conversation("two")
    for conv in (first, second, first):
        workspace.save(conv)
    assert [e.key for e in workspace.recent()] == [first.key, second.key]
    entry = workspace.recent()[0]
    assert (entry.label, entry.messages) == (first.label, 3)
    assert entry.chars == sum(len(m["content"]) for m in first.messages)


def test_keys_that_are_unknown_or_not_keys_find_nothing(folder):
    assert workspace.get("0" * 24) is None
    assert workspace.get("'; drop table conversations; --") is None
    assert workspace.recent() == []


def test_a_workspace_that_cannot_be_written_never_fails_the_explorer(tmp_path, monkeypatch):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(stat.S_IRUSR | stat.S_IXUSR)
    monkeypatch.setenv(database.DATA_ENV, str(locked / "data"))
    try:
        if os.access(locked, os.W_OK):  # root writes anywhere: use a file where a folder goes
            monkeypatch.setenv(database.DATA_ENV, str(tmp_path / "file"))
            (tmp_path / "file").write_text("not a folder")
        assert workspace.save(conversation()) is False
        assert workspace.get(conversation().key) is None
        assert workspace.recent() == []
    finally:
        locked.chmod(stat.S_IRWXU)


# --- bad state: a damaged row, a damaged file, a read-only folder, a lock held elsewhere -----


@pytest.fixture
def calm(monkeypatch):
    """No lock was waited for recently (the quiet period of an earlier test is over)."""
    monkeypatch.setattr(database, "_quiet_until", 0.0)


def bytes_read() -> int:
    """Bytes this process has read through read system calls so far (Linux)."""
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("rchar:"):
            return int(line.split()[1])
    raise AssertionError("no rchar in /proc/self/io")


def test_listing_reads_no_body_and_opening_reads_one(folder, calm):
    stored = [faults.conversation(n, chars=500_000) for n in range(20)]  # 1.5 MB each
    for conv in stored:
        assert workspace.save(conv)
    before = bytes_read()
    entries = workspace.recent()
    listing = bytes_read() - before
    assert [e.key for e in entries] == [c.key for c in reversed(stored)]
    assert entries[0].chars == sum(len(m["content"]) for m in stored[-1].messages)
    before = bytes_read()
    assert workspace.get(stored[3].key).messages == stored[3].messages
    opening = bytes_read() - before
    assert listing < 1_000_000 < 1_500_000 < opening  # 30 MB of bodies: none read to list


def test_a_body_that_is_not_json_is_skipped_and_named_and_the_rest_stays(folder, calm):
    good, bad = faults.conversation(1), faults.conversation(2)
    assert workspace.save(good) and workspace.save(bad)
    faults.set_body(folder / database.DATABASE, bad.key, "{not json")
    notices = []
    assert [e.key for e in workspace.recent(notices=notices)] == [bad.key, good.key]
    assert notices == []  # listing reads no body, so it cannot know yet
    assert workspace.get(bad.key, notices) is None
    (notice,) = notices
    assert f'"Pasted conversation 2" `{bad.key}`' in notice and "not JSON" in notice
    assert [e.key for e in workspace.recent(notices=notices)] == [good.key]
    assert workspace.get(good.key).messages == good.messages
    assert workspace.save(bad) and workspace.get(bad.key).messages == bad.messages  # reloaded


def test_an_entry_of_the_wrong_shape_is_skipped_and_named(folder, calm):
    good = faults.conversation(1)
    assert workspace.save(good)
    with sqlite3.connect(folder / database.DATABASE) as db:
        db.execute(
            "insert into conversation_entries values ('not a key', '[x](http://e.test)', "
            "'many', 3, 9e99, 0)"
        )
    notices = []
    assert [e.key for e in workspace.recent(notices=notices)] == [good.key]
    assert notices == ["The workspace's entry without a valid key is damaged; it is skipped."]


def test_an_older_database_is_listed_from_its_bodies_once_and_a_bad_row_named(folder, calm):
    folder.mkdir(parents=True)
    good, bad = faults.conversation(1), faults.conversation(2)
    with sqlite3.connect(folder / database.DATABASE) as db:
        db.execute(workspace._CONVERSATIONS)  # the table as the explorer made it before
        for conv, body in ((good, workspace._body(good)), (bad, "not json")):
            db.execute(
                "insert into conversations values (?, ?, null, null, null, 'pasted', ?, 1, ?)",
                (conv.key, conv.label, body, 2 if conv is good else 3),
            )
    notices = []
    (entry,) = workspace.recent(notices=notices)
    assert (entry.key, entry.messages) == (good.key, 3)
    (notice,) = notices
    assert f"`{bad.key}`" in notice and "skipped" in notice
    notices.clear()
    assert [e.key for e in workspace.recent(notices=notices)] == [good.key] and notices == []


@pytest.mark.parametrize("damage", ["not a database", "cut in half"])
def test_a_damaged_file_is_moved_aside_named_and_a_new_one_made(folder, calm, damage):
    stored = [faults.conversation(n, chars=5000) for n in range(20)]
    for conv in stored:
        assert workspace.save(conv)
    path = folder / database.DATABASE
    if damage == "not a database":
        path.write_bytes(b"\x00garbage" * 10_000)
    else:
        faults.truncate_to_half(path)
    was = path.read_bytes()
    notices = []
    listed = workspace.recent(notices=notices)
    fresh = faults.conversation(99)
    assert workspace.save(fresh, notices)
    (aside,) = folder.glob(f"{database.DATABASE}.damaged-*")
    assert aside.read_bytes() == was  # kept whole, for the conversations in it
    (notice,) = notices
    assert f"moved aside to `{aside}`" in notice and "a new one was made" in notice
    assert listed == []
    assert [e.key for e in workspace.recent()] == [fresh.key]
    assert workspace.get(fresh.key).messages == fresh.messages


@pytest.mark.parametrize("which", ["folder", "folder and file"])
def test_a_read_only_folder_still_opens_every_stored_conversation(folder, calm, which):
    stored = [faults.conversation(n) for n in range(3)]
    for conv in stored:
        assert workspace.save(conv)
    path = folder / database.DATABASE
    targets = (folder, path) if which == "folder and file" else (folder,)
    with faults.read_only(*targets):
        for conv in stored:  # each opens, though none can be marked used
            assert workspace.get(conv.key).messages == conv.messages
        assert [e.key for e in workspace.recent()] == [c.key for c in reversed(stored)]
        assert workspace.save(stored[0])  # already kept: a link to it still reopens it
        notices = []
        assert not workspace.save(faults.conversation(9), notices)
        (notice,) = notices
        assert "cannot be written (read-only), so this could not be kept" in notice
    assert sorted(p.name for p in folder.iterdir()) == [database.DATABASE]


SLACK = 1.0  # beyond the half second: starting connections on a loaded machine


def test_a_lock_held_by_another_process_costs_at_most_half_a_second(folder, calm):
    stored = faults.conversation(1)
    assert workspace.save(stored)
    with faults.locked(folder / database.DATABASE):
        notices = []
        started = time.monotonic()
        assert workspace.recent(notices=notices) == []
        assert workspace.get(stored.key, notices) is None
        assert not workspace.save(faults.conversation(2), notices)
        assert workspace.recent(notices=notices) == []
        assert time.monotonic() - started < database.BUSY_SECONDS + SLACK
        (notice,) = notices
        assert "is locked by another program" in notice
    database._quiet_until = 0.0  # the lock is gone and the quiet period over
    assert workspace.get(stored.key).messages == stored.messages
