"""Recommend: the goal form runs the search on the loaded conversation; the page shows the
engine's recommendation (the same goal and seed), its check beside the defaults, keep-last and
random with the judge named, the runners-up, and a download of the winner's setting."""

import json

import pandas as pd
import pytest

from compactor import validate
from compactor.analyses.outcomes import continuation_check
from compactor.evaluation import CorpusItem, evaluate_strategy, load_corpus
from compactor.recommend import Goal, Options, recommend
from compactor.samples import load_sample
from explorer.recommend import widgets as recommend_widgets
from explorer.session import keys
from harness.apptest import assert_clean, charts, goto, load, page_text, start, table
from tests.compactor.recommend.test_recommend import CORPUS, planted
from tests.pages.test_corpus import load_path, run_grid

PAGE = "pages/recommend.py"


def test_the_page_shows_the_engines_recommendation_and_its_check():
    request = {**planted(2).request, "budget_chars": 900}
    at = goto(load(start(), request), PAGE)
    assert_clean(at)
    at.number_input(key="recommend_trials").set_value(4)
    at.button[0].click()  # the form's submit button is its only button before a result
    at = at.run()
    assert_clean(at)
    label = "Test conversation"
    expected = recommend(
        [CorpusItem(label, request)],
        Goal(budget_chars=900, min_budget_met=0.95),
        Options(trials=4, seed=0, workers=1),
    )
    shown = table(at, "method")
    assert shown["method"].tolist() == [f.method for f in expected.check.figures]
    assert shown["recall"].tolist() == pytest.approx(
        [f.recall for f in expected.check.figures], abs=1e-3
    )
    text = page_text(at)
    assert expected.check.verdict in text
    assert "needed-later recall" in text  # the judge is named
    runners = table(at, "rank")
    assert runners["strategy"].iloc[0] == expected.winner.strategy
    assert isinstance(runners, pd.DataFrame)
    assert any(b.label == "Download setting" for b in at.get("download_button"))


def test_a_whole_sessions_budget_over_the_contracts_opens_the_goal_form():
    # a loaded agent session's budget past 400,000 characters (the agent mode's, up to
    # 2,000,000) is the goal form's budget, not a failed view
    messages = [
        {"role": ("user", "assistant")[i % 2], "content": f"step {i} " + "x" * 9000}
        for i in range(60)
    ]
    at = goto(load(start(), {"messages": messages, "budget_chars": 450_000}), PAGE)
    assert_clean(at)
    assert at.number_input(key=recommend_widgets.BUDGET_KEY).value == 450_000
    assert Goal(budget_chars=450_000).chars == 450_000  # the engine takes it too


def recommend_links(at):
    return [p for p in at.get("page_link") if "recommend" in p.proto.page]


def test_overview_offers_recommend_only_when_the_setting_is_below_keep_last():
    for budget in (1200, 600):  # the tour: below keep-last at 1,200, level at 600
        request = {**load_sample("tour").request, "budget_chars": budget}
        lift = continuation_check(validate(request)).lift
        at = load(start(), request)
        assert_clean(at)
        below = lift is not None and lift < 0
        assert bool(recommend_links(at)) == below, (budget, lift)
        assert any("fewer of the needs than keep-last" in w.value for w in at.info) == below


def test_the_cost_objective_shows_dollars_and_the_floor_beside_the_engines_figures():
    request = {**planted(2).request, "budget_chars": 900}
    at = goto(load(start(), request), PAGE)
    at.number_input(key="recommend_trials").set_value(4)
    at.selectbox(key="recommend_objective").set_value("cost")
    at.number_input(key="recommend_floor").set_value(0.0)
    at.selectbox(key="recommend_model").set_value("claude-sonnet-5-5")
    at.button[0].click()
    at = at.run()
    assert_clean(at)
    goal = Goal(budget_chars=900, objective="cost", floor=0.0, model="claude-sonnet-5-5")
    expected = recommend(
        [CorpusItem("Test conversation", request)], goal, Options(trials=4, seed=0, workers=1)
    )
    shown = table(at, "method")
    assert shown["cost"].tolist() == pytest.approx(
        [f.recall * 1000 for f in expected.check.figures], abs=1e-6
    )
    text = page_text(at)
    assert expected.check.verdict in text
    assert "needed-later recall at least 0.0%" in text and "Claude Sonnet" in text


def test_a_cost_goal_without_a_model_is_named_not_a_traceback():
    request = {**planted(2).request, "budget_chars": 900}
    at = goto(load(start(), request), PAGE)
    at.selectbox(key="recommend_objective").set_value("cost")
    at.button[0].click()
    at = at.run()
    assert_clean(at)
    problems = table(at, "problem", as_shown=True)
    said = dict(zip(problems["where"], problems["problem"], strict=True))
    assert said["model"] == "name the model whose prices to minimise"
    assert "state the needed-later recall" in said["floor"]


def test_a_corpus_recommendation_is_the_engines_and_is_labelled_on_the_corpus_frontier(tmp_path):
    path = tmp_path / "planted.jsonl"
    path.write_text("\n".join(json.dumps(i.request) for i in CORPUS), "utf-8")
    at = goto(start(), PAGE)
    at.radio(key=recommend_widgets.SOURCE_KEY).set_value(recommend_widgets.CORPUS)
    at = load_path(at.run(), path)  # the Corpus page's own loader
    assert_clean(at)
    at.number_input(key=recommend_widgets.BUDGET_KEY).set_value(900)
    at.number_input(key="recommend_trials").set_value(4)
    next(b for b in at.button if b.label == "Recommend").click()
    at = at.run()
    assert_clean(at)
    items = load_corpus(path)
    expected = recommend(items, Goal(budget_chars=900), Options(trials=4, seed=0, workers=1))
    shown = table(at, "method")
    assert shown["recall"].tolist() == pytest.approx(
        [f.recall for f in expected.check.figures], abs=1e-3
    )
    assert "a seeded bootstrap over conversations" in page_text(at)
    point = at.session_state[keys.RECOMMENDED_POINT_KEY]
    winner = expected.winner
    rows = list(evaluate_strategy(items, winner.strategy, [dict(winner.params)], [900]))
    assert point["strategy"] == winner.strategy and point["budget_chars"] == 900
    assert point["chars_per_conversation"] == pytest.approx(
        sum(r["output_chars"] for r in rows) / len(rows)
    )
    # the Corpus page, on the same corpus, labels the winner "recommended" on its frontier
    at = run_grid(goto(at, "pages/corpus.py"), budgets="900")
    assert_clean(at)
    texts = [t for _, data in charts(at) for f in data.values() if "text" in f for t in f["text"]]
    assert f"recommended: {winner.strategy}" in texts
