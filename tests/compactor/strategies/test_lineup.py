"""Other strategies on the same history and budget: keep-last, the seeds/003 trim, LangChain."""

import dataclasses
import math
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor import InvalidRequest, run, validate
from compactor.samples import load_sample
from compactor.strategies._context_trim import trim_context
from compactor.strategies._keep_last import keep_last, keep_last_count
from compactor.strategies._langchain_trim import (
    INSTALL_HINT,
    LangChainUnavailable,
    langchain_available,
    langchain_trim,
    langchain_version,
)
from compactor.strategies._lineup import compare_strategies
from compactor.strategies._returned import CUT, StrategyMessage, message
from compactor.text._tokens import count_tokens
from tests.generate import requests


def dispatcher():
    return validate(load_sample("dispatcher").request)


def test_dispatcher_at_300_characters():
    comparison = compare_strategies(dispatcher(), 300)
    # Lengths 73, 95, 107, 95, 59, 37. memory-compact drops the assistant answer (2) and the
    # duplicate (3); the last four fit in 298; the trim's 75 tokens hold 10 + 15 + 24 = 49 but
    # not 49 + 27; LangChain keeps the system message and fits 37 + 59 + 95 in the 227 left.
    summary = {
        o.key: (o.kept, o.output_chars, o.output_messages, o.tokens_estimate, o.budget_met)
        for o in comparison.results[:4]
    }
    assert summary == {
        "memory-compact": ((0, 1, 4, 5), 264, 4, 68, True),
        "keep-last": ((2, 3, 4, 5), 298, 4, 76, True),
        "drop-oldest": ((3, 4, 5), 191, 3, 49, True),
        "langchain-trim": ((0, 3, 4, 5), 264, 4, 68, True),
    }
    trim = comparison.result("drop-oldest")
    assert trim.parameters == {"maxTokensEstimate": 75, "dropToolParts": False}
    assert trim.stats == {
        "messagesBefore": 6,
        "messagesAfter": 3,
        "messagesDropped": 3,
        "tokensBeforeEstimate": 119,
        "tokensAfterEstimate": 49,
    }
    assert (comparison.budget_chars, comparison.input_chars, comparison.input_tokens_estimate) == (
        300,
        466,
        119,
    )
    assert comparison.rows()[2] == {
        "index": 2,
        "role": "assistant",
        "original_chars": 107,
        "memory-compact": "removed",
        "keep-last": "verbatim",
        "drop-oldest": "removed",
        "langchain-trim": "removed",
        "anthropic-clear-tool-uses": "verbatim",
        "langchain-clear-tool-uses": "verbatim",
        "clear-then-fit": "verbatim",
        "observation-masking": "verbatim",
        "vercel-prune": "verbatim",
        "openai-truncation": "removed",
        "anchor-keep": "verbatim",
        "focus": "removed",
    }


def test_memory_compact_reports_its_cuts():
    request = validate(load_sample("dispatcher").request | {"max_message_chars": 80})
    outcome = compare_strategies(request).result("memory-compact")
    result = run(request)
    how = {"trimmed": "cut", "duplicate": "removed", "dropped": "removed"}
    assert [(m.kept, m.chars) for m in outcome.messages] == [
        (how.get(t.fate, "verbatim"), t.chars) for t in result.messages
    ]
    assert (outcome.cut_messages, outcome.output_chars) == (2, result.totals.output)


def test_the_seed_trim_options_are_passed_on():
    request = validate(
        {
            "messages": [
                {"role": "user", "content": "Look up order 77."},
                {"role": "assistant", "content": "Calling the order service."},
                {"role": "tool", "content": '{"status": "shipped"}'},
                {"role": "assistant", "content": "It has shipped."},
            ],
            "budget_chars": 400_000,
        }
    )
    outcome = compare_strategies(request, keep_last_messages=3, drop_tool_parts=True).result(
        "drop-oldest"
    )
    assert outcome.kept == (1, 3)
    assert outcome.parameters == {
        "maxTokensEstimate": 100_000,
        "keepLastMessages": 3,
        "dropToolParts": True,
    }
    assert outcome.stats["messagesDropped"] == 2


def test_a_budget_outside_the_schema_is_refused():
    with pytest.raises(InvalidRequest) as raised:
        compare_strategies(dispatcher(), 99)
    assert [p.to_dict() for p in raised.value.problems] == [
        {"path": "budget_chars", "message": "must be at least 100; it is 99"}
    ]


@given(st.lists(st.integers(1, 50), max_size=12), st.integers(0, 300))
def test_keep_last_count_is_the_largest_n_that_fits(lengths, budget):
    n = keep_last_count(lengths, budget)
    assert sum(lengths[len(lengths) - n :]) <= budget
    assert n == len(lengths) or sum(lengths[len(lengths) - n - 1 :]) > budget
    assert keep_last(["x" * k for k in lengths], budget) == tuple(
        range(len(lengths) - n, len(lengths))
    )


# --- LangChain ---------------------------------------------------------------------------------


def langchain_by_hand(roles, contents, budget):
    """trim_messages(strategy="last", include_system=True) with characters as tokens."""
    first = 1 if roles and roles[0] == "system" else 0
    left = max(0, budget - len(contents[0])) if first else budget
    rest = range(first, len(contents))
    n = keep_last_count([len(contents[i]) for i in rest], left)
    return tuple(range(first)) + tuple(rest[len(rest) - n :])


@settings(max_examples=150, deadline=None)
@given(requests())
def test_every_strategy_on_random_histories(request):
    typed = validate(request)
    budget = typed.params.budget_chars
    comparison = compare_strategies(typed)
    roles, contents = typed.roles, typed.contents
    for outcome in comparison.results:
        assert outcome.available and len(outcome.messages) == len(contents)
        assert outcome.output_chars == sum(m.chars for m in outcome.messages)
        assert outcome.output_messages == len(outcome.kept)
        returned = [m.chars for m in outcome.messages if m.kept != "removed"]
        assert outcome.tokens_estimate == sum(math.ceil(chars / 4) for chars in returned)
        assert outcome.budget_met == (outcome.output_chars <= budget)
    assert comparison.result("memory-compact").kept == tuple(t.index for t in run(typed).survivors)
    assert comparison.result("keep-last").budget_met
    assert comparison.result("langchain-trim").kept == langchain_by_hand(roles, contents, budget)
    trim = comparison.result("drop-oldest")
    by_trim = trim_context(
        {
            "messages": [{"role": r, "content": c} for r, c in zip(roles, contents, strict=True)],
            "maxTokensEstimate": math.ceil(budget / 4),
        }
    )
    assert [contents[i] for i in trim.kept] == [m["content"] for m in by_trim["messages"]]
    assert trim.stats == by_trim["stats"]
    assert trim.tokens_estimate == by_trim["stats"]["tokensAfterEstimate"]


def test_langchain_keeps_an_oversized_system_message():
    roles, contents = ["system", "user", "user"], ["s" * 150, "a" * 10, "b" * 10]
    assert langchain_trim(roles, contents, 100) == {0: "s" * 150}


def test_without_langchain_the_outcome_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "langchain_core", None)
    monkeypatch.setitem(sys.modules, "langchain_core.messages", None)
    assert not langchain_available() and langchain_version() is None
    with pytest.raises(LangChainUnavailable, match="pip install -e"):
        langchain_trim(["user", "user"], ["a", "b"], 100)
    comparison = compare_strategies(dispatcher())
    outcome = comparison.result("langchain-trim")
    assert not outcome.available and outcome.messages == ()
    assert INSTALL_HINT in outcome.unavailable
    assert outcome.output_chars is None and outcome.budget_met is None
    assert "langchain-trim" not in comparison.rows()[0]
    assert [o.available for o in comparison.results][:4] == [True, True, True, False]


def test_the_seed_trim_can_count_its_token_budget_with_a_tokenizer():
    # CJK takes about one token per character, so the estimate (a quarter) keeps far more
    contents = ["会议在周四14:00开始，请准时参加并带上报告。" * 2 for _ in range(6)]
    request = validate(
        {"messages": [{"role": "user", "content": c} for c in contents], "budget_chars": 200}
    )
    budget = math.ceil(200 / 4)
    by_estimate = compare_strategies(request).result("drop-oldest")
    by_tokens = compare_strategies(request, trim_encoding="o200k_base").result("drop-oldest")
    # brute force: the longest suffix whose real token counts fit maxTokensEstimate
    counts = [count_tokens(c, "o200k_base") for c in contents]
    fits = max(k for k in range(len(contents) + 1) if sum(counts[len(contents) - k :]) <= budget)
    assert by_tokens.kept == tuple(range(len(contents) - fits, len(contents)))
    assert by_tokens.stats["tokensBeforeEstimate"] == sum(counts)
    assert "o200k_base" in by_tokens.how
    assert len(by_estimate.kept) > len(by_tokens.kept)
    assert by_estimate.stats["tokensBeforeEstimate"] == sum(math.ceil(len(c) / 4) for c in contents)


def test_a_message_record_built_fast_is_the_dataclass_built_plainly():
    # strategy_result builds its records with message() (no per-field setattr): every field of
    # StrategyMessage must be set, and the record must equal, hash and read as the plain one.
    values = (3, "tool", 90, CUT, 12, "kept prefix", "call-7", ((0, 5), (9, 16)))
    plain, fast = StrategyMessage(*values), message(*values)
    assert fast == plain and hash(fast) == hash(plain) and repr(fast) == repr(plain)
    assert [f.name for f in dataclasses.fields(StrategyMessage)] == list(vars(fast))
    assert fast.kept_spans == ((0, 5), (9, 16))
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.chars = 0


def test_the_lineup_leaves_the_cycle_collector_as_it_found_it():
    """The lineup pauses the collector while it runs: it is running again afterwards, also when
    a strategy raised, and a caller that had paused it finds it still paused."""
    import gc

    from compactor.strategies._spec import StrategyParameterError

    assert gc.isenabled()
    compare_strategies(dispatcher(), 300, strategies=["keep-last"])
    assert gc.isenabled()
    with pytest.raises(StrategyParameterError):
        compare_strategies(dispatcher(), 300, strategies=["focus"], params={"focus": {"no": 1}})
    assert gc.isenabled()
    gc.disable()
    try:
        compare_strategies(dispatcher(), 300, strategies=["keep-last"])
        assert not gc.isenabled()
    finally:
        gc.enable()
