"""The replay's stages on content numbers decide what the pipeline decides, request by request."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor import analyse, run, validate
from compactor.engine._pipeline import outputs
from compactor.engine._turn_stages import TurnStages
from compactor.text._incremental import IncrementalAnalysis
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


@settings(max_examples=200, deadline=None)
@given(requests(min_size=3, max_size=14), st.data())
def test_the_turn_stages_agree_on_each_rules_edge(request, data):
    """Parameters drawn on the rules' edges, where a ``>`` written for a ``>=`` shows: a
    threshold equal to a similarity in the history, a limit equal to a message's length, a
    budget equal to a total the drop stage passes through."""
    typed = validate(request)
    similarity = analyse(typed.contents, typed.roles).similarity
    similarities = sorted({float(s) for s in similarity[~np.isnan(similarity)] if s >= 0.5})
    lengths = sorted({len(c) for c in typed.contents if 80 <= len(c) <= 4000})
    edges = {}
    if similarities:
        edges["duplicate_threshold"] = data.draw(st.sampled_from(similarities))
    if lengths:
        edges["max_message_chars"] = data.draw(st.sampled_from(lengths))
    on_edge = validate({**request, **edges})
    passed = run(on_edge).dropping.dropped
    totals = sorted({t for d in passed for t in (d.total_before, d.total_after) if t >= 100})
    if totals:
        on_edge = validate({**request, **edges, "budget_chars": data.draw(st.sampled_from(totals))})
    got = TurnStages(on_edge.params).outputs(
        on_edge.contents, on_edge.roles, [m.pin for m in on_edge.messages]
    )
    assert tuple(got) == outputs(on_edge)
