"""clear-then-fit (issue 36, item 1): Anthropic's clearing, then keep-last or memory-compact on
what it returned, so that the composition meets the budget the clearing alone ignores."""

import pytest

from compactor import compact, validate
from compactor.samples import load_samples
from compactor.strategies import get_strategy, strategy_names
from compactor.strategies._spec import StrategyParameterError

SAMPLES = {s.slug: validate(s.request) for s in load_samples()}


def cleared_messages(request, budget):
    """What the clearing step alone returns: the request's messages with their new content."""
    clear = get_strategy("anthropic-clear-tool-uses").apply(request, budget_chars=budget)
    originals = request.to_dict()["messages"]
    return [
        {**originals[m.index], "content": m.content}
        for m in clear.messages
        if m.content is not None
    ], clear


@pytest.mark.parametrize("slug", ["support-chat", "pins-and-ids", "coding-agent"])
def test_then_keep_last_is_the_last_whole_messages_of_the_cleared_history_that_fit(slug):
    request = SAMPLES[slug]
    budget = request.params.budget_chars
    messages, clear = cleared_messages(request, budget)
    assert clear.output_chars > budget  # the clearing alone misses the budget
    kept, used = [], 0
    for m in reversed(messages):  # brute force: the longest run of recent whole messages
        if used + len(m["content"]) > budget:
            break
        kept.insert(0, m)
        used += len(m["content"])
    result = get_strategy("clear-then-fit").apply(request)
    assert [m for m in result.returned()] == [
        {"role": m["role"], "content": m["content"]} | ({"id": m["id"]} if "id" in m else {})
        for m in kept
    ]
    assert result.budget_met and result.output_chars == used
    assert result.parameters["then"] == "keep-last" and "keep" in result.parameters


@pytest.mark.parametrize("slug", ["support-chat", "pins-and-ids"])
def test_then_memory_compact_is_the_engine_on_the_cleared_history(slug):
    request = SAMPLES[slug]
    budget = request.params.budget_chars
    messages, _ = cleared_messages(request, budget)
    engine = compact({**request.to_dict(), "messages": messages, "budget_chars": budget})
    result = get_strategy("clear-then-fit").apply(request, params={"then": "memory-compact"})
    assert [m["content"] for m in result.returned()] == [m["content"] for m in engine["messages"]]
    assert result.budget_met == engine["budget"]["budget_met"]


def test_it_is_registered_with_both_steps_parameters_and_cites_the_clearing_docs():
    assert "clear-then-fit" in strategy_names()
    strategy = get_strategy("clear-then-fit")
    clearing = {p.name for p in get_strategy("anthropic-clear-tool-uses").parameters}
    assert clearing | {"then"} == {p.name for p in strategy.parameters}
    assert strategy.source.url == get_strategy("anthropic-clear-tool-uses").source.url
    with pytest.raises(StrategyParameterError, match="clear-then-fit.then"):
        strategy.validate({"then": "random"})
