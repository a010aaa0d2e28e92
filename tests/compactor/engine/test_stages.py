"""Each stage on its own, with the edge cases the golden set does not cover."""

import pickle

import numpy as np
import pytest

from compactor.engine import _stages as stages
from compactor.engine._result import Cut, Drop, Records, Removal, Similar
from compactor.engine._score import Score
from compactor.model import Message, Params, Request, writer
from compactor.text._profile import analyse


def conversation(*pairs, pins=()):
    return [Message(i, role, content, pin=i in pins) for i, (role, content) in enumerate(pairs)]


def columns(messages, *names):
    return [tuple(getattr(m, name) for m in messages) for name in names]


def similarity_of(messages):
    return analyse([m.content for m in messages], [m.role for m in messages]).similarity


# --- pin ---------------------------------------------------------------------------------------


def test_pin_lists_every_reason_in_contract_order():
    messages = conversation(("system", "s"), ("user", "u"), ("user", "v"), pins=(0, 1))
    protection = stages.pin(
        *columns(messages, "pin", "role"), Params(100, keep_last_n=1, keep_roles=("system",))
    )
    assert protection.because == (("pin", "role"), ("pin",), ("recent",))
    assert protection.explicit_pins == 2
    assert protection.indices == (0, 1, 2)


def test_keep_last_n_larger_than_the_history_protects_everything():
    messages = conversation(("user", "a"), ("assistant", "b"))
    protection = stages.pin(
        *columns(messages, "pin", "role"), Params(100, keep_last_n=50, keep_roles=())
    )
    assert protection.because == (("recent",), ("recent",))


def test_keep_last_n_zero_and_no_roles_protects_nothing():
    messages = conversation(("system", "a"), ("user", "b"))
    assert (
        stages.pin(
            *columns(messages, "pin", "role"), Params(100, keep_last_n=0, keep_roles=())
        ).indices
        == ()
    )


# --- dedupe ------------------------------------------------------------------------------------


def run_dedupe(messages, protected, threshold):
    state = stages.State.of(messages)
    return stages.dedupe(state, messages, protected, similarity_of(messages), threshold)


def test_a_similarity_exactly_at_the_threshold_removes():
    messages = conversation(("user", "one two three four"), ("user", "one two three four five"))
    state, report = run_dedupe(messages, [False, False], 0.8)  # Jaccard 4/5 = 0.8
    assert state.present == (True, False)
    assert report.removed == (Removal(1, 0, 0.8, 23),)
    state, report = run_dedupe(messages, [False, False], 0.81)
    assert state.present == (True, True) and report.removed == ()
    assert report.nearest == (None, Similar(0, 0.8))


def test_on_a_similarity_tie_the_earliest_message_wins():
    messages = conversation(("user", "a b c"), ("user", "a b c"), ("user", "a b c"))
    _, report = run_dedupe(messages, [True, True, False], 0.9)
    assert report.removed == (Removal(2, 0, 1.0, 5),)


def test_a_removed_message_is_no_longer_a_candidate():
    messages = conversation(("user", "a b c d"), ("user", "a b c d e"), ("user", "b c d e"))
    # 1 is removed as a duplicate of 0 (0.8); 2 vs 0 is 0.6 and 2 vs 1 would have been 0.8.
    _, report = run_dedupe(messages, [False, False, False], 0.8)
    assert [r.index for r in report.removed] == [1]
    assert report.nearest[2] == Similar(0, 0.6)


def test_other_roles_are_never_compared():
    messages = conversation(("user", "same words"), ("assistant", "same words"))
    state, report = run_dedupe(messages, [False, False], 0.5)
    assert state.present == (True, True) and report.nearest == (None, None)


def test_messages_without_words_are_duplicates_only_when_identical():
    messages = conversation(("user", "???"), ("user", "!!!"), ("user", "???"))
    _, report = run_dedupe(messages, [False, False, False], 1.0)
    assert report.removed == (Removal(2, 0, 1.0, 3),)
    assert report.nearest[1] == Similar(0, 0.0)


def test_a_protected_duplicate_is_kept_but_still_matched():
    messages = conversation(("user", "a b"), ("user", "a b"))
    state, report = run_dedupe(messages, [False, True], 0.9)
    assert state.present == (True, True) and report.removed == ()
    assert report.nearest[1] == Similar(0, 1.0)


# --- trim --------------------------------------------------------------------------------------


def test_trim_cuts_only_unprotected_present_messages_over_the_limit():
    long = "First sentence here. " * 10
    messages = conversation(("user", long), ("user", long), ("user", "short"), ("user", long + "x"))
    state = stages.State((True, True, True, False), tuple(len(m.content) for m in messages))
    new, report = stages.trim(
        state, *columns(messages, "content"), [False, True, False, False], 100
    )
    assert report.cuts == (Cut(0, 210, 83, "sentence"),)
    assert new.chars == (83, 210, 5, 211)


def test_a_message_exactly_at_the_limit_is_not_trimmed():
    messages = conversation(("user", "x" * 80), ("user", "y"))
    _, report = stages.trim(
        stages.State.of(messages), *columns(messages, "content"), [False, False], 80
    )
    assert report.cuts == ()


# --- drop --------------------------------------------------------------------------------------


def run_drop(messages, protected, budget, state=None):
    analysis = analyse([m.content for m in messages], [m.role for m in messages])
    roles, *_ = columns(messages, "role")
    return stages.drop(state or stages.State.of(messages), roles, protected, analysis, budget)


def test_a_budget_exactly_met_drops_nothing():
    messages = conversation(("user", "x" * 60), ("user", "y" * 40))
    state, report = run_drop(messages, [False, False], 100)
    assert state.present == (True, True) and report.dropped == ()
    assert report.order == (0, 1)  # still known: the order drop would use


def test_equal_scores_drop_the_lower_index_first():
    # n = 11: user at 0 scores 0.3 * 1.0 = 0.3; tool at 1 scores 0.5 * 0.1 + 0.3 * 0.5 + 0.2 * 0.5
    # = 0.3 too (half its words, "zzzz", are the only topic term).
    messages = conversation(("user", "a b"), ("tool", "zzzz a"), *[("user", "c")] * 9)
    protected = [False, False] + [True] * 9
    _, report = run_drop(messages, protected, 100)
    assert report.scores[0].value == report.scores[1].value == 0.3
    assert report.order == (0, 1)


def test_score_components_and_rounding():
    messages = conversation(
        ("system", "Dispatch shipment"), ("assistant", "shipment status"), ("user", "ok")
    )
    analysis = analyse([m.content for m in messages], [m.role for m in messages])
    assert dict(analysis.topic_terms) == {"shipment": 2, "dispatch": 1, "status": 1}
    s = stages.score(messages[1], 3, analysis)
    assert s == Score(recency=0.5, role_weight=0.7, topic_overlap=1.0, value=0.66)
    assert sum(s.parts.values()) == pytest.approx(0.66)


def test_drop_reports_running_totals_and_stops_at_the_budget():
    messages = conversation(
        ("user", "a" * 50), ("user", "b" * 50), ("user", "c" * 50), ("user", "d" * 10)
    )
    state, report = run_drop(messages, [False, False, False, True], 100)
    assert report.dropped == (
        Drop(0, 0.5, 50, 1, 160, 110),  # each message's one word is a topic term: + 0.2
        Drop(1, 0.666667, 50, 2, 110, 60),
    )
    assert state.present == (False, False, True, True)


def test_protected_messages_over_the_budget_drop_every_unprotected_one():
    messages = conversation(("system", "s" * 300), ("user", "u"), ("user", "v"))
    state, report = run_drop(messages, [True, False, False], 100)
    assert state.present == (True, False, False)
    assert [d.index for d in report.dropped] == [1, 2]


def test_drop_uses_current_lengths_after_trim():
    messages = conversation(("user", "a" * 500), ("user", "b" * 10))
    state = stages.State((True, True), (90, 10))  # message 0 was trimmed to 90
    new, report = run_drop(messages, [False, True], 100, state)
    assert report.dropped == () and new.total == 100


# --- records kept as columns -------------------------------------------------------------------


def test_records_kept_as_columns_are_the_records_they_stand_for():
    made = (Removal(3, 1, 1.0, 5), Removal(7, 2, 0.9, 11))
    records = Records(Removal, ([3, 7], [1, 2], [1.0, 0.9], [5, 11]))
    assert records == made and made == records and list(records) == list(made)
    assert records[1] == made[1] and records[:1] == made[:1] and len(records) == 2
    assert pickle.loads(pickle.dumps(records)) == made
    assert Records.columns_of(made, ("index", "chars")) == ((3, 7), (5, 11))
    assert Records(Removal, ([], [], [], [])) == () and not Records(Removal, ([], [], [], []))
    with pytest.raises(ValueError, match="one column per field"):
        Records(Removal, ([3], [1], [1.0]))


def test_writer_makes_what_the_dataclass_makes():
    make = writer(Message)
    assert make(2, "user", "hi", None, True) == Message(2, "user", "hi", None, True)
    assert hash(make(0, "tool", "x", "a", False)) == hash(Message(0, "tool", "x", "a", False))
    with pytest.raises(TypeError, match="own __init__"):
        writer(Request)  # its __post_init__ fills the contents and roles


def test_flags_read_as_bytes_are_numpys_booleans():
    from compactor.engine._stages import _flags

    cases = [(True, False, True), [False] * 3, [], (1, 0, 2), [None, "x", 0.0], [True, 300]]
    for values in [*cases, np.array([0, 3, 1])]:
        for writable in (False, True):
            flags = _flags(values, writable=writable)
            assert flags.dtype == bool and flags.tolist() == np.array(values, dtype=bool).tolist()
            assert not writable or flags.flags.writeable
