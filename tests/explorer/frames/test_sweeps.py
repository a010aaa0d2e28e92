"""Frames of the Budget sweep and Sensitivity pages, checked against the engine's sweep
functions and against running the pipeline at the values a chart shows."""

from bisect import bisect_right
from dataclasses import replace

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor import run, validate
from compactor.analyses._sweeps import (
    BUDGET_RANGE,
    Survival,
    budget_sweep,
    threshold_sweep,
    trim_sweep,
)
from compactor.samples import load_sample
from explorer.frames import sweeps as sweep_frames
from explorer.frames import views
from tests.explorer.requests import rich_request
from tests.generate import requests

EXAMPLES = settings(max_examples=40, deadline=None)


def values(series):
    """A column as Python values, None for a missing one (Int64 columns hold pd.NA)."""
    return [None if pd.isna(v) else v for v in series]


def rerun(result, **params):
    """The pipeline on the same messages with some parameters changed."""
    request = replace(result.request, params=replace(result.request.params, **params))
    return run(request, analysis=result.analysis)


@pytest.fixture(scope="module")
def rich():
    return run(validate(rich_request()))


@pytest.fixture(scope="module")
def dispatcher():
    return run(validate(load_sample("dispatcher").request))


# --- budget sweep ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("survival", "label"),
    [
        (Survival(0, "system", "protected", 100, "protected", 73), "always kept (protected)"),
        (Survival(1, "user", "verbatim", 1840, "drop order", 95), "kept from 1,840 characters"),
        (
            Survival(1, "user", "verbatim", 100, "drop order", 95),
            "kept at every budget (from 100 characters)",
        ),
        (
            Survival(3, "user", "duplicate", None, "duplicate", 95),
            "never: removed by dedupe at every budget",
        ),
        (
            Survival(4, "tool", "dropped", None, "beyond range", 9),
            "never: needs more than 400,000 characters",
        ),
    ],
)
def test_survival_label(survival, label):
    assert sweep_frames.survival_label(survival, BUDGET_RANGE) == label


def test_the_dispatcher_survival_table(dispatcher):
    frame = sweep_frames.survival_frame(budget_sweep(dispatcher), dispatcher)
    assert values(frame["survives_from_budget"]) == [100, 264, 371, None, 100, 100]
    # nothing is trimmed, so a kept message keeps all its characters; the duplicate (#3) is never
    # kept, so it has no characters "when kept" either
    lengths = [len(m.content) for m in dispatcher.request.messages]
    assert values(frame["chars"]) == [*lengths[:3], None, *lengths[4:]]
    assert list(frame["kept_from"]) == [
        "always kept (protected)",
        "kept from 264 characters",
        "kept from 371 characters",
        "never: removed by dedupe at every budget",
        "always kept (protected)",
        "always kept (protected)",
    ]
    assert list(frame["kept_now"]) == [True, True, True, False, True, True]


@EXAMPLES
@given(requests())
def test_the_survival_table_is_the_sweep_and_holds_at_its_budgets(request):
    result = run(validate(request))
    sweep = budget_sweep(result)
    frame = sweep_frames.survival_frame(sweep, result)
    assert list(frame["index"]) == [s.index for s in sweep.survival]
    assert values(frame["survives_from_budget"]) == [s.survives_from_budget for s in sweep.survival]
    for row, s, trace in zip(frame.itertuples(), sweep.survival, result.messages, strict=True):
        assert row.kept_now == trace.survived
        if s.survives_from_budget is None:
            assert pd.isna(row.chars)
        else:
            assert row.chars == s.chars
            # the message is in the output at its survival budget, and not one below it
            assert rerun(result, budget_chars=s.survives_from_budget).messages[s.index].survived
            if s.survives_from_budget > BUDGET_RANGE[0]:
                below = rerun(result, budget_chars=s.survives_from_budget - 1)
                assert not below.messages[s.index].survived


def test_with_survival_adds_the_budget_to_the_fate_frame(rich):
    sweep = budget_sweep(rich)
    frame = sweep_frames.with_survival(views.fate_frame(rich), sweep)
    assert list(frame["kept_from"]) == [
        sweep_frames.survival_label(s, BUDGET_RANGE) for s in sweep.survival
    ]
    assert frame["survives_from_budget"].isna().tolist() == [
        s.survives_from_budget is None for s in sweep.survival
    ]


@EXAMPLES
@given(requests(), st.integers(100, 6000))
def test_the_budget_step_rows_are_the_output_at_their_budgets(request, current):
    result = run(validate({**request, "budget_chars": current}))
    sweep = budget_sweep(result)
    limit = sweep_frames.budget_view_limit(sweep)
    assert limit >= current and limit >= sweep.steps[-1].from_budget and limit <= BUDGET_RANGE[1]
    frame = sweep_frames.budget_steps_frame(sweep, limit)
    assert frame["budget"].is_monotonic_increasing and frame["budget"].iloc[-1] == limit
    for row in frame.itertuples():
        at = rerun(result, budget_chars=int(row.budget))
        assert row.output_chars == at.totals.output
        assert row.output_messages == len(at.survivors)
        assert row.budget_met == at.budget_met
        joined = [s.index for s in sweep.survival if s.survives_from_budget == row.budget]
        joined = [i for i in joined if not result.messages[i].protected]
        if not row.end:
            assert row.joins == views.name_list([f"#{i}" for i in joined])


# --- sensitivity ----------------------------------------------------------------------------


@EXAMPLES
@given(requests())
def test_the_threshold_rows_are_dedupe_at_their_thresholds(request):
    result = run(validate(request))
    sweep = threshold_sweep(result)
    frame = sweep_frames.threshold_frame(sweep)
    assert frame["start"].tolist() == [True] + [False] * len(sweep.steps)
    assert frame["threshold"].iloc[0] == 0.5
    for row, step in zip(frame.iloc[1:].itertuples(), sweep.steps, strict=True):
        at = rerun(result, duplicate_threshold=row.threshold)
        assert [r.index for r in at.deduplication.removed] == list(step.removed)
        assert row.removed_messages == len(at.deduplication.removed)
        assert row.removed_chars == sum(r.chars for r in at.deduplication.removed)
        assert row.span == sweep_frames.threshold_span(step)


def test_threshold_spans_say_which_end_is_included():
    sweep = threshold_sweep(run(validate(rich_request())))
    first = sweep.steps[0]
    assert sweep_frames.threshold_span(first).startswith("0.5 ≤ t ≤ ")
    if len(sweep.steps) > 1:
        assert " < t ≤ " in sweep_frames.threshold_span(sweep.steps[1])


@pytest.mark.slow
@EXAMPLES
@given(requests(), st.integers(80, 4000))
def test_the_trim_rows_hold_the_sweep_at_every_limit_they_cover(request, limit):
    result = run(validate(request))
    sweep = trim_sweep(result)
    frame = sweep_frames.trim_sweep_frame(sweep, limit)
    limits = frame["max_message_chars"].tolist()
    assert limits[0] == 80 and limits[-1] == limit and limits == sorted(set(limits))
    # The row in force at a value is the last whose limit is at most it (the limits are sorted
    # and distinct, checked above); found by bisection, not a pandas mask per value.
    rows = list(frame[["cut_chars", "trimmed_messages", "hard_cuts"]].itertuples(index=False))
    for value in range(80, limit + 1, 7):
        row = rows[bisect_right(limits, value) - 1]
        point = sweep.at(value)
        assert (row.cut_chars, row.trimmed_messages, row.hard_cuts) == (
            point.cut_chars,
            point.trimmed_messages,
            point.hard_cuts,
        )


@EXAMPLES
@given(requests())
def test_trim_cuts_nothing_beyond_the_view_limit(request):
    result = run(validate(request))
    sweep = trim_sweep(result)
    top = sweep_frames.trim_view_limit(sweep)
    assert sweep.current_max_chars <= top <= 4000
    if top < 4000:
        assert all(p.cut_chars == 0 for p in sweep.points if p.max_message_chars >= top)


def test_the_closest_pair_names_protection_only_when_it_reaches_the_range():
    frame = pd.DataFrame(
        [
            {"message": "#5", "nearest": 2, "similarity": 0.72, "protected": True},
            {"message": "#6", "nearest": 1, "similarity": 0.31, "protected": False},
        ]
    )
    assert sweep_frames.closest_pair_text(frame, 0.5) == (
        "The most similar pair of the same role, #5 and #2, reaches 0.720; #5 is protected, so "
        "dedupe never removes it."
    )
    assert sweep_frames.closest_pair_text(frame, 0.8) == (
        "The most similar pair of the same role, #5 and #2, reaches 0.720."
    )
    assert sweep_frames.closest_pair_text(frame.iloc[:0], 0.5) == (
        "No message has an earlier message of the same role."
    )
