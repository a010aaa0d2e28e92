"""The workspace: conversations kept in SQLite by content hash, read back whole."""

import os
import stat

import pytest

from explorer.session import database, workspace
from explorer.session.conversation import Conversation


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
    )
    assert workspace.save(conv)
    assert (folder / database.DATABASE).is_file()
    again = workspace.get(conv.key)
    fields = ("messages", "params", "label", "source", "format", "tool_links", "file_name")
    for name in (*fields, "record", "sources", "removed_results", "key"):
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
