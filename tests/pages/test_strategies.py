"""Strategies: every strategy's totals and per-message choices are compare_strategies at the
sidebar's budget; the seed-003 options reach the trim; without LangChain the page says how to
install it."""

import json
import sys

import pandas as pd
import pytest

from compactor import validate
from compactor.analyses.outcomes import DEFAULT_FUTURE, find_needs, judge_outcome, past_request
from compactor.samples import load_samples
from compactor.strategies._langchain_trim import INSTALL_HINT
from compactor.strategies._lineup import compare_strategies
from explorer.session import cache
from harness.apptest import (
    MOVES,
    assert_clean,
    follows_the_engine,
    goto,
    on_page,
    request_of,
    start,
    static_table,
    table,
)
from tests.explorer.requests import rich_request

PAGE = "pages/strategies.py"


SHOWN = ("memory-compact", "keep-last", "drop-oldest", "langchain-trim")


def reported(at):
    totals = table(at, "tokens_estimate")
    messages = table(at, "memory-compact")
    stats = next(json.loads(j.value) for j in at.json if "messagesBefore" in j.value)
    return {
        "totals": [
            (r.strategy, int(r.output_chars), int(r.tokens_estimate), int(r.output_messages))
            for r in totals.itertuples()
        ],
        "kept": {key: list(messages[key]) for key in SHOWN},
        "stats": stats,
    }


def expected_for(request, **options):
    comparison = compare_strategies(validate(request), **options)
    return {
        "totals": [
            (o.name, o.output_chars, o.tokens_estimate, o.output_messages)
            for o in comparison.results
        ],
        "kept": {o.key: [m.kept for m in o.messages] for o in comparison.results if o.key in SHOWN},
        "stats": dict(comparison.result("drop-oldest").stats),
    }


def expected(result):
    return expected_for(result.request.to_dict())


@pytest.mark.parametrize("move", MOVES, ids=lambda m: f"{m[0]}={m[1]}")
def test_the_strategies_follow_the_engine(move):
    follows_the_engine(PAGE, rich_request(), reported, expected, move)


def test_the_seed_trim_options_reach_the_trim():
    at = on_page(PAGE, rich_request())
    before = reported(at)
    at.number_input(key="strategies_keep_last").set_value(4).run()
    at.toggle(key="strategies_drop_tool_parts").set_value(True).run()
    assert_clean(at)
    after = reported(at)
    wanted = expected_for(request_of(at), keep_last_messages=4, drop_tool_parts=True)
    assert after == wanted
    assert after["stats"] != before["stats"] and after["stats"]["messagesBefore"] == 12
    # the other strategies do not take these options
    assert after["kept"]["memory-compact"] == before["kept"]["memory-compact"]
    caption = " ".join(c.value for c in at.caption)
    assert "keepLastMessages=4" in caption and "dropToolParts=true" in caption
    assert "ceil(characters / 4)" in caption


def test_without_langchain_the_page_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "langchain_core", None)
    monkeypatch.setitem(sys.modules, "langchain_core.messages", None)
    cache._strategies.clear()
    try:
        at = on_page(PAGE, rich_request())
        assert_clean(at)
        assert INSTALL_HINT in [c.value for c in at.code]
        assert any("langchain-core" in w.value for w in at.warning)
        assert "langchain-trim" not in table(at, "memory-compact").columns
        totals = table(at, "tokens_estimate").set_index("strategy")
        assert pd.isna(totals.loc["LangChain trim_messages", "output_chars"])  # drawn as —
        settings = static_table(at, "How").set_index("Strategy")
        assert INSTALL_HINT in settings.loc["LangChain trim_messages", "How"]
    finally:
        cache._strategies.clear()


@pytest.mark.parametrize("sample", load_samples(), ids=lambda s: s.slug)
def test_every_sample_compares_every_strategy(sample):
    at = goto(start({"sample": sample.slug}), PAGE)
    assert_clean(at)
    assert reported(at) == expected_for(request_of(at))


def test_the_seed_trim_can_count_its_budget_with_a_tokenizer():
    import bpe_openai

    at = on_page(PAGE, rich_request())
    at.selectbox(key="strategies_trim_counter").set_value("o200k_base").run()
    assert_clean(at)
    assert reported(at) == expected_for(request_of(at), trim_encoding="o200k_base")
    encode = bpe_openai.get_encoding("o200k_base").encode_ordinary
    contents = [m["content"] for m in request_of(at)["messages"]]
    stats = reported(at)["stats"]
    assert stats["tokensBeforeEstimate"] == sum(len(encode(c)) for c in contents)
    assert any("tokens counted with o200k_base" in c.value for c in at.caption)


def test_memory_compact_with_semantic_dedupe_is_compared_message_by_message():
    at = on_page(PAGE, rich_request())
    at.toggle(key="strategies_semantic").set_value(True).run()
    at.slider(key="strategies_semantic_threshold").set_value(0.7).run()
    assert_clean(at)
    comparison = compare_strategies(validate(request_of(at)), semantic_threshold=0.7)
    semantic = comparison.result("semantic-dedupe")
    assert semantic.available
    totals = table(at, "tokens_estimate").set_index("strategy")
    assert int(totals.loc[semantic.name, "output_chars"]) == semantic.output_chars
    assert list(table(at, "memory-compact")["semantic-dedupe"]) == [
        m.kept for m in semantic.messages
    ]


def recall_rows(at):
    frame = table(at, "lift").set_index("strategy")
    return {name: (row.met, row.needs) for name, row in frame.iterrows()}


def test_a_strategys_own_parameters_reach_it_and_its_needed_later_recall():
    at = on_page(PAGE, rich_request())
    at.selectbox(key="strategies_own_strategy").set_value("anchor-keep").run()
    at.number_input(key="strategies_own_anchor-keep_unit_chars").set_value(40).run()
    at.toggle(key="strategies_own_anchor-keep_fill_recent").set_value(False).run()
    assert_clean(at)
    own = {"anchor-keep": {"unit_chars": 40, "fill_recent": False}}
    request = validate(request_of(at))
    comparison = compare_strategies(request, params=own)
    ours = comparison.result("anchor-keep")
    assert ours.output_chars != compare_strategies(request).result("anchor-keep").output_chars
    totals = table(at, "tokens_estimate").set_index("strategy")
    assert int(totals.loc[ours.name, "output_chars"]) == ours.output_chars
    assert list(table(at, "memory-compact")["anchor-keep"]) == [m.kept for m in ours.messages]
    future = min(DEFAULT_FUTURE, len(request.messages) - 2)
    past = past_request(request, future)
    judged = judge_outcome(
        find_needs(request.contents, request.roles),
        compare_strategies(past, params=own).result("anchor-keep"),
    )
    assert recall_rows(at)[ours.name] == (judged.met, judged.needs)


def test_a_bad_parameter_is_named_and_the_lineup_still_runs():
    at = on_page(PAGE, rich_request())
    at.selectbox(key="strategies_own_strategy").set_value("vercel-prune").run()
    at.text_input(key="strategies_own_vercel-prune_toolCalls").set_value("some").run()
    assert_clean(at)
    assert any("vercel-prune cannot take these parameters" in e.value for e in at.error)
    assert "vercel-prune.toolCalls" in str(table(at, "problem")["where"].tolist())
    assert reported(at) == expected_for(request_of(at))


def test_the_focus_box_starts_at_the_pending_turn_and_an_edit_reaches_focus():
    at = on_page(PAGE, rich_request())
    assert_clean(at)
    messages = request_of(at)["messages"]
    pending = next(m["content"] for m in reversed(messages) if m["role"] == "user")
    box = next(t for t in at.text_area if t.key.startswith("strategies_focus_"))
    assert box.value == pending
    # untouched, focus runs with its own default, as the engine's lineup does
    assert reported(at) == expected_for(request_of(at))
    shown = [h.proto.body for h in at.get("html")]
    assert any("<mark" in body for body in shown)  # the focus terms in the kept text
    box.set_value("<img src=x onerror=alert(1)> refund invoice").run()
    assert_clean(at)
    request = validate(request_of(at))
    wanted = compare_strategies(
        request, params={"focus": {"focus": "<img src=x onerror=alert(1)> refund invoice"}}
    ).result("focus")
    totals = table(at, "tokens_estimate").set_index("strategy")
    assert int(totals.loc[wanted.name, "output_chars"]) == wanted.output_chars
    assert list(table(at, "memory-compact")["focus"]) == [m.kept for m in wanted.messages]
    captions = " ".join(c.value for c in at.caption)
    assert "The focus\\: given" in captions
    # content and focus are shown as escaped text: no element of theirs, only the marks
    assert not any("<img" in h.proto.body for h in at.get("html"))
