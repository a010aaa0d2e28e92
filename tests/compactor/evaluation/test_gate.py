"""The regression gate's figures: every threshold reads the summary's own figure, fails below
(or above) its bound, and names the conversations worst on it, checked against the rows."""

import pytest

from compactor.errors import ProblemError
from compactor.evaluation import RunOptions, evaluate, grid_points, load_corpus, summarise
from compactor.evaluation._gate import (
    ALIASES,
    FIGURES,
    Threshold,
    check,
    parse_threshold,
    setting_groups,
    strategy_groups,
)
from tests.paths import ROOT

TAU = ROOT / "tests" / "fixtures" / "real" / "tau_airline_3_records.json"


@pytest.fixture(scope="module")
def run():
    settings = grid_points({}, {"keep_last_n": [1, 6]})
    rows = list(evaluate(load_corpus(TAU), settings, [1500, 6000], RunOptions(workers=1)))
    return rows, summarise(rows)


def test_every_numeric_figure_of_a_summary_can_be_gated(run):
    rows, summaries = run
    numeric = {
        k
        for s in summaries
        for k, v in s.items()
        if isinstance(v, int | float) and not isinstance(v, bool)
    }
    # the setting itself, the count of conversations, and the references the lift reads
    setting = {"budget_chars", "keep_last_n", "duplicate_threshold", "max_message_chars"}
    others = {"conversations", "anchors", "needs", "needed_recall_keep_last", "budget_met_count"}
    others |= {"needed_recall_random", "needed_recall_keep_last_bare", "needed_recall_random_bare"}
    unmeasured = {"probes_strict", "probes_partial", "probes_answer", "output_tokens"}  # here
    assert numeric - setting - others == set(FIGURES) - unmeasured
    assert set(ALIASES.values()) <= set(FIGURES)


@pytest.mark.parametrize(
    "text, figure, bound",
    [
        ("needed_later=0.6", "needed_recall", 0.6),
        ("budget_met=95%", "budget_met_rate", 0.95),
        (" anchor_retention = 0.5 ", "anchor_retention_median", 0.5),
        ("output_chars_p90=12000", "output_chars_p90", 12000),
        ("needed_lift=-0.1", "needed_lift", -0.1),
    ],
)
def test_a_threshold_reads_a_figure_or_its_alias_and_a_number_or_a_percentage(text, figure, bound):
    t = parse_threshold(text)
    assert (t.figure, t.bound, t.direction) == (figure, bound, "under")


@pytest.mark.parametrize(
    "text, says",
    [
        ("needed_latr=0.6", "'needed_latr' is not a figure; the figures are budget_met_rate"),
        ("needed_later=60", "is not a share; write 0 to 1 (0.6) or a percentage (60%)"),
        ("budget_met=", "write FIGURE=VALUE"),
        ("budget_met=nan", "'nan' is not a number"),
        ("budget_met=lots", "'lots' is not a number"),
        ("output_chars=5%", "output_chars is not a share"),
    ],
)
def test_a_bad_threshold_says_what_and_where(text, says):
    with pytest.raises(ProblemError) as caught:
        parse_threshold(text, "under", "--fail-under[2]")
    (problem,) = caught.value.problems
    assert problem.path == "--fail-under[2]" and says in problem.message


def test_a_figure_holds_at_its_own_value_and_fails_just_above_it(run):
    rows, summaries = run
    groups = setting_groups(summaries, rows)
    assert len(groups) == 4  # the baselines are references, not checked
    for group in groups:
        value = group.summary["anchor_retention_median"]
        (held,) = check([group], [Threshold("anchor_retention_median", value)])
        (failed,) = check([group], [Threshold("anchor_retention_median", value + 0.01)])
        assert held.holds and not failed.holds and failed.value == value
        assert failed.lines()[0].startswith("FAIL anchor_retention_median (anchor retention")


def test_the_worst_conversations_are_those_the_figure_counts_against(run):
    rows, summaries = run
    for group in setting_groups(summaries, rows):
        (verdict,) = check([group], [Threshold("budget_met_rate", 1.0)])
        missed = sorted(
            (r for r in group.rows if not r["budget_met"]),
            key=lambda r: r["budget_chars"] - r["output_chars"],
        )
        assert [c for c, _ in verdict.worst] == [r["conversation"] for r in missed][:5]
        assert verdict.holds == (not missed)
        for (_, words), r in zip(verdict.worst, missed, strict=False):
            assert words == f"{r['output_chars'] - r['budget_chars']:,} characters over the budget"


def test_needed_later_worst_are_the_lowest_recall_first(run):
    rows, summaries = run
    for group in setting_groups(summaries, rows):
        (verdict,) = check([group], [Threshold("needed_recall", 1.0)])
        unmet = [r for r in group.rows if r["needs"] and r["needs_met"] < r["needs"]]
        ratios = [r["needs_met"] / r["needs"] for r in unmet]
        shown = [r for c, _ in verdict.worst for r in unmet if r["conversation"] == c]
        assert [r["needs_met"] / r["needs"] for r in shown] == sorted(ratios)[:5]


def test_an_unmeasured_figure_fails_and_says_why(run):
    rows, summaries = run
    (verdict,) = check(setting_groups(summaries, rows)[:1], [Threshold("probes_strict", 0.0)])
    assert not verdict.holds and verdict.value is None
    assert "not measured (no conversation carries probes)" in verdict.lines()[0]


def test_an_over_threshold_fails_above_its_bound(run):
    rows, summaries = run
    group = setting_groups(summaries, rows)[0]
    top = group.summary["output_chars_p90"]
    (held,) = check([group], [Threshold("output_chars_p90", top, "over")])
    (failed,) = check([group], [Threshold("output_chars_p90", top - 1, "over")])
    assert held.holds and not failed.holds
    biggest = max(group.rows, key=lambda r: r["output_chars"])
    assert failed.worst[0] == (
        biggest["conversation"],
        f"{biggest['output_chars']:,} characters out",
    )


def test_another_strategys_rows_are_summarised_for_the_gate():
    from compactor.evaluation._strategy_rows import strategy_rows
    from compactor.strategies import _registry as registry

    keep_last = registry.get("keep-last")
    rows = [r for item in load_corpus(TAU) for r in strategy_rows(item, keep_last, [{}], [3000])]
    (group,) = strategy_groups(rows)
    met = sum(r["budget_met"] for r in rows) / len(rows)
    assert group.summary["budget_met_rate"] == round(met, 6)
    assert group.summary["tool_pairs_broken"] == sum(r["tool_pairs_broken"] for r in rows)
    assert group.label == "keep-last {}, budget_chars 3,000"
