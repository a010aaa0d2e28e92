"""recommend's re-read and cost objectives: the re-read recall of the winner is the pooled
figure of its rows, the cost winner is the cheapest trial that holds the floor and its cost is
the price table's, a floor no trial reaches is said plainly, and the command takes both."""

from __future__ import annotations

import json
import math

import pytest

from compactor.analyses.pricing import compaction_cost, load_prices
from compactor.cli._main import main
from compactor.evaluation import evaluate_strategy, load_corpus
from compactor.recommend import (
    METHODS,
    RECOMMENDED,
    Goal,
    Options,
    RecommendError,
    cut_points,
    recommend,
)
from tests.compactor.analyses.test_rereads import A, B, Log, numbered
from tests.compactor.recommend.test_recommend import CORPUS, FAST

MODEL = "claude-sonnet-5-5"
TWO = ("keep-last", "memory-compact")


def sessions(tmp_path, count=4):
    """``count`` agent logs, each reading files, compacting, and reading some of them again."""
    for k in range(count):
        log = Log().read(A, result=numbered(1, 10 + 8 * k, "alpha"))
        log.read(B, result=numbered(1, 30, f"beta{k}")).compact("Summary. " * (5 + k))
        log.read(A).read(B, offset=3, limit=2)
        path = tmp_path / f"s{k}.jsonl"
        path.write_text("\n".join(json.dumps(r) for r in log.records), "utf-8")
    return load_corpus(tmp_path)


def test_the_reread_winner_is_judged_by_its_rows_and_checked_beside_the_baselines(tmp_path):
    items = sessions(tmp_path)
    goal = Goal(budget_chars=600, objective="reread")
    found = recommend(items, goal, Options(trials=4, seed=1, workers=1, strategies=TWO))
    tuned = [i for i in items if i.conversation in found.tuning]
    rows = list(evaluate_strategy(tuned, found.winner.strategy, [dict(found.winner.params)], [600]))
    held = sum(r["rereads_held"] for r in rows)
    assert found.winner_trial.recall == held / sum(r["rereads"] for r in rows)
    assert "re-read recall" in found.check.judge
    assert [f.method for f in found.check.figures] == list(METHODS)
    assert found.check.figure("keep-last").recall is not None


def test_the_reread_objective_needs_recorded_compactions():
    with pytest.raises(RecommendError, match="no recorded compactions"):
        recommend(CORPUS, Goal(budget_chars=900, objective="reread"), FAST)


def test_cut_points_keep_the_compactions_inside_them(tmp_path):
    (item,) = sessions(tmp_path, 1)
    for cut in cut_points(item, 2, count=4):
        end = len(cut.request["messages"])
        assert cut.compactions == tuple(c for c in item.compactions if c.boundary < end)


@pytest.fixture(scope="module")
def cheapest():
    goal = Goal(budget_chars=900, objective="cost", floor=0.5, model=MODEL)
    return recommend(CORPUS, goal, FAST)


def test_the_cost_winner_is_the_cheapest_trial_that_holds_the_floor(cheapest):
    winner = cheapest.winner_trial
    assert winner.recall >= 0.5 and winner.needed == winner.recall
    held = [t for t in cheapest.trials if t.feasible]
    assert winner.cost == min(t.cost for t in held)
    assert any(not t.feasible and "floor" in t.why_not for t in cheapest.trials)


def test_the_cost_is_the_price_tables_and_the_check_shows_the_floor(cheapest):
    price = load_prices().get(MODEL)
    checked = [i for i in CORPUS if i.conversation in cheapest.checking]
    rows = list(
        evaluate_strategy(checked, cheapest.winner.strategy, [dict(cheapest.winner.params)], [900])
    )
    costs = [compaction_cost(0, math.ceil(r["output_chars"] / 4), price).cost.total for r in rows]
    check = cheapest.check
    assert check.figure(RECOMMENDED).recall == pytest.approx(sum(costs) / len(costs))
    assert check.floor == 0.5 and [f.method for f in check.floor_figures] == list(METHODS)
    assert check.floor_figure(RECOMMENDED).recall >= 0.5
    assert MODEL in check.judge and "needed-later recall" in check.floor_judge
    # keep-last keeps none of the planted needs: cheaper or not, it misses the floor
    assert check.floor_figure("keep-last").recall == 0.0
    assert "keep-last misses the floor (its needed-later recall is 0.0%)" in check.verdict
    shown = "\n".join(check.lines())
    assert "per 1,000 conversations" in shown and "the floor" in shown
    data = cheapest.to_dict()
    assert data["objective"]["model"] == MODEL and data["check"]["floor"]["held"]
    assert 'strategy = "' in data["toml"]


def test_a_floor_no_trial_reaches_is_said_plainly():
    goal = Goal(budget_chars=900, objective="cost", floor=0.9, model=MODEL)
    only = Options(trials=2, seed=0, workers=1, strategies=("keep-last",))
    with pytest.raises(RecommendError) as raised:
        recommend(CORPUS, goal, only)
    (problem,) = raised.value.problems
    assert problem.path == "floor"
    assert "no trial reaches the floor of 90.0%" in problem.message
    assert "the best needed-later recall any trial reached is 0.0% (keep-last)" in problem.message


def test_a_cost_goal_names_what_it_lacks():
    with pytest.raises(RecommendError) as raised:
        Goal(budget_chars=900, objective="cost", model="no-such-model").check()
    paths = {p.path: p.message for p in raised.value.problems}
    assert "state the needed-later recall" in paths["floor"]
    assert "no model 'no-such-model'" in paths["model"] and MODEL in paths["model"]


def test_the_command_takes_the_cost_objective(tmp_path, capsys):
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("\n".join(json.dumps(i.request) for i in CORPUS), "utf-8")
    args = ["recommend", str(corpus), "--budget", "900", "--objective", "cost"]
    args += ["--floor", "0.5", "--model", MODEL, "--trials", "6", "--seed", "3", "--workers", "1"]
    args += ["--strategies", "keep-last,anchor-keep", "--json"]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["objective"]["name"] == "cost" and data["objective"]["floor"] == 0.5
    assert data["tuning_figures"]["cost_usd"] > 0
    assert data["check"]["floor"]["figures"][0]["method"] == RECOMMENDED
    assert main([*args[:-1], "--floor", "2"]) == 2
    assert "floor: must be a share from 0 to 1" in capsys.readouterr().err
