"""Summaries per setting: the statistics over conversations, and the frontier by its definition."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor.evaluation import (
    SUMMARY_BUDGETS,
    CorpusItem,
    RunOptions,
    evaluate,
    grid_points,
    knee_budgets,
    load_corpus,
    read_corpus_text,
    rows_in_force,
    summarise,
    worst_by_needed_recall,
)
from compactor.evaluation._summary import met_from
from tests.corpora import tau_bench_corpus
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
    chosen = grid_points({}, {"keep_last_n": [1, 4]})
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
    chosen = grid_points({}, {"max_message_chars": [80, 200]})
    swept = list(evaluate(items, chosen, options=RunOptions(workers=1)))
    listed = list(evaluate(items, chosen, budgets, options=RunOptions(workers=1)))
    # The baselines' rows of a sweep are at the summary's budgets only: compare the settings'.
    assert settings_only(summarise(swept, budgets)) == settings_only(summarise(listed))


def settings_only(summaries):
    beside = ("needed_recall_keep_last", "needed_recall_random", "needed_lift")
    return [
        {k: v for k, v in s.items() if k.removesuffix("_bare") not in beside}
        for s in summaries
        if s["strategy"] == "memory-compact"
    ]


def test_the_rows_in_force_give_the_same_summary():
    items = load_corpus(CORPUS)
    swept = list(
        evaluate(items, grid_points({}, {"keep_last_n": [1, 4]}), options=RunOptions(workers=1))
    )
    few = rows_in_force(swept, SUMMARY_BUDGETS)
    assert len(few) < len(swept) / 2
    assert summarise(few, SUMMARY_BUDGETS) == summarise(swept, SUMMARY_BUDGETS)


def needs_row(
    conversation, budget, needs, met, strategy="memory-compact", chars=100, keep_roles=None
):
    params = (
        {}
        if strategy == "memory-compact"
        else {
            **dict.fromkeys(("keep_last_n", "duplicate_threshold", "max_message_chars")),
            "keep_roles": keep_roles,
        }
    )
    return {
        **row(conversation, budget, chars, 0, 0, True),
        **params,
        "strategy": strategy,
        "needs": needs,
        "needs_met": met,
    }


def test_needed_later_recall_pooled_and_median_beside_the_baselines():
    rows = [
        needs_row(0, 500, 4, 1),
        needs_row(1, 500, 1, 1),
        needs_row(2, 500, 5, 5),
        needs_row(3, 500, None, None),  # too short for a future
        needs_row(4, 500, 0, 0),  # no need
        *(needs_row(k, 500, n, m, "keep-last") for k, (n, m) in enumerate([(4, 0), (1, 1)])),
        needs_row(0, 500, 4, 2.5, "random"),
        # the protected forms of the setting's keep_roles: they kept the system prompt first
        *(
            needs_row(k, 500, n, m, "keep-last", keep_roles=["system"])
            for k, (n, m) in enumerate([(4, 2), (1, 1)])
        ),
        needs_row(0, 500, 4, 2, "random", keep_roles=["system"]),
    ]
    mine, keep_last, drawn, protected, protected_drawn = summarise(rows)
    assert (mine["needs"], mine["needs_met"], mine["needed_recall"]) == (10, 7, 0.7)
    assert mine["needed_recall_median"] == 1.0  # of 0.25, 1 and 1
    assert (keep_last["strategy"], keep_last["needed_recall"]) == ("keep-last", 0.2)
    assert drawn["needed_recall"] == 0.625 and drawn["keep_last_n"] is None
    assert protected["keep_roles"] == ["system"] and protected["needed_recall"] == 0.6
    # compared with the protected form of its keep_roles by default, the bare one beside
    assert mine["needed_recall_keep_last"] == 0.6 and mine["needed_recall_random"] == 0.5
    assert mine["needed_lift"] == 0.1
    assert mine["needed_recall_keep_last_bare"] == 0.2
    assert mine["needed_recall_random_bare"] == 0.625
    assert mine["needed_lift_bare"] == 0.5
    assert protected_drawn["needed_recall_keep_last"] == 0.6  # a baseline beside its own form
    assert keep_last["needed_recall_keep_last"] == 0.2
    assert mine["frontier"] and mine["frontier_needed"] and not keep_last["frontier_needed"]
    assert not protected["frontier_needed"]


@settings(max_examples=100, deadline=None)
@given(st.lists(points, min_size=1, max_size=10))
def test_the_needed_frontier_is_the_settings_no_other_beats_on_both(values):
    rows = [needs_row(0, 100 + k, 6, a, chars=100 * c) for k, (a, c) in enumerate(values)]
    found = {s["budget_chars"]: s["frontier_needed"] for s in summarise(rows)}
    for k, (a, c) in enumerate(values):
        beaten = any(a2 >= a and c2 <= c and (a2 > a or c2 < c) for a2, c2 in values)
        assert found[100 + k] is not beaten


def test_the_worst_by_needed_later_recall_come_lowest_recall_first():
    rows = [
        needs_row(k, 500, n, m)
        for k, (n, m) in enumerate([(4, 3), (2, 0), (None, None), (3, 3), (4, 1), (8, 2)])
    ]
    assert [r["conversation"] for r in worst_by_needed_recall(rows)] == [1, 5, 4, 0]
    assert len(worst_by_needed_recall(rows, 2)) == 2


def test_the_knee_between_two_summary_budgets_gets_budgets_of_its_own():
    # issue 26: tau-bench trajectories whose protected system prompt and last messages need
    # 6,500 to 7,700 characters: every one misses at 5,000 and meets at 10,000, the two
    # neighbouring summary budgets; the knee lies between them.
    items = read_corpus_text(tau_bench_corpus(12, long_record=None)).items
    settings = grid_points({}, {"keep_last_n": [5], "keep_roles": [["system"]]})
    rows = list(evaluate(items, settings, options=RunOptions(workers=1, future=None)))
    met = {s["budget_chars"]: s["budget_met_rate"] for s in summarise(rows, SUMMARY_BUDGETS)}
    assert (met[5000], met[10000]) == (0.0, 1.0)
    assert not [b for b in SUMMARY_BUDGETS if 5000 < b < 10000]
    knees = knee_budgets(rows)
    assert knees and all(5000 < b < 10000 for b in knees)
    at_knees = {s["budget_chars"]: s["budget_met_rate"] for s in summarise(rows, knees)}
    assert 0 < min(at_knees.values()) < 1 == max(at_knees.values())  # the rise, resolved
    # each knee budget is where the engine, compacting at that budget, meets the share it says
    for budget, rate in at_knees.items():
        direct = list(evaluate(items, settings, [budget], RunOptions(workers=1, future=None)))
        met = sum(r["budget_met"] for r in direct)
        assert rate == met * 10**6 // len(direct) / 10**6  # rounded down (issue 36)
        below = list(evaluate(items, settings, [budget - 100], RunOptions(workers=1, future=None)))
        assert sum(r["budget_met"] for r in below) < sum(r["budget_met"] for r in direct)


def test_the_budget_a_conversation_meets_from_is_read_off_its_sweep_steps():
    # steps from 100: 900 characters out, from 500: 800, from 700: 650; met from 700 (the
    # third step's start); from 620 on, that step meets it at its own output, 650; a
    # conversation that never fits has none
    rows = [row(0, 100, 900, 0, 0, False), row(0, 500, 800, 0, 0, False)]
    rows += [row(0, 700, 650, 0, 0, True), row(1, 100, 500_000, 0, 0, False)]
    assert met_from(rows) == [700, None]
    rows[2]["budget_chars"] = 620
    assert met_from(rows) == [650, None]
    assert knee_budgets(rows) == [650]
