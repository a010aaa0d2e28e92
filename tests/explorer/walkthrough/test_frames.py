"""The Walkthrough page's data frames are compactor.analyses._walkthrough, step by step."""

import pytest

from compactor import run, validate
from compactor.analyses._walkthrough import walkthrough
from explorer.walkthrough import frames as walk_frames
from tests.explorer.requests import rich_request


@pytest.fixture(scope="module")
def rich():
    return run(validate(rich_request()))


# --- walkthrough ----------------------------------------------------------------------------


def test_status_labels_before_and_after_drop():
    assert walk_frames.status_label("present", final=False) == walk_frames.UNDECIDED
    assert walk_frames.status_label("present", final=True) == "verbatim"
    for status in ("protected", "trimmed", "duplicate", "dropped"):
        assert walk_frames.status_label(status, final=False) == status


@pytest.mark.parametrize("upto", [0, 1, 2, 3, 4])
def test_walk_totals_reveal_the_steps_up_to_the_one_shown(rich, upto):
    walk = walkthrough(rich)
    frame = walk_frames.walk_totals_frame(walk, upto)
    assert list(frame["chars"]) == [walk.input_chars] + [s.chars_after for s in walk.steps]
    assert list(frame["stage"]) == ["Input", "Pin", "Dedupe", "Trim", "Drop"]
    assert list(frame["reached"]) == [k <= upto for k in range(5)]
    assert list(frame["phase"]) == [
        "this step" if k == upto else "done" if k < upto else "to come" for k in range(5)
    ]
    assert frame["chars"].iloc[-1] == rich.totals.output


def test_walk_messages_and_events_follow_each_step(rich):
    walk = walkthrough(rich)
    contents = rich.request.contents
    for step in walk.steps:
        final = step.order == 4
        frame = walk_frames.walk_messages_frame(step, contents, final)
        assert list(frame["chars"]) == [m.chars for m in step.messages]
        assert list(frame["status"]) == [
            walk_frames.status_label(m.status, final) for m in step.messages
        ]
        assert set(frame.loc[frame["acted"], "index"]) == {e.index for e in step.events}
        events = walk_frames.walk_events_frame(step)
        assert list(events["message"]) == [f"#{e.index}" for e in step.events]
        assert list(events["total_after"]) == [e.total_after for e in step.events]
        assert list(events["over_budget"]) == [e.total_after > step.budget for e in step.events]
    final = walk_frames.walk_messages_frame(walk.steps[-1], contents, True)
    assert list(final["status"]) == [t.fate.value for t in rich.messages]
    assert walk_frames.step_option(walk.steps[1]) == "2 · Dedupe"


def test_the_events_table_for_a_projector_has_every_event_as_literal_text(rich):
    walk = walkthrough(rich)
    for step in walk.steps:
        events = walk_frames.walk_events_frame(step)
        table = walk_frames.events_table(events)
        assert list(table.columns) == list(walk_frames.EVENT_TITLES.values())
        assert len(table) == len(step.events)
        for number in walk_frames.EVENT_NUMBERS:
            assert table[number].dtype.kind == "i"  # integers, so they align as numbers
        assert list(table["running total"]) == [e.total_after for e in step.events]
        assert list(table["over budget"]) == [
            "over" if e.total_after > step.budget else "" for e in step.events
        ]
        # st.table renders Markdown: "#4" would be a heading, "1." a list, "_x_" emphasis
        assert list(table["message"]) == [f"\\#{e.index}" for e in step.events]
        for why, event in zip(table["why"], step.events, strict=True):
            assert why.replace("\\", "") == event.reason.replace("\\", "")
            assert all(f"\\{c}" in why for c in ".,:;()" if c in event.reason)


def test_the_dedupe_pairs_are_the_removed_and_spared_messages_with_their_match(rich):
    dedupe = walkthrough(rich).steps[1]
    pairs = walk_frames.dedupe_pairs(dedupe)
    assert [(e.index, e.other) for e in pairs] == [
        (r.index, r.duplicate_of) for r in rich.deduplication.removed
    ]
    assert all(e.action == "removed" for e in pairs)
    assert walk_frames.pair_sides(pairs[0]) == (
        f"#{pairs[0].other}, earlier, still present",
        f"#{pairs[0].index}, removed",
    )
    assert all(walk_frames.dedupe_pairs(s) == [] for s in walkthrough(rich).steps if s.order != 2)


def test_a_protected_near_duplicate_is_a_pair_that_was_kept():
    request = rich_request()
    request["messages"][-1] = {**request["messages"][7]}  # the last message, protected, repeats #7
    result = run(validate(request))
    dedupe = walkthrough(result).steps[1]
    spared = [e for e in walk_frames.dedupe_pairs(dedupe) if e.action == "spared"]
    assert [(e.index, e.other) for e in spared] == [(11, 7)]
    assert walk_frames.pair_sides(spared[0])[1] == "#11, protected, so kept"
