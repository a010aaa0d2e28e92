"""Claude Code transcripts, line by line: which records are skipped, and which lines continue
the assistant message before them."""

import pytest

from compactor.errors import FormatError
from compactor.formats._builder import Builder
from compactor.formats._claude_code import _continues, _only_a_subagent, _Open, _skipped_as
from compactor.formats._turns import Turn

USER = {"type": "user", "message": {"role": "user", "content": "hi"}}


def test_records_that_are_not_messages_are_skipped_by_their_type():
    assert _skipped_as({"type": "summary", "summary": "..."}, False) == "type 'summary'"
    assert _skipped_as({"type": "user", "message": "not an object"}, False) == "type 'user'"
    assert _skipped_as(USER, False) is None


def test_a_subagents_messages_are_skipped_unless_the_file_holds_only_a_subagent():
    sidechain = USER | {"isSidechain": True}
    assert _skipped_as(sidechain, False) == "a subagent's messages (isSidechain)"
    assert _skipped_as(sidechain, True) is None
    assert _only_a_subagent([("line 1", sidechain)])
    assert not _only_a_subagent([("line 1", sidechain), ("line 2", USER)])


def test_a_transcript_without_messages_is_a_problem():
    with pytest.raises(FormatError):
        _only_a_subagent([("line 1", {"type": "summary"}), ("line 2", [])])


def test_only_an_assistant_line_with_the_open_message_id_continues_it():
    b = Builder("claude-code")
    open_ = _Open(Turn(b, "assistant", "line 1"), "msg_1")
    assert _continues(open_, "assistant", "msg_1")
    assert not _continues(open_, "assistant", "msg_2")
    assert not _continues(open_, "user", "msg_1")
    assert not _continues(open_, "assistant", None)
    assert not _continues(None, "assistant", "msg_1")
    assert not _continues(_Open(Turn(b, "assistant", "line 1"), None), "assistant", None)
