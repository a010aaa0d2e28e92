"""The Tune pages' data frames hold the engine's numbers: checked against the engine's own
functions and against running the pipeline at the values a chart shows."""

import sys
from dataclasses import replace

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor import run, validate
from compactor.analyses.ab import compare_params
from compactor.analyses.sweeps import (
    BUDGET_RANGE,
    Survival,
    budget_sweep,
    threshold_sweep,
    trim_sweep,
)
from compactor.model import Params
from compactor.samples import load_sample
from compactor.strategies.lineup import compare_strategies
from explorer import textviews, tuning, views
from tests.explorer.requests import rich_request
from tests.generate import requests

EXAMPLES = settings(max_examples=40, deadline=None)


def values(series):
    """A column as Python values, None for a missing one (Int64 columns hold pd.NA)."""
    return [None if pd.isna(v) else v for v in series]


def rerun(result, **params):
    """The pipeline on the same messages with some parameters changed."""
    request = replace(result.request, params=replace(result.request.params, **params))
    return run(request, result.analysis)


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
    assert tuning.survival_label(survival, BUDGET_RANGE) == label


def test_the_dispatcher_survival_table(dispatcher):
    frame = tuning.survival_frame(budget_sweep(dispatcher), dispatcher)
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
    frame = tuning.survival_frame(sweep, result)
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
    frame = tuning.with_survival(views.fate_frame(rich), sweep)
    assert list(frame["kept_from"]) == [
        tuning.survival_label(s, BUDGET_RANGE) for s in sweep.survival
    ]
    assert frame["survives_from_budget"].isna().tolist() == [
        s.survives_from_budget is None for s in sweep.survival
    ]


@EXAMPLES
@given(requests(), st.integers(100, 6000))
def test_the_budget_step_rows_are_the_output_at_their_budgets(request, current):
    result = run(validate({**request, "budget_chars": current}))
    sweep = budget_sweep(result)
    limit = tuning.budget_view_limit(sweep)
    assert limit >= current and limit >= sweep.steps[-1].from_budget and limit <= BUDGET_RANGE[1]
    frame = tuning.budget_steps_frame(sweep, limit)
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
    frame = tuning.threshold_frame(sweep)
    assert frame["start"].tolist() == [True] + [False] * len(sweep.steps)
    assert frame["threshold"].iloc[0] == 0.5
    for row, step in zip(frame.iloc[1:].itertuples(), sweep.steps, strict=True):
        at = rerun(result, duplicate_threshold=row.threshold)
        assert [r.index for r in at.deduplication.removed] == list(step.removed)
        assert row.removed_messages == len(at.deduplication.removed)
        assert row.removed_chars == sum(r.chars for r in at.deduplication.removed)
        assert row.span == tuning.threshold_span(step)


def test_threshold_spans_say_which_end_is_included():
    sweep = threshold_sweep(run(validate(rich_request())))
    first = sweep.steps[0]
    assert tuning.threshold_span(first).startswith("0.5 ≤ t ≤ ")
    if len(sweep.steps) > 1:
        assert " < t ≤ " in tuning.threshold_span(sweep.steps[1])


@EXAMPLES
@given(requests(), st.integers(80, 4000))
def test_the_trim_rows_hold_the_sweep_at_every_limit_they_cover(request, limit):
    result = run(validate(request))
    sweep = trim_sweep(result)
    frame = tuning.trim_frame(sweep, limit)
    limits = frame["max_message_chars"].tolist()
    assert limits[0] == 80 and limits[-1] == limit and limits == sorted(set(limits))
    for value in range(80, limit + 1, 7):
        row = frame[frame["max_message_chars"] <= value].iloc[-1]
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
    top = tuning.trim_view_limit(sweep)
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
    assert tuning.closest_pair_text(frame, 0.5) == (
        "The most similar pair of the same role, #5 and #2, reaches 0.720; #5 is protected, so "
        "dedupe never removes it."
    )
    assert tuning.closest_pair_text(frame, 0.8) == (
        "The most similar pair of the same role, #5 and #2, reaches 0.720."
    )
    assert tuning.closest_pair_text(frame.iloc[:0], 0.5) == (
        "No message has an earlier message of the same role."
    )


# --- A/B ------------------------------------------------------------------------------------


def test_ab_rows_and_totals_are_compare_params(rich):
    request = rich.request
    b = replace(request.params, budget_chars=1500, max_message_chars=120)
    comparison = compare_params(request, request.params, b)
    frame = tuning.ab_frame(comparison)
    assert tuple(frame.loc[frame["differs"], "index"]) == comparison.differing
    assert comparison.differing  # the move changes something
    for row, pair in zip(frame.itertuples(), comparison.messages, strict=True):
        assert (row.fate_a, row.chars_a, row.fate_b, row.chars_b) == (
            pair.fate_a,
            pair.chars_a,
            pair.fate_b,
            pair.chars_b,
        )
    totals = tuning.ab_totals(comparison).set_index("measure")
    assert totals.loc["Characters out", "A"] == f"{comparison.a.output_chars:,}"
    assert totals.loc["Characters out", "B"] == f"{comparison.b.output_chars:,}"
    assert totals.loc["Messages out", "B vs A"] == (
        f"{comparison.b.output_messages - comparison.a.output_messages:+,}"
    )
    assert comparison.b.output_messages != comparison.a.output_messages  # so not "same"
    met = (comparison.a.budget_met, comparison.b.budget_met)
    assert tuple(totals.loc["Budget met"]) == (
        *("yes" if m else "no" for m in met),
        "same" if met[0] == met[1] else "changed",
    )
    long = tuning.ab_long(comparison)
    assert len(long) == 2 * len(frame)
    assert set(long.loc[long["differs"], "index"]) == set(comparison.differing)


def test_a_budget_met_under_a_only_reads_yes_no_changed(rich):
    request = rich.request
    b = replace(request.params, budget_chars=100)  # below the protected characters
    comparison = compare_params(request, request.params, b)
    assert comparison.a.budget_met and not comparison.b.budget_met
    totals = tuning.ab_totals(comparison).set_index("measure")
    assert tuple(totals.loc["Budget met"]) == ("yes", "no", "changed")
    fewer = comparison.b.output_chars - comparison.a.output_chars
    assert fewer < 0 and totals.loc["Characters out", "B vs A"] == f"-{-fewer:,}"


def test_ab_changes_read_as_words_and_signed_numbers():
    assert tuning.change_text(4_000, 4_000) == "same"
    assert tuning.change_text(1_200, 3_450) == "+2,250"
    assert tuning.change_text(3_450, 1_200) == "-2,250"
    assert tuning.change_text(7, 7, same="no change") == "no change"
    assert (tuning.yes_no(True), tuning.yes_no(False)) == ("yes", "no")


def test_param_rows_flag_what_b_changes():
    a = {**Params(400).to_dict()}
    b = {**a, "keep_roles": ["system", "tool"], "duplicate_threshold": 0.75}
    rows = tuning.param_rows(a, b).set_index("parameter")
    assert list(rows.index[rows["changed"]]) == ["keep_roles", "duplicate_threshold"]
    assert rows.loc["keep_roles", "B"] == "system, tool"
    assert rows.loc["budget_chars", "A"] == "400"
    no_roles = tuning.param_rows(a, {**a, "keep_roles": []}).set_index("parameter")
    assert no_roles.loc["keep_roles", "B"] == "(none)"


# --- strategies -----------------------------------------------------------------------------


def test_strategy_frames_are_the_comparison(rich):
    comparison = compare_strategies(rich.request, keep_last_messages=6, drop_tool_parts=True)
    totals = tuning.strategy_totals(comparison).set_index("key")
    for outcome in comparison.outcomes:
        row = totals.loc[outcome.key]
        assert row["output_chars"] == outcome.output_chars
        assert row["tokens_estimate"] == outcome.tokens_estimate
        assert row["output_messages"] == outcome.output_messages
        assert bool(row["budget_met"]) == outcome.budget_met
    messages = tuning.strategy_messages(comparison)
    for outcome in comparison.outcomes:
        assert list(messages[outcome.key]) == [m.kept for m in outcome.messages]
        assert list(messages[f"{outcome.key} chars"]) == [m.chars for m in outcome.messages]
    settings = tuning.strategy_settings(tuning.strategy_totals(comparison))
    shown = [line.split("|") for line in settings.to_string(delimiter="|").splitlines()[1:]]
    assert [cells[1:] for cells in shown] == [
        [textviews.markdown_literal(o.name), textviews.markdown_literal(o.how)]
        for o in comparison.outcomes
    ]
    long = tuning.strategy_long(comparison)
    assert len(long) == len(comparison.outcomes) * len(rich.messages)
    assert tuning.strategy_order(comparison) == [o.name for o in comparison.outcomes]


def test_an_unavailable_strategy_has_a_row_without_numbers(rich, monkeypatch):
    monkeypatch.setitem(sys.modules, "langchain_core", None)
    monkeypatch.setitem(sys.modules, "langchain_core.messages", None)
    comparison = compare_strategies(rich.request)
    totals = tuning.strategy_totals(comparison).set_index("key")
    assert not totals.loc["langchain", "available"]
    assert pd.isna(totals.loc["langchain", "output_chars"])
    assert 'pip install -e ".[langchain]"' in totals.loc["langchain", "how"]
    assert "langchain" not in tuning.strategy_messages(comparison).columns
    assert "LangChain trim_messages" not in tuning.strategy_order(comparison)
