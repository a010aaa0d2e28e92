"""Summaries per setting: the statistics over conversations, and the frontier by its definition."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor.evaluation import (
    SUMMARY_BUDGETS,
    CorpusItem,
    RunOptions,
    evaluate,
    load_corpus,
    rows_in_force,
    settings_grid,
    summarise,
)
from tests.generate import requests
from tests.paths import CORPUS


def row(conversation, budget, chars, kept, anchors, met, keep_last_n=5, broken=0):
    return {
        "conversation": conversation,
        "budget_chars": budget,
        "keep_last_n": keep_last_n,
        "keep_roles": ["system"],
        "duplicate_threshold": 0.9,
        "max_message_chars": 400,
        "output_chars": chars,
        "output_messages": 2,
        "budget_met": met,
        "anchors": anchors,
        "anchors_kept": kept,
        "tool_pairs_broken": broken,
    }


def test_the_statistics_of_one_setting():
    rows = [
        row(k, 1000, chars, kept, anchors, chars <= 1000)
        for k, (chars, kept, anchors) in enumerate(
            [(900, 1, 2), (1500, 3, 3), (400, 0, 0), (1000, 2, 8), (700, 5, 10)]
        )
    ]
    (s,) = summarise(rows)
    assert s["conversations"] == 5 and s["budget_met_rate"] == 0.8
    chars = [900, 1500, 400, 1000, 700]
    assert [s["output_chars_p10"], s["output_chars_median"], s["output_chars_p90"]] == [
        np.percentile(chars, 10),
        900,
        np.percentile(chars, 90),
    ]
    retention = [0.5, 1.0, 0.25, 0.5]  # the conversation without anchors is not counted
    assert s["anchor_retention_median"] == 0.5
    assert s["anchor_retention_p10"] == round(np.percentile(retention, 10), 6)
    assert (s["anchors"], s["anchors_kept"], s["output_chars"]) == (23, 11, 4500)
    assert s["frontier"] is True


def test_retention_is_none_when_no_conversation_has_anchors():
    (s,) = summarise([row(0, 500, 100, 0, 0, True)])
    assert s["anchor_retention_median"] is None


points = st.tuples(st.integers(0, 6), st.integers(0, 6))


@settings(max_examples=200, deadline=None)
@given(st.lists(points, min_size=1, max_size=12))
def test_the_frontier_is_the_settings_no_other_beats_on_both(values):
    # one conversation; setting k keeps values[k][0] anchors in 100 * values[k][1] characters
    rows = [row(0, 100 + k, 100 * c, a, 6, True) for k, (a, c) in enumerate(values)]
    found = {s["budget_chars"]: s["frontier"] for s in summarise(rows)}
    for k, (a, c) in enumerate(values):
        beaten = any(a2 >= a and c2 <= c and (a2 > a or c2 < c) for a2, c2 in values)
        assert found[100 + k] is not beaten


def test_sweep_rows_read_at_a_budget_equal_rows_evaluated_there():
    items = load_corpus(CORPUS)
    chosen = settings_grid({}, {"keep_last_n": [1, 4]})
    swept = list(evaluate(items, chosen, options=RunOptions(workers=1)))
    listed = list(evaluate(items, chosen, list(SUMMARY_BUDGETS), options=RunOptions(workers=1)))
    assert summarise(swept, SUMMARY_BUDGETS) == summarise(listed)


@settings(max_examples=25, deadline=None)
@given(
    st.lists(requests(max_size=8), min_size=1, max_size=4),
    st.lists(st.integers(100, 3000), min_size=1, max_size=3, unique=True),
)
def test_sweep_rows_read_at_budgets_equal_listed_rows_on_random_conversations(requests, budgets):
    items = [CorpusItem(k, r) for k, r in enumerate(requests)]
    chosen = settings_grid({}, {"max_message_chars": [80, 200]})
    swept = list(evaluate(items, chosen, options=RunOptions(workers=1)))
    listed = list(evaluate(items, chosen, budgets, options=RunOptions(workers=1)))
    assert summarise(swept, budgets) == summarise(listed)


def test_the_rows_in_force_give_the_same_summary():
    items = load_corpus(CORPUS)
    swept = list(
        evaluate(items, settings_grid({}, {"keep_last_n": [1, 4]}), options=RunOptions(workers=1))
    )
    few = rows_in_force(swept, SUMMARY_BUDGETS)
    assert len(few) < len(swept) / 2
    assert summarise(few, SUMMARY_BUDGETS) == summarise(swept, SUMMARY_BUDGETS)
