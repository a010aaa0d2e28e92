"""The outcome frames say what the engine's outcome figures say, on every sample."""

import pandas as pd
import pytest

from compactor import compact, run, validate
from compactor.analyses.outcomes import (
    continuation_check,
    find_needs,
    parse_probes,
    probe_outcomes,
    replay_misses,
    role_balance,
)
from compactor.analyses.replay import ALWAYS, MemoryCompact, replay
from compactor.samples import load_samples
from compactor.strategies import compare_strategies
from explorer.frames import outcomes as frames

SAMPLES = {s.slug: validate(s.request) for s in load_samples()}


@pytest.mark.parametrize("slug", sorted(SAMPLES))
def test_the_recall_frame_is_the_checks_figures(slug):
    check = continuation_check(SAMPLES[slug])
    frame = frames.recall_frame(check).set_index("strategy")
    if not check.valid:
        assert frame.empty
        return
    assert frame.loc[frames.SETTING, "recall"] == check.recall
    assert frame.loc[frames.baseline_label(check), "recall"] == check.keep_last.recall
    random = frame.loc[frames.baseline_label(check, frames.RANDOM)]
    assert (random["recall"], random["low"], random["high"]) == (
        check.random.mean,
        check.random.low,
        check.random.high,
    )
    assert set(frame["needs"]) == {check.setting.needs}


@pytest.mark.parametrize("slug", ["pins-and-ids", "research-chat", "largest"])
def test_every_unmet_need_is_a_row_with_where_each_source_was_lost(slug):
    check = continuation_check(SAMPLES[slug])
    frame = frames.unmet_frame(check)
    assert list(frame["index"]) == [u.user for u in check.setting.unmet]
    assert list(frame["message"]) == [f"#{u.user}" for u in check.setting.unmet]
    assert list(frame["anchor"]) == [u.anchor for u in check.setting.unmet]
    for lost, need in zip(frame["lost"], check.setting.unmet, strict=True):
        assert lost.count("#") == len({s.index for s in need.sources})  # each message once
        assert all(f"#{s.index} " in lost for s in need.sources)


def test_a_source_dropped_reads_never_kept():
    sources = frames.unmet_frame(continuation_check(SAMPLES["pins-and-ids"]))["lost"]
    assert sources.str.contains("drop (never kept)", regex=False).any()


def test_the_dispatcher_past_at_k5_is_not_a_request_so_no_frame_has_a_figure():
    check = continuation_check(SAMPLES["dispatcher"])
    assert not check.valid
    assert frames.unmet_frame(check).empty and frames.role_recall_frame(check).empty
    assert frames.ab_frame({"A": check}).loc[0, "recall"] is None


def test_k_runs_from_1_to_n_minus_2_and_defaults_to_5():
    assert frames.future_range(29) == (1, 27)
    assert frames.future_range(2) == (1, 1)
    assert frames.clamp_future(None, 29) == 5
    assert frames.clamp_future(None, 6) == 4
    assert frames.clamp_future(40, 29) == 27
    assert frames.clamp_future(True, 29) == 5


def test_percent_and_lift_words():
    assert frames.percent(None) == "—" and frames.percent(0.826) == "82.6%"
    assert frames.signed_points(0.029) == "+2.9 pp"
    assert frames.signed_points(-1 / 3) == "-33.3 pp"
    assert frames.signed_points(0.0) == "±0.0 pp"
    assert frames.percent(2 / 3) == "66.7%"


def test_role_balance_has_an_input_and_an_output_share_per_role():
    balance = role_balance(run(SAMPLES["largest"]))
    frame = frames.balance_frame(balance)
    assert len(frame) == 2 * len(balance.roles)
    inputs = frame[frame["side"] == "input"].set_index("role")["share"]
    assert inputs.to_dict() == {r.role: r.input_share for r in balance.roles}
    assert inputs.sum() == pytest.approx(1.0)


def test_the_curve_frame_holds_the_current_budget_and_closes_at_the_limit():
    request = SAMPLES["largest"]
    check = continuation_check(request)
    limit = 2 * request.params.budget_chars
    frame = frames.curve_frame(check, limit)
    assert frame["budget"].is_monotonic_increasing and frame["budget"].iloc[-1] == limit
    assert frame["end"].iloc[-1] and not frame["end"].iloc[:-1].any()
    budget = request.params.budget_chars
    row = frame[frame["budget"] <= budget].iloc[-1]
    assert (row["setting"], row["keep_last"], row["random"]) == (
        check.recall,
        check.keep_last.recall,
        check.random.mean,
    )


def test_the_strategy_frame_judges_every_strategy_run_on_the_past():
    request = SAMPLES["research-chat"]
    check = continuation_check(request)
    needs = find_needs(request.contents, request.roles)
    comparison = compare_strategies(check.result.request)
    frame = frames.strategy_frame(needs, comparison, check).set_index("key")
    assert frame.loc["memory-compact", "recall"] == check.recall
    assert frame.loc["keep-last", "recall"] == check.keep_last.recall
    assert frame.loc["keep-last", "lift"] == 0
    assert frame.loc[frames.RANDOM, "recall"] == check.random.mean


def test_the_strategy_frame_sets_the_protected_keep_last_beside_the_lineups_bare_one():
    request = SAMPLES["pins-and-ids"]
    check = continuation_check(request)
    needs = find_needs(request.contents, request.roles)
    comparison = compare_strategies(check.result.request)
    frame = frames.strategy_frame(needs, comparison, check).set_index("key")
    reference = frame.loc[frames.KEEP_LAST_PROTECTED]
    assert reference["strategy"].startswith(frames.baseline_label(check) + " (the reference)")
    assert (reference["recall"], reference["lift"]) == (check.keep_last.recall, 0)
    assert frame.loc["memory-compact", "lift"] == pytest.approx(
        check.recall - check.keep_last.recall
    )
    pins = sum(m.pin for m in check.result.request.messages)
    assert pins and frames.baseline_label(check) == f"keep-last, {pins} pinned + system kept"
    assert frame.loc[frames.RANDOM, "strategy"].startswith(f"random, {pins} pinned + system")
    bare = frames.strategy_frame(needs, comparison, check.in_form("bare")).set_index("key")
    assert frames.KEEP_LAST_PROTECTED not in bare.index
    # anchor-keep is judged by anchors, which its salient terms resemble: the note says so
    assert "salient terms ~ anchors" in frame.loc["anchor-keep", "note"]
    assert pd.isna(frame.loc["memory-compact", "note"])
    assert bare.loc["keep-last", "lift"] == 0  # the lineup's keep-last is the bare rule


def test_the_probe_frame_reads_the_probe_outcomes():
    request = SAMPLES["pins-and-ids"]
    result = run(request)
    probes = parse_probes({"probes": [{"id": "a", "evidence": [1, 2]}]}, request.messages)
    found = probe_outcomes(probes, result)
    frame = frames.probe_frame(found).set_index("strategy")
    assert frame.loc[frames.SETTING, "strict"] == found.setting.strict
    keep_last = frames.baseline_label(found)
    pins = sum(m.pin for m in request.messages)
    assert keep_last == f"keep-last, {pins} pinned + system kept"  # the sample pins messages
    assert frame.loc[keep_last, "partial"] == found.keep_last.partial
    assert frame.loc[f"{frames.baseline_label(found, 'random')} (mean)", "strict"] == (
        found.random["strict"].mean
    )
    lift = frames.probe_lift_frame(found).set_index("strategy")
    assert lift.loc[f"lift over {keep_last}", "strict"] == pytest.approx(
        found.setting.strict - found.keep_last.strict
    )
    bare = frames.probe_frame(found.in_form("bare")).set_index("strategy")
    assert bare.loc["keep-last, bare", "partial"] == found.in_form("bare").keep_last.partial


def test_probe_columns_join_the_strategy_table_by_key_and_randoms_row_stays_last():
    request = SAMPLES["research-chat"]
    result = run(request)
    check = continuation_check(request)
    needs = find_needs(request.contents, request.roles)
    needed = frames.strategy_frame(needs, compare_strategies(check.result.request), check)
    n = len(request.messages)
    probes = parse_probes({"probes": [{"id": "a", "evidence": [1, n - 1]}]}, request.messages)
    found = probe_outcomes(probes, result)
    lineup = compare_strategies(request, semantic_threshold=0.5)  # one more than the past's
    columns = frames.strategy_probe_frame(probes, request.contents, lineup, found)
    joined = frames.with_probes(needed, columns)
    assert list(joined.columns) == [*needed.columns, *frames.PROBE_COLUMNS]
    assert joined["key"].iloc[-1] == frames.RANDOM
    assert joined["recall"].iloc[-1] == check.random.mean
    assert joined["probes_strict"].iloc[-1] == found.random["strict"].mean
    assert list(joined["key"][: len(needed) - 1]) == list(needed["key"][:-1])
    extra = set(columns["key"]) - set(needed["key"])
    assert set(joined["key"][len(needed) - 1 : -1]) == extra
    by_key = joined.set_index("key")
    assert by_key.loc["memory-compact", "probes_strict"] == found.setting.strict
    assert by_key.loc["keep-last", "probes_partial"] == found.keep_last.partial
    assert frames.with_probes(None, columns) is columns


def test_the_a_b_probe_frame_has_each_sides_rows_and_budget():
    request = SAMPLES["pins-and-ids"]
    probes = parse_probes({"probes": [{"id": "a", "evidence": [1, 2]}]}, request.messages)
    b = validate({**SAMPLES["pins-and-ids"].to_dict(), "budget_chars": 900})
    found = {"A": probe_outcomes(probes, run(request)), "B": probe_outcomes(probes, run(b))}
    frame = frames.ab_probe_frame(found)
    assert list(frame["side"]) == ["A"] * 5 + ["B"] * 5
    assert list(frame["budget_chars"]) == [request.params.budget_chars] * 5 + [900] * 5
    assert list(frames.ab_probe_frame(found, lift=True)["side"]) == ["A", "B"]
    rows = frame.set_index(["side", "strategy"])
    assert rows.loc[("B", frames.SETTING), "strict"] == found["B"].setting.strict


def test_bad_json_is_a_problem_with_its_line_and_column():
    data, problems = frames.read_json('{"probes": [\n  {"id": 1,}\n]}')
    assert data is None
    assert (problems[0].line, problems[0].column) == (2, 12)


def test_the_miss_clause_names_the_first_miss_and_where_it_was_lost():
    request = SAMPLES["largest"]
    needs = find_needs(request.contents, request.roles)
    done = replay(
        request.messages,
        MemoryCompact(request.params),
        policy=ALWAYS,
        budget_chars=request.params.budget_chars,
    )
    misses = replay_misses(done, needs)
    clause = frames.miss_clause(misses)
    first = misses.first_miss
    assert clause.startswith(f"{len(misses.misses):,} of {misses.needs:,} needs missed")
    assert f"the first at turn {first.miss.turn}: {first.miss.anchor}" in clause
    assert f"lost at turn {first.lost_turn}" in clause and f"#{first.lost_index}." in clause
    frame = frames.misses_frame({"a": misses})
    assert frame["misses"].sum() == len(misses.misses)


@pytest.mark.parametrize("slug", ["pins-and-ids", "support-chat"])
def test_a_strategy_over_the_budget_is_flagged_ranked_after_and_set_beside_baselines_at_its_size(
    slug,
):
    # issue 36: clearing strategies returned several times the budget and were listed, and
    # lifted over keep-last, as if they had met it
    request = SAMPLES[slug]
    check = continuation_check(request)
    needs = find_needs(request.contents, request.roles)
    comparison = compare_strategies(check.result.request)
    frame = frames.strategy_frame(needs, comparison, check)
    budget = comparison.budget_chars
    rows = frame[~frame["key"].isin([frames.RANDOM, frames.KEEP_LAST_PROTECTED])]  # references
    over = [(o.output_chars - budget) > 0 for o in comparison.results if o.available]
    assert any(over)
    flags = [str(b).startswith("over budget") for b in rows["budget"]]
    assert flags == sorted(flags)  # every strategy that met the budget comes first
    for _, row in rows.iterrows():
        o = comparison.result(row["key"])
        assert row["chars"] == o.output_chars
        if o.output_chars <= budget:
            assert row["budget"] == "met" and pd.isna(row["keep_last_at_size"])
            assert row["lift"] == pytest.approx(row["recall"] - check.keep_last.recall)
            continue
        assert row["budget"] == f"over budget by {o.output_chars - budget:,} characters"
        at = check.at(min(o.output_chars, check.curve[-1].to_budget))
        assert row["keep_last_at_size"] == pytest.approx(at.keep_last)
        assert row["random_at_size"] == pytest.approx(at.random.mean)
        assert row["lift"] == pytest.approx(row["recall"] - at.keep_last)


def test_a_b_states_each_sides_size_and_whether_it_met_the_budget():
    sides = {
        "A": continuation_check(SAMPLES["pins-and-ids"]),
        "B": continuation_check(
            validate({**SAMPLES["pins-and-ids"].to_dict(), "budget_chars": 100})
        ),
    }
    frame = frames.ab_frame(sides).set_index("side")
    for side, check in sides.items():
        response = compact(check.result.request.to_dict())
        chars = sum(len(m["content"]) for m in response["messages"])
        assert frame.loc[side, "chars"] == chars == check.result.totals.output
        over = chars - check.budget_chars
        said = "met" if over <= 0 else f"over budget by {over:,} characters"
        assert frame.loc[side, "budget"] == said
    assert frame.loc["B", "budget"].startswith("over budget by")  # the pins alone exceed 100
