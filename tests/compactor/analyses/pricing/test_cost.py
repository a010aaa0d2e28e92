"""A replay priced by hand: each call's reads, writes, uncached and output tokens."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor.analyses.pricing import (
    CacheWrite,
    ModelPrice,
    Split,
    TokenCounter,
    compaction_cost,
    load_prices,
    price_histories,
)
from compactor.analyses.replay import replay
from compactor.model import Message

MODEL = ModelPrice(
    "test-model",
    "test",
    "Test",
    "https://example.test/prices",
    "2026-12-06",
    input=2.0,
    output=10.0,
    cache_read=0.2,
    cache_writes=(CacheWrite(300, 2.5),),
)
ESTIMATE = TokenCounter(None)  # ceil(characters / 4): the hand arithmetic below counts so


def messages(*pairs: tuple[str, str]) -> list[Message]:
    return [Message(i, role, content) for i, (role, content) in enumerate(pairs)]


CONVERSATION = messages(
    ("user", "a" * 40),  # 10 tokens
    ("assistant", "b" * 20),  # 5
    ("user", "c" * 80),  # 20
    ("assistant", "d" * 8),  # 2
    ("user", "e" * 4),  # 1
)


def unchanged(history):
    return list(history)


def test_a_replay_that_keeps_everything_is_priced_as_by_hand():
    result = replay(CONVERSATION, unchanged)
    cost = price_histories(result.histories, CONVERSATION, MODEL, counter=ESTIMATE)
    # calls: turn 0 (m1 answers [m0]), turn 2 (m3 answers [m0..m2]), turn 4 (the last, pending)
    assert [t.call for t in cost.turns] == [True, False, True, False, True]
    assert [t.split for t in cost.turns if t.call] == [
        Split(reads=0, writes=10, uncached=0, output=5),
        Split(reads=10, writes=25, uncached=0, output=2),
        Split(reads=35, writes=3, uncached=0, output=0),
    ]
    # $ per million: 10*2.5 + 5*10 = 75; 10*0.2 + 25*2.5 + 2*10 = 84.5; 35*0.2 + 3*2.5 = 14.5
    assert [t.cost.total * 1e6 for t in cost.turns if t.call] == pytest.approx([75, 84.5, 14.5])
    assert cost.cost.total * 1e6 == pytest.approx(174)
    assert cost.split == Split(45, 38, 0, 7)
    assert cost.approximate and cost.tokens == "characters / 4"
    assert cost.lifetime_seconds == 300


def test_a_rewritten_first_message_throws_the_cache_away():
    def rewrite(history):
        return [replace(history[0], content="z" * 40, origin=None), *history[1:]]

    result = replay(CONVERSATION, rewrite)
    cost = price_histories(result.histories, CONVERSATION, MODEL, counter=ESTIMATE)
    calls = [t.split for t in cost.turns if t.call]
    # turn 2 sends [z.., m1, m2]: nothing equals turn 0's [m0], so all 35 tokens are written;
    # turn 4 keeps turn 2's prefix whole (the rewrite is the same text) and reads it
    assert calls[1] == Split(0, 35, 0, 2)
    assert calls[2] == Split(35, 3, 0, 0)


def test_below_the_minimum_prefix_nothing_is_cached_and_without_a_write_price_it_is_input():
    small = replace(MODEL, min_cacheable_tokens=20)
    result = replay(CONVERSATION, unchanged)
    calls = [
        t.split
        for t in price_histories(result.histories, CONVERSATION, small, counter=ESTIMATE).turns
        if t.call
    ]
    assert calls == [Split(0, 0, 10, 5), Split(0, 35, 0, 2), Split(35, 3, 0, 0)]
    no_writes = replace(MODEL, cache_writes=())
    calls = [
        t.split
        for t in price_histories(result.histories, CONVERSATION, no_writes, counter=ESTIMATE).turns
        if t.call
    ]
    assert calls == [Split(0, 0, 10, 5), Split(10, 0, 25, 2), Split(35, 0, 3, 0)]


def test_timestamps_past_the_lifetime_expire_the_cache():
    result = replay(CONVERSATION, unchanged)
    times = [0, 10, 20, 30, 20 + 301]  # the last call comes 301 s after the one before
    calls = [
        t.split
        for t in price_histories(
            result.histories, CONVERSATION, MODEL, counter=ESTIMATE, times=times
        ).turns
        if t.call
    ]
    assert calls[2] == Split(0, 38, 0, 0)


def test_a_model_without_prices_has_no_cost():
    gemini = load_prices().get("gemini-3-pro-preview")
    result = replay(CONVERSATION, unchanged)
    cost = price_histories(result.histories, CONVERSATION, gemini, counter=ESTIMATE)
    assert cost.cost is None and cost.split.input == 10 + 35 + 38


def test_a_compaction_costs_its_summary_call_and_the_rewrite():
    recorded = compaction_cost(1000, 100, MODEL, summary_tokens=100)
    # the history read from the cache, the summary written as output, then written to the cache
    assert recorded.call == Split(1000, 0, 0, 100) and recorded.rewrite == Split(0, 100, 0, 0)
    assert recorded.cost.total * 1e6 == pytest.approx(1000 * 0.2 + 100 * 10 + 100 * 2.5)
    strategy = compaction_cost(1000, 300, MODEL)
    assert strategy.call == Split() and strategy.cost.total * 1e6 == pytest.approx(300 * 2.5)


contents = st.text(alphabet="abc ", min_size=1, max_size=40)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["user", "assistant", "tool"]), contents), min_size=2, max_size=12
    )
)
def test_a_strategy_that_never_changes_the_prefix_pays_only_reads_and_the_new_tokens(pairs):
    conversation = messages(*pairs)
    result = replay(conversation, unchanged)
    cost = price_histories(result.histories, conversation, MODEL, counter=ESTIMATE)
    previous = 0
    for t in cost.turns:
        if not t.call:
            continue
        # what the last call sent is read; only what arrived since is written
        assert t.split.reads == previous
        assert t.split.writes == t.prompt_tokens - previous
        assert t.split.uncached == 0
        previous = t.prompt_tokens


def test_a_compaction_that_keeps_the_start_reads_it_from_the_cache():
    cost = compaction_cost(1000, 300, MODEL, kept_prefix_tokens=120)
    assert cost.rewrite == Split(120, 180, 0, 0)
    assert cost.cost.total * 1e6 == pytest.approx(120 * 0.2 + 180 * 2.5)
