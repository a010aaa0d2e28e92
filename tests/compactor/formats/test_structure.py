"""Pairing calls with results, one orphan at a time: what is given back, kept as text or
dropped, and the note each leaves."""

from compactor.formats._calls import Call, Piece
from compactor.formats._structure import Turn, _close, _orphan_result, _Orphans, _pair

DROP = _Orphans(cut_ids=set(), keep=False, empty=set())
KEEP = _Orphans(cut_ids=set(), keep=True, empty=set())


def asking(*ids):
    calls = [Piece(call=Call("lookup", i, None, None, 0, 0)) for i in ids]
    return Turn("assistant", 1, [Piece(text="Looking."), *calls])


def result(answers, index=2):
    return Turn("tool", index, [Piece(text="found")], answers, answers)


def test_an_answered_call_is_settled_and_an_unanswered_one_dropped_or_kept_as_text():
    notes = []
    turn = asking("a", "b")
    assert _close(turn, {"a"}, DROP, notes) == []
    assert [p.call.id if p.call else p.text for p in turn.pieces] == ["Looking.", "a", ""]
    assert notes == [
        "#1: dropped the call to lookup id=b: its result is not in the compacted conversation"
    ]
    kept = asking("b")
    _close(kept, set(), KEEP, notes)
    assert kept.as_text == {1} and notes[-1].endswith("kept as text")


def test_a_call_whose_empty_result_the_import_removed_gets_it_back():
    notes = []
    restored = _close(asking("a"), set(), _Orphans(set(), False, {"a"}), notes)
    assert [(t.role, t.answers, t.text, t.restored) for t in restored] == [("tool", "a", "", True)]
    assert "gave back the empty result" in notes[0]


def test_a_result_without_its_call_is_dropped_or_kept_as_user_text_saying_why():
    notes = []
    assert _orphan_result(result("x"), DROP, notes) == []
    assert notes == [
        "#2: dropped the tool result for call x: its call is not in the compacted conversation "
        "right before it"
    ]
    kept = _orphan_result(result("x"), _Orphans({"x"}, True, set()), notes)
    assert [(t.role, t.text) for t in kept] == [("user", "[tool result id=x] found")]
    assert notes[-1] == (
        "#2: the tool result has no call (a trim cut its call's line); kept as user text"
    )


def test_results_follow_their_calls_and_an_unanswered_call_is_settled_at_the_next_message():
    notes = []
    turns = [asking("a", "b"), result("a"), Turn("user", 3, [Piece(text="thanks")]), result("b")]
    out = _pair(turns, DROP, notes)
    assert [(t.role, t.index) for t in out] == [("assistant", 1), ("tool", 2), ("user", 3)]
    assert len(notes) == 2  # call b dropped, then its late result
