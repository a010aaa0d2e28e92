"""The replay's stages on content numbers decide what the pipeline decides, request by request."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor import validate
from compactor.engine.pipeline import outputs
from compactor.engine.turn_stages import TurnStages
from compactor.text.incremental import IncrementalAnalysis
from tests.generate import requests


def params_of(request):
    return {k: v for k, v in request.items() if k != "messages"}


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(requests(max_size=14))
def test_the_turn_stages_return_what_the_pipeline_returns(request):
    typed = validate(request)
    got = TurnStages(typed.params).outputs(
        typed.contents, typed.roles, [m.pin for m in typed.messages]
    )
    assert tuple(got) == outputs(typed)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(requests(min_size=4, max_size=14), st.data())
def test_one_analysis_serves_many_histories_of_the_same_contents(request, data):
    """As in a replay: histories of messages picked from one conversation, some cut short, all
    compacted with one TurnStages (so similarities, cuts and counts are reused)."""
    typed = validate(request)
    stages = TurnStages(typed.params, IncrementalAnalysis())
    stages.analysis.register(typed.contents)
    for _ in range(data.draw(st.integers(1, 5))):
        picked = data.draw(st.lists(st.sampled_from(request["messages"]), min_size=2))
        history = []
        for m in picked[:200]:
            cut = data.draw(st.integers(1, len(m["content"])))
            history.append({**m, "content": m["content"][:cut]})
        again = validate({"messages": history, **params_of(request)})
        sources = [m["content"] for m in picked[:200]]
        got = stages.outputs(again.contents, again.roles, [m.pin for m in again.messages], sources)
        assert tuple(got) == outputs(again)
