"""Replay's cost panel: each loop's task priced as the engine prices it, at the model chosen,
and a model whose source gave no price shows its tokens and says so."""

from compactor.analyses.pricing import TokenCounter, load_prices, price_histories
from compactor.analyses.replay import recorded_of
from compactor.input import validate
from explorer.replay.runs import KEEP_LAST, MEMORY_ALWAYS
from harness.apptest import assert_clean, goto, request_of, start, table
from tests.pages.test_replay import PAGE, engine

MODEL_KEY = "price_model_replay"


def test_each_loop_costs_what_the_engine_prices_and_the_model_can_change():
    at = goto(start({"sample": "support-chat"}), PAGE)
    assert_clean(at)
    shown = table(at, "cost (USD)").set_index("loop")
    model = load_prices().get(at.selectbox(key=MODEL_KEY).value)
    recorded = recorded_of(validate(request_of(at)).messages)
    for loop, strategy in ((MEMORY_ALWAYS, "memory-compact"), (KEEP_LAST, "keep-last")):
        expected = price_histories(
            engine(at, strategy).histories, recorded, model, counter=TokenCounter.best()
        )
        assert shown.loc[loop, "cost (USD)"] == expected.cost.total
        assert shown.loc[loop, "reads tokens"] == expected.split.reads
        assert shown.loc[loop, "writes tokens"] == expected.split.writes
        assert shown.loc[loop, "output tokens"] == expected.split.output
    at.selectbox(key=MODEL_KEY).set_value("gemini-3-pro-preview").run()
    assert_clean(at)
    assert table(at, "cost (USD)")["cost (USD)"].isna().all()
    assert any("has no input or output price" in c.value for c in at.caption)
