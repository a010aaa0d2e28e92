"""``evaluate --fail-under``: the regression gate as CI runs it, a real process per exit code.

0 when every figure holds, 1 when one falls short (naming the figure, its value, the threshold
and the worst conversations), 2 for a threshold that cannot be read or checked."""

import os
import subprocess
import sys

import pytest

from compactor.evaluation import RunOptions, evaluate, grid_points, load_corpus, summarise
from tests.paths import ROOT

TAU = ROOT / "tests" / "fixtures" / "real" / "tau_airline_3_records.json"
BUDGET = 6000


def gate(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "compactor", "evaluate", str(TAU), *map(str, args)],
        capture_output=True,
        cwd=ROOT,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
    )


@pytest.fixture(scope="module")
def summary():
    """The engine's own summary of the one setting the tests gate."""
    rows = list(evaluate(load_corpus(TAU), grid_points(), [BUDGET], RunOptions(workers=1)))
    (found,) = [s for s in summarise(rows) if s["strategy"] == "memory-compact"]
    return found, rows


def test_every_figure_at_or_above_its_threshold_exits_0(summary):
    found, _ = summary
    done = gate(
        "--budgets",
        BUDGET,
        "--workers",
        1,
        "--fail-under",
        f"needed_later={found['needed_recall']}",
        "--fail-under",
        f"anchor_retention={found['anchor_retention_median']}",
        "--fail-over",
        f"tool_pairs_broken={found['tool_pairs_broken']}",
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode()
    assert f"ok   needed_recall (needed-later recall, pooled) = {found['needed_recall']:.6g}" in out
    assert "gate: ok, every check holds (3 thresholds on 1 setting)" in out


def test_a_figure_below_its_threshold_exits_1_naming_it_and_the_worst_conversations(summary):
    found, rows = summary
    assert found["budget_met_rate"] < 0.95  # the long tau-bench records miss 6,000 characters
    done = gate("--budgets", BUDGET, "--workers", 1, "--fail-under", "budget_met=0.95")
    assert done.returncode == 1, done.stderr
    out = done.stdout.decode()
    rate = found["budget_met_rate"]
    assert f"FAIL budget_met_rate (budget met rate) = {rate:.6g}, under 0.95" in out
    missed = sorted(
        (r for r in rows if r["strategy"] == "memory-compact" and not r["budget_met"]),
        key=lambda r: r["budget_chars"] - r["output_chars"],
    )
    named = "; ".join(
        f"record {r['conversation']} ({r['output_chars'] - BUDGET:,} characters over the budget)"
        for r in missed
    )
    assert f"worst conversations: {named}" in out
    assert "gate: FAIL, 1 of 1 check fell short" in out
    assert "Traceback" not in done.stderr.decode()


def test_in_github_actions_a_failure_is_also_an_error_annotation(summary):
    found, _ = summary
    rate = found["budget_met_rate"]
    assert rate < 0.95  # a figure that can fall short (needed-later recall here is 1.0)
    done = gate(
        "--budgets",
        BUDGET,
        "--workers",
        1,
        "--fail-under",
        "budget_met=0.95",
        env={"GITHUB_ACTIONS": "true"},
    )
    assert done.returncode == 1
    (annotation,) = [
        line for line in done.stderr.decode().splitlines() if line.startswith("::error ")
    ]
    assert f"budget_met_rate (budget met rate) = {rate:.6g}" in annotation


@pytest.mark.parametrize(
    "args, says",
    [
        (
            ["--budgets", BUDGET, "--fail-under", "needed_latr=0.6"],
            "--fail-under[0]: 'needed_latr' is not a figure; the figures are budget_met_rate, "
            "anchor_retention_median",
        ),
        (["--budgets", BUDGET, "--fail-under", "needed_later=60"], "is not a share"),
        (["--budgets", BUDGET, "--fail-over", "tool_pairs_broken"], "write FIGURE=VALUE"),
        (["--fail-under", "budget_met=0.9"], "the gate checks each setting at its budget"),
        (
            ["--budgets", BUDGET, "--no-outcomes", "--fail-under", "needed_later=0.5"],
            "needed_recall needs the outcomes",
        ),
        (
            ["--budgets", BUDGET, "--strategy", "keep-last", "--fail-under", "needed_later=0.5"],
            "needed_recall is measured for memory-compact only, not keep-last",
        ),
        (
            ["--budgets", BUDGET, "--fail-over", "output_tokens=900"],
            "output_tokens needs --encoding",
        ),
    ],
)
def test_a_threshold_that_cannot_be_read_or_checked_exits_2_before_any_work(args, says):
    done = gate(*args)
    assert done.returncode == 2
    err = done.stderr.decode()
    assert says in err and "Traceback" not in err
    assert done.stdout == b""  # refused before the evaluation: no summary


def test_another_strategy_is_gated_on_the_figures_its_rows_measure():
    done = gate(
        "--strategy",
        "keep-last",
        "--budgets",
        BUDGET,
        "--fail-under",
        "budget_met=1",
        "--workers",
        1,
    )
    assert done.returncode == 0, done.stderr
    assert "ok   budget_met_rate (budget met rate) = 1, at least 1" in done.stdout.decode()


def test_every_setting_of_a_grid_is_gated_on_its_own():
    done = gate(
        "--grid",
        "keep_last_n=1,6",
        "--budgets",
        BUDGET,
        "--workers",
        1,
        "--fail-over",
        "output_chars_p90=400000",
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode()
    for n in (1, 6):
        assert (
            f"gate, memory-compact, budget_chars 6,000, keep_last_n {n}, keep_roles system" in out
        )
    assert "gate: ok, every check holds (1 threshold on 2 settings)" in out
