"""Strategies: each strategy's cost per task at the model chosen, as a replay of it priced by
the engine, beside the needs it met."""

from compactor.analyses.outcomes import find_needs, replay_misses
from compactor.analyses.pricing import TokenCounter, load_prices, price_histories
from compactor.analyses.replay import replay_request
from compactor.input import validate
from compactor.wording import percent
from harness.apptest import assert_clean, goto, request_of, start

PAGE = "pages/strategies.py"
MODEL_KEY = "price_model_strategies"


def test_each_strategy_costs_its_replay_at_the_model_chosen():
    at = goto(start({"sample": "support-chat"}), PAGE)
    at.selectbox(key=MODEL_KEY).set_value("claude-opus-5-5").run()
    assert_clean(at)
    frame = next(f.value for f in at.dataframe if "cost per task (USD)" in f.value.columns)
    request = validate(request_of(at))
    model = load_prices().get("claude-opus-5-5")
    needs = find_needs(request.contents, request.roles)
    assert {"memory-compact", "keep-last", "anthropic-clear-tool-uses"} <= set(frame["strategy"])
    for row in frame.itertuples(index=False):
        replayed = replay_request(request, row.strategy)
        cost = price_histories(
            replayed.histories, request.messages, model, counter=TokenCounter.best()
        )
        assert row[1] == cost.cost.total  # cost per task (USD)
        assert row.calls == cost.calls
        missed = replay_misses(replayed, needs)
        assert row[2] == percent((missed.needs - len(missed.misses)) / missed.needs)
