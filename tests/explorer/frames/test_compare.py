"""Frames of the A/B and Strategies pages, checked against the engine's comparisons."""

import sys
from dataclasses import replace

import pandas as pd
import pytest
from hypothesis import settings

from compactor import run, validate
from compactor.analyses._ab import compare_params
from compactor.model import Params
from compactor.samples import load_sample
from compactor.strategies._lineup import compare_strategies
from explorer.frames import compare as compare_frames
from explorer.frames import safe_text
from tests.explorer.requests import rich_request

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


def test_ab_rows_and_totals_are_compare_params(rich):
    request = rich.request
    b = replace(request.params, budget_chars=1500, max_message_chars=120)
    comparison = compare_params(request, request.params, b)
    frame = compare_frames.ab_frame(comparison)
    assert tuple(frame.loc[frame["differs"], "index"]) == comparison.differing
    assert comparison.differing  # the move changes something
    for row, pair in zip(frame.itertuples(), comparison.messages, strict=True):
        assert (row.fate_a, row.chars_a, row.fate_b, row.chars_b) == (
            pair.fate_a,
            pair.chars_a,
            pair.fate_b,
            pair.chars_b,
        )
    totals = compare_frames.ab_totals(comparison).set_index("measure")
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
    long = compare_frames.ab_long(comparison)
    assert len(long) == 2 * len(frame)
    assert set(long.loc[long["differs"], "index"]) == set(comparison.differing)


def test_a_budget_met_under_a_only_reads_yes_no_changed(rich):
    request = rich.request
    b = replace(request.params, budget_chars=100)  # below the protected characters
    comparison = compare_params(request, request.params, b)
    assert comparison.a.budget_met and not comparison.b.budget_met
    totals = compare_frames.ab_totals(comparison).set_index("measure")
    assert tuple(totals.loc["Budget met"]) == ("yes", "no", "changed")
    fewer = comparison.b.output_chars - comparison.a.output_chars
    assert fewer < 0 and totals.loc["Characters out", "B vs A"] == f"-{-fewer:,}"


def test_ab_changes_read_as_words_and_signed_numbers():
    assert compare_frames.change_text(4_000, 4_000) == "same"
    assert compare_frames.change_text(1_200, 3_450) == "+2,250"
    assert compare_frames.change_text(3_450, 1_200) == "-2,250"
    assert compare_frames.change_text(7, 7, same="no change") == "no change"
    assert (compare_frames.yes_no(True), compare_frames.yes_no(False)) == ("yes", "no")


def test_param_rows_flag_what_b_changes():
    a = {**Params(400).to_dict()}
    b = {**a, "keep_roles": ["system", "tool"], "duplicate_threshold": 0.75}
    rows = compare_frames.param_rows(a, b).set_index("parameter")
    assert list(rows.index[rows["changed"]]) == ["keep_roles", "duplicate_threshold"]
    assert rows.loc["keep_roles", "B"] == "system, tool"
    assert rows.loc["budget_chars", "A"] == "400"
    no_roles = compare_frames.param_rows(a, {**a, "keep_roles": []}).set_index("parameter")
    assert no_roles.loc["keep_roles", "B"] == "(none)"


# --- strategies -----------------------------------------------------------------------------


def test_strategy_frames_are_the_comparison(rich):
    comparison = compare_strategies(rich.request, keep_last_messages=6, drop_tool_parts=True)
    totals = compare_frames.strategy_totals(comparison).set_index("key")
    for outcome in comparison.results:
        row = totals.loc[outcome.key]
        assert row["output_chars"] == outcome.output_chars
        assert row["tokens_estimate"] == outcome.tokens_estimate
        assert row["output_messages"] == outcome.output_messages
        assert bool(row["budget_met"]) == outcome.budget_met
    messages = compare_frames.strategy_messages(comparison)
    for outcome in comparison.results:
        assert list(messages[outcome.key]) == [m.kept for m in outcome.messages]
        assert list(messages[f"{outcome.key} chars"]) == [m.chars for m in outcome.messages]
    settings = compare_frames.strategy_settings(compare_frames.strategy_totals(comparison))
    shown = [line.split("|") for line in settings.to_string(delimiter="|").splitlines()[1:]]
    assert [cells[1:] for cells in shown] == [
        [safe_text.markdown_literal(o.name), safe_text.markdown_literal(o.how)]
        for o in comparison.results
    ]
    long = compare_frames.strategy_long(comparison)
    assert len(long) == len(comparison.results) * len(rich.messages)
    assert compare_frames.strategy_order(comparison) == [o.name for o in comparison.results]


def test_an_unavailable_strategy_has_a_row_without_numbers(rich, monkeypatch):
    monkeypatch.setitem(sys.modules, "langchain_core", None)
    monkeypatch.setitem(sys.modules, "langchain_core.messages", None)
    comparison = compare_strategies(rich.request)
    totals = compare_frames.strategy_totals(comparison).set_index("key")
    assert not totals.loc["langchain-trim", "available"]
    assert pd.isna(totals.loc["langchain-trim", "output_chars"])
    assert 'pip install -e ".[langchain]"' in totals.loc["langchain-trim", "how"]
    assert "langchain-trim" not in compare_frames.strategy_messages(comparison).columns
    assert "LangChain trim_messages" not in compare_frames.strategy_order(comparison)
