"""One judge for every strategy of the registry: ``judge_outcome`` against the plain loop over
the spans each message really returns, found from the returned text itself."""

from __future__ import annotations

import pytest

from compactor import validate
from compactor.analyses._sweeps import BUDGET_RANGE
from compactor.analyses.outcomes import find_needs, judge_outcome, past_request
from compactor.strategies import _registry as registry
from compactor.strategies._returned import CUT, REMOVED, REPLACED, VERBATIM
from tests.compactor.analyses.outcomes.brute import corpus_requests, plain_needs, plain_recall
from tests.compactor.analyses.outcomes.test_judge_spans import plain_span_recall

CORPUS = corpus_requests()
NAMES = [n for n in registry.names() if n != "semantic-dedupe"]
#: Strategies whose every returned message is its input or a prefix of it.
PREFIX_ONLY = ("memory-compact", "keep-last", "drop-oldest", "langchain-trim", "openai-truncation")


def returned_spans(original: str, m) -> tuple[tuple[int, int], ...]:
    """The spans of ``original`` that message ``m`` returns verbatim, checked against its
    returned text: a prefix, the listed spans joined, or listed spans found in order."""
    if m.kept == REMOVED:
        assert m.content is None and m.chars == 0
        return ()
    if m.kept == VERBATIM:
        assert m.content == original
        return ((0, len(original)),)
    if m.kept == CUT and m.spans is None:
        assert original.startswith(m.content)
        return ((0, len(m.content)),)
    spans = m.spans or ()
    if m.kept == CUT:  # a cut returns its spans joined, nothing added
        assert "".join(original[a:b] for a, b in spans) == m.content
    at = 0
    for a, b in spans:  # a replaced message: each span found in its text, in order
        found = m.content.find(original[a:b], at)
        assert found >= 0, (original[a:b], m.content)
        at = found + b - a
    assert m.kept == REPLACED or spans
    return tuple(spans)


@pytest.mark.parametrize("name,data", CORPUS, ids=[n for n, _ in CORPUS])
def test_every_registry_strategy_is_judged_by_what_it_returns(name, data):
    request = validate(data)
    future = min(5, len(request.contents) - 2)
    past = past_request(request, future)
    needs = find_needs(request.contents, request.roles)
    plain = plain_needs(request.contents, request.roles)
    p = len(past.messages)
    for share in (0.2, 0.5):
        budget = min(BUDGET_RANGE[1], max(100, int(share * sum(map(len, past.contents)))))
        for strategy in NAMES:
            params = dict(registry.get(strategy).lineup)
            if "clear-tool" in strategy:  # clear from the first token, inputs too
                params |= {"trigger": 1, "clear_tool_inputs": True}
            outcome = registry.apply(strategy, past, budget_chars=budget, params=params)
            if not outcome.available:
                continue
            judged = judge_outcome(needs, outcome)
            pairs = zip(past.contents, outcome.messages, strict=True)
            spans = [returned_spans(c, m) for c, m in pairs]
            expected, met = plain_span_recall(plain, spans, p)
            assert (judged.needs, judged.met) == (len(expected), len(met)), strategy
            assert [(u.user, u.anchor) for u in judged.unmet] == [
                need for need in expected if need not in met
            ]
            returned = {m.index: m.content for m in outcome.messages if m.content is not None}
            for _user, anchor in met:  # a met need's anchor is in what is returned
                assert any(anchor in returned.get(i, "") for i in range(p)), (strategy, anchor)
            if strategy in PREFIX_ONLY:
                by_text = plain_recall(plain, request.contents, returned, p)
                assert by_text == (expected, met), strategy


def tool_history(result: str) -> dict:
    return {
        "messages": [
            {"role": "user", "content": "Look up the booking."},
            {"role": "assistant", "content": 'Looking.\n[tool call find id=c1] {"q": "DE-4471"}'},
            {"role": "tool", "content": result, "id": "c1"},
            {"role": "assistant", "content": "[tool call ls id=c2] {}"},
            {"role": "tool", "content": "nothing here", "id": "c2"},
            {"role": "user", "content": "So what about DE-4471 and seat 14C?"},
        ],
        "budget_chars": 2000,
    }


def test_a_placeholder_holds_no_source_though_it_is_long_enough():
    request = validate(tool_history("Booking DE-4471, seat 14C, confirmed."))
    past = past_request(request, 1)
    needs = find_needs(request.contents, request.roles)
    masked = registry.apply("observation-masking", past, budget_chars=2000, params={"n": 1})
    assert masked.messages[2].kept == REPLACED
    assert masked.messages[2].chars >= len(request.contents[2])  # a prefix judge would meet it
    judged = judge_outcome(needs, masked)
    lost = {u.anchor: u.sources for u in judged.unmet}
    assert "14C" in lost and {s.lost_at for s in lost["14C"]} == {"replaced"}
    assert "DE-4471" not in lost  # the call's input still holds it


def test_a_cleared_input_loses_its_anchors_and_keeps_the_text_around_it():
    request = validate(tool_history("ok"))
    past = past_request(request, 1)
    needs = find_needs(request.contents, request.roles)
    params = {"trigger": 1, "keep": 1, "clear_tool_inputs": True}
    cleared = registry.apply("anthropic-clear-tool-uses", past, budget_chars=2000, params=params)
    call = cleared.messages[1]
    assert call.kept == REPLACED and call.content == "Looking.\n[tool call find id=c1] {}"
    assert [past.contents[1][a:b] for a, b in call.spans] == ["Looking.", "[tool call find id=c1] "]
    lost = {u.anchor: u.sources for u in judge_outcome(needs, cleared).unmet}
    assert [s.lost_at for s in lost["DE-4471"]] == ["replaced"]
