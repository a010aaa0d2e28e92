"""Graded compactions priced: the recorded summary's call and rewrite, and each strategy's
rewrite, at the model chosen, as the engine prices them."""

from compactor.analyses import RECORDED, grade
from compactor.analyses.pricing import TokenCounter, graded_costs, load_prices
from explorer.graded import frames as graded_frames
from harness.apptest import assert_clean, engine
from tests.pages.test_graded import CLAUDE, imported

MODEL_KEY = "price_model_graded"


def test_the_recorded_compaction_costs_its_call_and_rewrite_beside_each_strategy():
    at, conversion = imported(CLAUDE)
    at.selectbox(key=MODEL_KEY).set_value("gpt-6-2-sol").run()
    assert_clean(at)
    model = load_prices().get("gpt-6-2-sol")
    graded = grade(engine(at).request, conversion.compactions)
    frames = [f.value for f in at.dataframe if "strategy" in f.value.columns]
    for frame, g in zip(frames, graded.compactions, strict=True):
        costs = graded_costs(g, model, counter=TokenCounter.best())
        recorded = costs[RECORDED]
        # the summary call reads the history and writes the summary; the next call writes it
        assert recorded.call.output == recorded.rewrite.writes
        assert recorded.call.reads == sum(TokenCounter.best()(c) for c in g.history)
        shown = dict(zip(frame["strategy"], frame["cost"], strict=True))
        for row in g.rows:
            if row.key in costs:
                assert shown[row.name] == costs[row.key].cost.total
        captions = [c.value for c in at.caption]
        assert graded_frames.cost_sentence(g, costs, model.name) in captions
