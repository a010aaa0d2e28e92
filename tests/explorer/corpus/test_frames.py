"""The Corpus page's frames against the engine's rows and summaries: a setting's rows read from a
sweep run equal the engine's rows at that budget, the worst list is a plain sort of the rows
with a problem, and the summary frame's axes are the summaries' totals."""

import math

import pandas as pd
import pytest

from compactor.analyses import REREAD_JUDGE
from compactor.contract import PARAMETERS
from compactor.evaluation import (
    SUMMARY_BUDGETS,
    RunOptions,
    conversation_rows,
    evaluate,
    grid_points,
    load_corpus,
    summarise,
)
from explorer.corpus import frames
from tests.compactor.evaluation.test_reread_rows import SETTING, session
from tests.paths import ROOT

SHAREGPT = ROOT / "tests" / "fixtures" / "real" / "sharegpt_glaive_toolcall_4_records.json"
GRID = {"keep_last_n": [1, 4], "max_message_chars": [120, 400]}


@pytest.fixture(scope="module")
def corpus():
    return load_corpus(SHAREGPT)


def of_settings(rows):
    """The rows of the grid's settings (the baselines' rows are the reference points)."""
    return [r for r in rows if r["strategy"] == "memory-compact"]


@pytest.fixture(scope="module")
def listed_all(corpus):
    return list(
        evaluate(corpus, grid_points({}, GRID), budgets=[300, 1500], options=RunOptions(workers=1))
    )


@pytest.fixture(scope="module")
def listed(listed_all):
    return of_settings(listed_all)


@pytest.fixture(scope="module")
def swept(corpus):
    return list(evaluate(corpus, grid_points({}, GRID), options=RunOptions(workers=1)))


def test_the_rows_frame_holds_every_row_with_what_follows_from_it(listed):
    frame = frames.rows_frame(listed)
    assert len(frame) == len(listed)
    for row, shown in zip(listed, frame.to_dict("records"), strict=True):
        assert shown["conversation"] == f"record {row['conversation']}"
        for name in (*PARAMETERS, *frames.COUNTS):
            want = frames.roles_label(row[name]) if name == "keep_roles" else row[name]
            assert shown[name] == want, name
        assert shown["anchors_lost"] == row["anchors"] - row["anchors_kept"]
        assert shown["shortfall_chars"] == max(0, row["output_chars"] - row["budget_chars"])
        if row["anchors"]:
            assert shown["retention"] == row["anchors_kept"] / row["anchors"]
        else:
            assert math.isnan(shown["retention"])
        assert shown["setting"] == frames.setting_label(row)


def test_every_setting_has_its_own_label(listed):
    keys = {frames.setting_key(r) for r in listed}
    labels = {frames.setting_label(r) for r in listed}
    assert len(keys) == len(labels) == 2 * 2 * 2


@pytest.mark.parametrize("budget", [100, 300, 777, 1500, 5000])
def test_a_setting_read_from_a_sweep_run_is_the_engine_at_that_budget(corpus, swept, budget):
    for setting in grid_points({}, GRID):
        read = frames.setting_rows(swept, {**setting, "budget_chars": budget})
        engine = list(evaluate(corpus, [setting], budgets=[budget], options=RunOptions(workers=1)))
        assert read == of_settings(engine)


def test_a_setting_of_a_listed_run_is_its_own_rows(listed):
    setting = {**grid_points({}, GRID)[1], "budget_chars": 1500}
    read = frames.setting_rows(listed, setting)
    assert read == [r for r in listed if frames.setting_key(r) == frames.setting_key(setting)]
    assert len(read) == 4


def test_the_worst_list_is_the_rows_with_a_problem_sorted_worst_first(swept):
    for summary in frames.settings_of(summarise(swept, [300, 1000])):
        rows = frames.setting_rows(swept, frames.setting_of(summary))
        worst = frames.worst_frame(frames.rows_frame(rows))
        bad = [
            r
            for r in rows
            if r["anchors_kept"] < r["anchors"] or not r["budget_met"] or r["tool_pairs_broken"]
        ]
        bad.sort(
            key=lambda r: (
                -(r["anchors"] - r["anchors_kept"]),
                r["budget_met"],
                -max(0, r["output_chars"] - r["budget_chars"]),
                -r["tool_pairs_broken"],
            )
        )
        assert list(worst["conversation"]) == [f"record {r['conversation']}" for r in bad]
        for shown, row in zip(worst.to_dict("records"), bad, strict=True):
            lost = row["anchors"] - row["anchors_kept"]
            assert (f"{lost:,} of {row['anchors']:,} anchors lost" in shown["problems"]) == (
                lost > 0
            )
            assert ("budget missed" in shown["problems"]) == (not row["budget_met"])
            assert ("broken" in shown["problems"]) == (row["tool_pairs_broken"] > 0)


def test_the_worst_list_stops_at_its_limit(swept):
    rows = frames.rows_frame(of_settings(swept))
    assert len(frames.worst_frame(rows, limit=3)) == 3
    assert len(frames.worst_frame(rows)) <= frames.WORST_LIMIT


def test_the_worst_lists_are_counted_whole_before_they_are_cut(swept):
    rows = frames.rows_frame(of_settings(swept))
    every = len(frames.worst_frame(rows, limit=len(rows)))
    assert frames.count_with_problems(rows) == every > 3
    unmet = [r for r in rows.to_dict("records") if r["needs"] > r["needs_met"]]
    assert frames.count_needs_unmet(rows) == len(unmet)
    assert frames.listed_count(200, "with a problem") == (
        "200 conversations with a problem, the first 50 shown"
    )
    assert frames.listed_count(50, "with a problem") == "50 conversations with a problem"
    assert frames.listed_count(1, "with a need unmet") == "1 conversation with a need unmet"


def test_the_summary_frame_is_the_engines_summaries_with_the_frontiers_axes(swept):
    summaries = frames.settings_of(summarise(swept, [300, 1000, 5000]))
    frame = frames.summary_frame(summaries)
    assert list(frame["setting"]) == [frames.setting_label(s) for s in summaries]
    for summary, shown in zip(summaries, frame.to_dict("records"), strict=True):
        assert shown["frontier"] == summary["frontier"]
        assert shown["budget_met_rate"] == summary["budget_met_rate"]
        assert shown["chars_per_conversation"] == summary["output_chars"] / summary["conversations"]
        assert shown["retention"] == summary["anchors_kept"] / summary["anchors"]
    # the frontier: no other point has at least the retention with at most the characters
    points = list(zip(frame["chars_per_conversation"], frame["retention"], strict=True))
    for (chars, kept), on in zip(points, frame["frontier"], strict=True):
        beaten = any(c <= chars and k >= kept and (c < chars or k > kept) for c, k in points)
        assert on == (not beaten)


def test_a_conversation_without_anchors_has_no_retention(corpus):
    rows = list(
        evaluate(corpus[1:2], grid_points({}, {}), budgets=[500], options=RunOptions(workers=1))
    )
    assert rows[0]["anchors"] == 0
    assert math.isnan(frames.rows_frame(of_settings(rows))["retention"][0])
    summary = frames.summary_frame(summarise(rows))
    assert math.isnan(summary["retention"][0])


def test_sweep_runs_are_summarised_up_to_the_largest_conversation():
    assert frames.summary_budgets(SUMMARY_BUDGETS, 4911) == [100, 200, 500, 1000, 2000, 5000]
    assert frames.summary_budgets(SUMMARY_BUDGETS, 5000) == [100, 200, 500, 1000, 2000, 5000]
    assert frames.summary_budgets(SUMMARY_BUDGETS, 50) == [100]
    assert frames.summary_budgets(SUMMARY_BUDGETS, 10**9) == list(SUMMARY_BUDGETS)


def test_labels_name_a_conversation_by_its_record_or_path():
    assert frames.conversation_label(3) == "record 3"
    assert frames.conversation_label("logs/a.jsonl#2") == "logs/a.jsonl#2"
    setting = {"budget_chars": 12000, "keep_last_n": 0, "keep_roles": []}
    setting |= {"duplicate_threshold": 1.0, "max_message_chars": 80}
    assert frames.setting_label(setting) == (
        "budget 12,000 · last 0 · roles none · threshold 1 · trim 80"
    )


def test_the_needed_later_recall_of_a_row_and_the_worst_by_it(swept):
    for summary in frames.settings_of(summarise(swept, [300, 1000])):
        rows = frames.setting_rows(swept, frames.setting_of(summary))
        frame = frames.rows_frame(rows)
        for row, shown in zip(rows, frame.to_dict("records"), strict=True):
            if row["needs"]:
                assert shown["needed_recall"] == row["needs_met"] / row["needs"]
            else:
                assert math.isnan(shown["needed_recall"])
        worst = frames.worst_needed_frame(frame)
        unmet = [r for r in rows if r["needs"] and r["needs_met"] < r["needs"]]
        unmet.sort(key=lambda r: (r["needs_met"] / r["needs"], r["needs_met"] - r["needs"]))
        assert list(worst["conversation"]) == [f"record {r['conversation']}" for r in unmet]
        assert list(worst["needs_unmet"]) == [r["needs"] - r["needs_met"] for r in unmet]


def test_the_baselines_are_reference_points_beside_the_settings(swept):
    summaries = summarise(swept, [500, 1000])  # a sweep's baselines are at the summary's budgets
    frame = frames.summary_frame(summaries)
    assert len(frame) == len(frames.settings_of(summaries)) == 2 * 2 * 2
    assert "needed_recall" in frame and "needed_recall_keep_last" in frame
    reference = frames.baseline_frame(summaries)
    assert sorted(zip(reference["strategy"], reference["budget_chars"], strict=True)) == sorted(
        (s, b) for s in ("keep-last", "random") for b in (500, 1000)
    )
    for summary in summaries:
        if summary["strategy"] == "memory-compact":
            continue
        shown = reference[
            (reference["strategy"] == summary["strategy"])
            & (reference["budget_chars"] == summary["budget_chars"])
        ].iloc[0]
        assert shown["chars_per_conversation"] == summary["output_chars"] / summary["conversations"]
        assert shown["needed_recall"] == summary["needed_recall"]


def test_a_strategys_rows_are_summed_per_setting_and_budget():
    def row(params, budget, met, chars, anchors, kept, broken, needs, needs_met):
        return {
            "strategy_params": params,
            "budget_chars": budget,
            "budget_met": met,
            "output_chars": chars,
            "anchors": anchors,
            "anchors_kept": kept,
            "tool_pairs_broken": broken,
            "needs": needs,
            "needs_met": needs_met,
        }

    rows = [
        row({"n": 1}, 500, True, 400, 4, 2, 0, 3, 1),
        row({"n": 1}, 500, False, 900, 6, 6, 1, None, None),
        row({"n": 1}, 500, True, 100, 0, 0, 0, 5, 5),
        row({"n": 3}, 500, True, 300, 0, 0, 2, 0, 0),
        row({}, 500, True, 300, 0, 0, 2, 0, 0),
    ]
    summary = frames.strategy_summary(rows).set_index("parameters")
    assert list(summary.index) == ["n = 1", "n = 3", "its own defaults"]  # never "{}"
    one = summary.loc["n = 1"]
    assert one["conversations"] == 3 and one["budget_met"] == 0.666  # rounded down
    assert one["chars_median"] == 400 and one["anchors_kept"] == pytest.approx(8 / 10)
    assert one["tool_pairs_broken"] == 1 and one["needs"] == 8
    assert one["needed_recall"] == pytest.approx(6 / 8)
    three = summary.loc["n = 3"]
    assert pd.isna(three["anchors_kept"]) and pd.isna(three["needed_recall"])


def test_the_corpus_page_says_a_settings_reread_recall_with_its_count_and_judge(tmp_path):
    (item,) = load_corpus(session(tmp_path))
    summaries = summarise(conversation_rows(item, [SETTING], [20_000]))
    (one,) = frames.summary_frame(summaries).to_dict("records")
    said = frames.reread_text(one)
    recall = one["rereads_held"] / 5
    assert said.startswith(f"re-read recall {100 * recall:.1f}%; keep-last 100.0%; random ")
    assert "over 5 re-reads (" in said and "of 1 conversation," in said
    assert said.endswith(f"Judge: {REREAD_JUDGE}.")
    assert frames.reread_text({**one, "rereads": 0}) is None
    assert frames.reread_text({"rereads": float("nan")}) is None
