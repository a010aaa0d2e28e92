"""Replay: the page shows the engine's replay on every sample and on an imported file, follows
the turn slider, the loops and the parameters; the seeds/003 trim's token limit follows the
sidebar's budget and a comparison of unequal budgets says so; on a real rollout the anchors lost
so far never fall."""

import math

import bpe_openai
import pytest

from compactor import validate
from compactor.analyses.anchors._report import find_anchors
from compactor.analyses.replay._fates import cache_reuse
from compactor.analyses.replay._strategies import Registered, replay_request
from compactor.formats import apply_fixes, convert_text
from compactor.samples import load_samples
from explorer.replay.runs import (
    DROP_OLDEST_LOOP,
    KEEP_LAST,
    MEMORY_ALWAYS,
    MEMORY_OVER,
    REGISTRY_LOOPS,
)
from explorer.replay.widgets import A_KEY, B_KEY, NONE, TRIM_KEEP_KEY, TRIM_TOKENS_KEY
from explorer.session import state
from harness.apptest import (
    assert_clean,
    chart_rows,
    goto,
    load,
    request_of,
    set_param,
    start,
    table,
)
from tests.paths import ROOT

PAGE = "pages/replay.py"
TURN_KEY = "replay_turn"
LOSSES_KEY = "replay_every_loss"


def engine(at, strategy="memory-compact", policy="always"):
    request = validate(request_of(at))
    facts = [(a.text, a.occurrences) for a in find_anchors(request.contents)]
    return replay_request(request, strategy, policy=policy, facts=facts)


def shown_history(at):
    frame = table(at, "fate")
    sent = frame[frame["position"].notna()]
    return [(r, c) for r, c in zip(sent["role"], sent["content"], strict=True)]


def check_follows(at, expected, loop=MEMORY_ALWAYS):
    assert_clean(at)
    codes = [c.value for c in at.code]
    share = f"{cache_reuse(expected):.0%}"
    line = next(c for c in codes if c.startswith(f"{loop}:"))
    assert f"over {len(expected.turns)} turns, {share} of sent characters" in line
    lost = len({x.fact for x in expected.losses})
    assert f"; {lost:,} anchors lost" in line
    turns = chart_rows(at, "chars_out")
    mine = turns[turns["loop"] == loop]
    assert list(mine["chars_out"]) == [t.chars_out for t in expected.turns]
    assert list(mine["stable_prefix_chars"]) == [t.stable_prefix_chars for t in expected.turns]
    assert list(mine["anchors_missing"]) == [t.anchors_lost for t in expected.turns]
    last = len(expected.histories) - 1
    assert at.slider(key=TURN_KEY).value == last
    final = [(m.role, m.content) for m in expected.final]
    assert shown_history(at) == final


@pytest.mark.parametrize("sample", load_samples(), ids=lambda s: s.slug)
def test_the_page_shows_the_engines_replay_on_every_sample(sample):
    at = goto(start({"sample": sample.slug}), PAGE)
    check_follows(at, engine(at))
    keep = engine(at, "keep-last")
    turns = chart_rows(at, "chars_out")
    assert list(turns[turns["loop"] == KEEP_LAST]["chars_out"]) == [t.chars_out for t in keep.turns]


def test_the_turn_slider_shows_the_history_of_that_turn_and_parameters_replay_anew():
    at = goto(start({"sample": "support-chat"}), PAGE)
    expected = engine(at)
    for turn in (0, 1, len(expected.histories) // 2):
        at.slider(key=TURN_KEY).set_value(turn).run()
        assert_clean(at)
        assert shown_history(at) == [(m.role, m.content) for m in expected.histories[turn]]
    set_param(at, "budget_chars", 300)
    moved = engine(at)
    assert moved.to_dict() != expected.to_dict()
    at.slider(key=TURN_KEY).set_value(len(moved.histories) - 1).run()
    check_follows(at, moved)


def test_the_settings_side_by_side():
    at = goto(start({"sample": "support-chat"}), PAGE)
    at.selectbox(key=A_KEY).set_value(MEMORY_OVER).run()
    at.selectbox(key=B_KEY).set_value(NONE).run()
    check_follows(at, engine(at, policy="over-budget"), MEMORY_OVER)
    assert set(chart_rows(at, "chars_out")["loop"]) == {MEMORY_OVER}


def test_an_imported_file_replays():
    path = ROOT / "tests" / "fixtures" / "real" / "claude_code_coverage_fix.jsonl"
    request = apply_fixes(convert_text(path.read_bytes())).request
    at = goto(load(start(), request), PAGE)
    check_follows(at, engine(at))


def test_on_a_real_rollout_the_anchors_lost_so_far_never_fall_and_the_falls_are_said():
    path = ROOT / "tests" / "fixtures" / "real" / "codex_tool_calls.jsonl"
    request = apply_fixes(convert_text(path.read_bytes())).request
    at = goto(load(start(), request), PAGE)
    assert_clean(at)
    expected = engine(at)
    turns = chart_rows(at, "anchors_lost_ever")
    mine = turns[turns["loop"] == MEMORY_ALWAYS]
    ever = list(mine["anchors_lost_ever"])
    assert ever == sorted(ever)
    assert ever == [
        len({x.fact for x in expected.losses if x.turn <= t.turn}) for t in expected.turns
    ]
    missing = [t.anchors_lost for t in expected.turns]
    assert any(b < a for a, b in zip(missing, missing[1:], strict=False))  # the engine's falls
    assert list(mine["anchors_missing"]) == missing
    said = next(c.value for c in at.caption if c.value.startswith("Solid: the anchors lost"))
    falls = int((mine["anchors_back"] > 0).sum())
    assert f"{MEMORY_ALWAYS}: it falls at {falls:,} turns" in said


def test_the_seed_trim_replays_with_its_own_parameters():
    at = goto(start({"sample": "support-chat"}), PAGE)
    at.selectbox(key=B_KEY).set_value(DROP_OLDEST_LOOP).run()
    at.number_input(key=TRIM_KEEP_KEY).set_value(3).run()
    at.number_input(key=TRIM_TOKENS_KEY).set_value(10_000).run()
    assert_clean(at)
    request = validate(request_of(at))
    facts = [(a.text, a.occurrences) for a in find_anchors(request.contents)]
    expected = replay_request(
        request,
        "trim",
        keep_last_messages=3,
        drop_tool_parts=False,
        max_tokens_estimate=10_000,
        facts=facts,
    )
    turns = chart_rows(at, "chars_out")
    mine = turns[turns["loop"] == DROP_OLDEST_LOOP]
    assert list(mine["messages_out"]) == [t.messages_out for t in expected.turns]
    assert list(mine["anchors_missing"]) == [t.anchors_lost for t in expected.turns]
    assert max(mine["messages_out"]) == 3
    assert list(mine["chars_out"]) == [t.chars_out for t in expected.turns]


def warnings_of(at):
    return [w.value for w in at.warning if "do not work to the same budget" in w.value]


def test_the_seed_trims_token_limit_follows_the_budget_and_unequal_budgets_are_said():
    at = goto(start({"sample": "support-chat"}), PAGE)
    at.selectbox(key=B_KEY).set_value(DROP_OLDEST_LOOP).run()
    assert_clean(at)
    budget = request_of(at)["budget_chars"]
    tokens = at.number_input(key=TRIM_TOKENS_KEY)
    assert tokens.value == math.ceil(budget / 4)  # the sidebar's budget, as the page counts it
    assert warnings_of(at) == []  # A and B work to the same budget
    set_param(at, "budget_chars", 2_000)
    assert at.number_input(key=TRIM_TOKENS_KEY).value == 500  # left alone, it follows
    assert warnings_of(at) == []
    at.number_input(key=TRIM_TOKENS_KEY).set_value(5_000).run()
    assert_clean(at)
    (said,) = warnings_of(at)
    assert f"{MEMORY_ALWAYS} works to 2,000 characters (about 500 tokens)" in said
    assert (
        f"{DROP_OLDEST_LOOP} works to 5,000 tokens by the estimate (about 20,000 characters)"
        in said
    )
    set_param(at, "budget_chars", 3_000)
    assert at.number_input(key=TRIM_TOKENS_KEY).value == 5_000  # set by hand, it stays
    at.number_input(key=TRIM_TOKENS_KEY).set_value(None).run()
    assert any("has no size limit" in w for w in warnings_of(at))


def test_with_an_encoding_chosen_every_turn_counts_the_tokens_it_sends():
    at = goto(start({"sample": "support-chat"}), PAGE)
    assert "tokens_out" not in table(at, "chars_out").columns
    at.selectbox(key=state.TOKENS_KEY).set_value("cl100k_base").run()
    assert_clean(at)
    expected = engine(at)
    encode = bpe_openai.get_encoding("cl100k_base").encode_ordinary
    sent = [sum(len(encode(m.content)) for m in h) for h in expected.histories[1:]]
    turns = table(at, "chars_out")
    mine = turns[turns["loop"] == MEMORY_ALWAYS]
    assert list(mine["tokens_out"]) == sent
    assert list(mine["chars_out"]) == [t.chars_out for t in expected.turns]
    said = [c.value for c in at.caption if c.value.startswith("In cl100k_base tokens sent")]
    assert (
        said and f"{MEMORY_ALWAYS}: at most {max(sent):,} a turn, {sum(sent):,} in all" in said[0]
    )


def test_every_loss_is_listed_only_once_opened():
    at = goto(start({"sample": "support-chat"}), PAGE)
    expected = engine(at)
    assert expected.losses
    (every,) = [e for e in at.expander if e.label.startswith("Every loss")]
    assert not [d for d in at.dataframe if "anchor" in d.value.columns]  # closed: not sent
    at.session_state[LOSSES_KEY] = True
    at.run()
    assert_clean(at)
    lost = table(at, "anchor")
    mine = lost[lost["loop"] == MEMORY_ALWAYS]
    assert list(mine[["turn", "anchor", "index", "how"]].itertuples(index=False, name=None)) == [
        tuple(x) for x in expected.losses
    ]


@pytest.mark.parametrize("loop", REGISTRY_LOOPS)
def test_every_registry_strategy_replays_as_the_engine_replays_it(loop):
    at = goto(start({"sample": "coding-agent"}), PAGE)
    at.selectbox(key=B_KEY).set_value(loop).run()
    assert_clean(at)
    request = validate(request_of(at))
    expected = engine(at, Registered(loop, request.params))
    turns = chart_rows(at, "chars_out")
    mine = turns[turns["loop"] == loop]
    assert list(mine["chars_out"]) == [t.chars_out for t in expected.turns]
    assert list(mine["stable_prefix_chars"]) == [t.stable_prefix_chars for t in expected.turns]
    assert list(mine["anchors_missing"]) == [t.anchors_lost for t in expected.turns]


def test_a_clearing_strategy_replays_with_its_own_parameters_and_breaks_the_cached_prefix():
    at = goto(start({"sample": "coding-agent"}), PAGE)
    name = "anthropic-clear-tool-uses"
    at.selectbox(key=B_KEY).set_value(name).run()
    at.number_input(key=f"replay_own_{name}_keep").set_value(1).run()
    at.number_input(key=f"replay_own_{name}_trigger").set_value(1).run()
    assert_clean(at)
    assert any("prompt cache is invalidated" in c.value for c in at.caption)
    request = validate(request_of(at))
    expected = engine(at, Registered(name, request.params, {"keep": 1, "trigger": 1}))
    turns = chart_rows(at, "chars_out")
    mine = turns[turns["loop"] == name]
    assert list(mine["stable_prefix_chars"]) == [t.stable_prefix_chars for t in expected.turns]
    # a turn that clears a result sent before keeps less than the whole history before it
    assert any(t.stable_prefix_messages < t.messages_in - 1 for t in expected.turns)
