"""The walkthrough: what each stage did and why, with running totals that add up."""

import pytest
from hypothesis import given, settings

from compactor import run, validate
from compactor.analyses._walkthrough import (
    _drop_summary,
    _pin_summary,
    _trim_how,
    _trim_summary,
    walkthrough,
)
from compactor.samples import load_sample
from tests.explorer.requests import rich_request
from tests.generate import requests


def dispatcher(**params):
    return walkthrough(run(validate(load_sample("dispatcher").request | params)))


def events(step):
    return [(e.index, e.action, e.chars_before, e.chars_after, e.total_after) for e in step.events]


def test_dispatcher_step_by_step():
    w = dispatcher(max_message_chars=80)
    pin, dedupe, trim, drop = w.steps
    assert [s.stage for s in w.steps] == ["pin", "dedupe", "trim", "drop"]
    assert [s.order for s in w.steps] == [1, 2, 3, 4]
    assert [(s.chars_before, s.chars_after, s.over_budget) for s in w.steps] == [
        (466, 466, True),
        (466, 371, False),
        (371, 311, False),
        (311, 311, False),
    ]
    assert events(pin) == [
        (0, "protected", 73, 73, 466),
        (4, "protected", 59, 59, 466),
        (5, "protected", 37, 37, 466),
    ]
    assert [e.reason for e in pin.events] == [
        "its role, system, is in keep_roles",
        "it is one of the last 2 messages (keep_last_n)",
        "it is one of the last 2 messages (keep_last_n)",
    ]
    assert pin.summary == (
        "3 of 6 messages are protected (169 characters): no later stage removes or cuts them."
    )
    assert events(dedupe) == [(3, "removed", 95, 0, 371)]
    assert dedupe.events[0].other == 1
    assert dedupe.events[0].reason == (
        "word overlap 1.000 with earlier user message 1, at least the threshold 0.9"
    )
    # 1 has a sentence end only at 26, under 40 percent of 80: a hard cut. 2 ends a sentence at 62.
    assert events(trim) == [(1, "cut", 95, 80, 356), (2, "cut", 107, 62, 311)]
    assert "hard cut" in trim.events[0].reason and "sentence end" in trim.events[1].reason
    assert events(drop) == [(2, "kept", 62, 62, 311), (1, "kept", 80, 80, 311)]
    assert drop.summary == "Nothing to drop: 311 characters already fit the budget of 400."
    assert [(m.status, m.chars) for m in drop.messages] == [
        ("protected", 73),
        ("trimmed", 80),
        ("trimmed", 62),
        ("duplicate", 0),
        ("protected", 59),
        ("protected", 37),
    ]
    assert (w.budget, w.input_chars, w.output_chars, w.budget_met) == (400, 466, 311, True)


def test_drop_events_run_the_total_down_to_the_budget():
    drop = dispatcher(budget_chars=300).steps[3]
    assert events(drop) == [(2, "dropped", 107, 0, 264), (1, "kept", 95, 95, 264)]
    assert drop.events[0].score < drop.events[1].score
    assert drop.summary == (
        "1 message dropped, lowest score first: 264 characters now fit the budget of 300."
    )


def test_protected_messages_are_spared_and_an_unreachable_budget_is_said():
    # keep_last_n 3 protects the repeated question (3); keep_roles user protects it and 1, both
    # 95 characters, over the limit of 80.
    w = dispatcher(
        keep_last_n=3, keep_roles=["system", "user"], max_message_chars=80, budget_chars=100
    )
    pin, dedupe, trim, drop = w.steps
    assert events(dedupe) == [(3, "spared", 95, 95, 466)]
    assert dedupe.events[0].reason == (
        "word overlap 1.000 with message 1 reaches the threshold 0.9, but it is protected"
    )
    assert events(trim) == [
        (1, "spared", 95, 95, 466),
        (2, "cut", 107, 62, 421),
        (3, "spared", 95, 95, 421),
    ]
    assert pin.summary.endswith("They alone exceed the budget of 100 characters.")
    # one number for each kind of row the step's table lists (issue 40: "68 removed" above 70)
    assert dedupe.summary == (
        "0 near-duplicate messages removed, 0 characters. 1 more message reached the threshold "
        "but is protected (spared)."
    )
    assert trim.summary.endswith(" 2 more messages over the limit are protected (spared).")
    assert events(drop) == [(2, "dropped", 62, 0, 359)]
    assert drop.summary == (
        "Every unprotected message dropped (1); the protected messages alone, 359 characters, "
        "exceed the budget of 100 by 259."
    )
    assert drop.over_budget and not w.budget_met


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(requests())
def test_running_totals_add_up_to_the_result(request):
    result = run(validate(request))
    w = walkthrough(result)
    totals = result.totals
    assert [s.chars_after for s in w.steps] == [
        totals.input,
        totals.after_dedupe,
        totals.after_trim,
        totals.output,
    ]
    previous = totals.input
    for step in w.steps:
        assert step.chars_before == previous
        running = step.chars_before
        for event in step.events:
            running -= event.chars_before - event.chars_after
            assert event.total_after == running
        assert running == step.chars_after == sum(m.chars for m in step.messages)
        previous = step.chars_after
    final = {m.index: (m.status, m.chars) for m in w.steps[-1].messages}
    for trace in result.messages:
        status = {"verbatim": "present"}.get(trace.fate, trace.fate)
        assert final[trace.index] == (status, trace.chars)


def test_the_trim_step_says_how_many_of_its_cuts_drop_removes_later():
    result = run(validate(load_sample("largest").request | {"budget_chars": 200_000}))
    cuts = [c.index for c in result.trimming.cuts]
    later = [i for i in cuts if result.messages[i].fate.value == "dropped"]
    trim = walkthrough(result).steps[2]
    assert f"Drop removes {len(later):,} of them later (step 4)" in trim.summary
    assert f"so {len(cuts) - len(later):,} stay trimmed" in trim.summary
    quiet = walkthrough(run(validate(rich_request() | {"budget_chars": 400_000})))
    assert "later" not in quiet.steps[2].summary


def test_the_pin_summary_says_when_the_protected_alone_exceed_the_budget():
    within = _pin_summary(2, 5, 300, 400)
    assert within == (
        "2 of 5 messages are protected (300 characters): no later stage removes or cuts them."
    )
    assert _pin_summary(2, 5, 500, 400) == (
        within.replace("300", "500") + " They alone exceed the budget of 400 characters."
    )


def test_a_trim_says_whether_it_found_a_sentence_end():
    assert _trim_how("sentence", 1200).startswith("cut at the last sentence end")
    assert "hard cut" in _trim_how("hard", 1200) and _trim_how("hard", 1200).endswith("1,200")


def test_the_trim_summary_names_the_cuts_drop_removes_later_only_when_there_are_some():
    assert _trim_summary(3, 0, 80, 120) == "3 messages cut to at most 80 characters, 120 removed."
    assert _trim_summary(3, 1, 80, 120).endswith(
        "Drop removes 1 of them later (step 4), so 2 stay trimmed."
    )


def test_the_drop_summary_tells_nothing_dropped_a_met_budget_and_an_unreachable_one():
    assert _drop_summary(0, 300, 400).startswith("Nothing to drop: 300 characters")
    assert _drop_summary(2, 380, 400).startswith("2 messages dropped, lowest score first")
    assert _drop_summary(2, 450, 400).endswith("exceed the budget of 400 by 50.")
