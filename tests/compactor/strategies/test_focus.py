"""focus: its invariants over random requests (budget met whenever the protected part fits; every
returned character an input character, in order; an account that adds up and names what each
kept message matched; deterministic), its rule on small histories, anchor-keep's focus, and
what it says without bm25s."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor import apply_strategy, validate
from compactor.contract import ROLES
from compactor.strategies import STRATEGIES, StrategyParameterError
from compactor.strategies import _anchor_keep as anchor_keep
from compactor.strategies._focus import GONE, PART, WHOLE, apply, lineup_result
from harness.pieces import PIECES
from tests.paths import ROOT

EXAMPLES = settings(max_examples=120, deadline=None)
WORDS = ["parcel", "Oslo", "refund", "invoice", "lunch", "weather", "DE-4471", "src/app.py"]
content = (
    st.lists(st.sampled_from(PIECES + WORDS + ["\n", " ", ", "]), min_size=1, max_size=80)
    .map("".join)
    .filter(bool)
)
message = st.fixed_dictionaries(
    {"role": st.sampled_from(ROLES), "content": content}, optional={"pin": st.booleans()}
)
requests = st.fixed_dictionaries(
    {
        "messages": st.lists(message, min_size=2, max_size=12),
        "budget_chars": st.integers(100, 2000),
    },
    optional={
        "keep_last_n": st.integers(0, 6),
        "keep_roles": st.lists(st.sampled_from(ROLES), max_size=4, unique=True),
    },
)
params = st.fixed_dictionaries(
    {},
    optional={
        "focus": st.one_of(st.none(), st.just(""), content),
        "part_chars": st.integers(1, 200),
        "recent_share": st.floats(0, 1),
        "query_messages": st.integers(0, 4),
        "min_score": st.floats(0, 1),
        "spread": st.integers(0, 3),
        "cover": st.booleans(),
        "keep_last_n": st.integers(0, 6),
        "keep_roles": st.lists(st.sampled_from(ROLES), max_size=4, unique=True),
    },
)


def is_subsequence(part: str, whole: str) -> bool:
    rest = iter(whole)
    return all(c in rest for c in part)


@EXAMPLES
@given(requests, params, st.integers(1, 3000))
def test_the_budget_is_met_whenever_the_protected_part_fits(data, options, budget):
    result = apply(validate(data), budget, options)
    if result.protected_chars <= budget:
        assert result.budget_met and result.output_chars <= budget
    else:
        assert result.output_chars == result.protected_chars
        assert all(m.kept == GONE for m in result.messages if not m.protected_because)


@EXAMPLES
@given(requests, params, st.integers(1, 3000))
def test_every_returned_character_is_an_input_character_in_order(data, options, budget):
    request = validate(data)
    result = apply(request, budget, options)
    for m, text, returned in zip(result.messages, request.contents, result.contents, strict=True):
        previous_end = -1
        for start, end in m.spans:
            assert 0 <= start < end <= len(text)
            assert start > previous_end  # ordered, disjoint and never adjacent (joined)
            previous_end = end
        if returned is None:
            assert m.kept == GONE and m.spans == ()
            continue
        assert returned == "".join(text[s:e] for s, e in m.spans)
        assert is_subsequence(returned, text) and len(returned) == m.chars


@EXAMPLES
@given(requests, params, st.integers(1, 3000))
def test_the_account_adds_up_and_names_what_matched(data, options, budget):
    request = validate(data)
    result = apply(request, budget, options)
    n = len(request.messages)
    assert [m.index for m in result.messages] == list(range(n))
    assert result.count(WHOLE) + result.count(PART) + result.count(GONE) == n
    removed = sum(m.original_chars for m in result.messages if m.kept == GONE)
    cut = sum(m.original_chars - m.chars for m in result.messages if m.kept == PART)
    assert sum(map(len, request.contents)) == result.output_chars + removed + cut
    query = dict(result.focus.terms)
    for m in result.messages:
        assert m.reason
        assert (m.kept == WHOLE) == (m.spans == ((0, m.original_chars),))
        if m.protected_because:
            assert m.kept == WHOLE and m.reason.startswith("protected")
        assert all(term in query and score > 0 for term, score in m.matched)
        if "matches the focus" in m.reason:
            assert m.matched and m.matched[0][0] in m.reason
    lineup = lineup_result(request, budget, options)
    assert lineup.output_chars == result.output_chars
    assert [m.chars for m in lineup.messages] == [m.chars for m in result.messages]
    assert lineup.budget_met == result.budget_met
    assert lineup.returned() == [
        {"role": r.role, "content": c}
        for r, c in zip(request.messages, result.contents, strict=True)
        if c is not None
    ]


@EXAMPLES
@given(requests, params, st.integers(1, 3000))
def test_the_result_is_a_pure_function_of_the_request(data, options, budget):
    first = apply(validate(data), budget, dict(options))
    again = apply(validate(data), budget, dict(options))
    assert first.messages == again.messages and first.focus == again.focus


def chat(question: str, fillers: int = 30) -> dict:
    """A long conversation with one piece of evidence near its start and a question last."""
    messages = [
        {"role": "user", "content": "My sister's wedding is in Porto on the ninth of June."},
        {"role": "assistant", "content": "Lovely, Porto is beautiful in June."},
    ]
    for k in range(fillers):
        messages.append({"role": "user", "content": f"Let us talk about topic {k}: gardens."})
        messages.append({"role": "assistant", "content": f"Gardens need water, point {k}."})
    messages.append({"role": "user", "content": question})
    return {"messages": messages, "budget_chars": 600, "keep_last_n": 1}


def test_the_evidence_the_pending_turn_asks_for_is_kept_where_recency_drops_it():
    request = validate(chat("Which city is my sister's wedding in?"))
    result = apply(request)
    assert result.focus.source == f"the last user message (message {len(request.messages) - 1})"
    assert result.messages[0].kept == WHOLE
    reason = result.messages[0].reason
    assert reason.startswith("kept whole: it matches the focus (") and "wedding 1." in reason
    assert dict(result.messages[0].matched)["sister"] > 0
    keep_last = apply_strategy("keep-last", request)
    assert 0 not in keep_last.kept and result.budget_met
    # half the budget went to the most recent messages first, relevant or not
    recent = [m for m in result.messages if "most recent" in m.reason]
    assert recent and min(m.index for m in recent) > len(request.messages) - 20
    assert sum(m.chars for m in recent) >= 0.5 * (600 - len(request.contents[-1])) - 40


def test_a_given_focus_replaces_the_pending_turn():
    request = validate(chat("And what about the gardens?"))
    given_ = apply(request, None, {"focus": "wedding city", "recent_share": 0})
    assert given_.focus.source == "given" and given_.messages[0].kept == WHOLE
    assert "wedding" in given_.focus.focus_terms


def test_no_focus_an_empty_focus_and_no_user_message_are_defined():
    data = chat("ok")
    for said in ("", "ok", "Continue.", "go on", "OK, thanks, carry on please"):
        empty = apply(validate(data), None, {"focus": said, "query_messages": 0})
        assert empty.focus.free and empty.focus.terms == () and empty.budget_met
        assert empty.focus.source.startswith("given; it says ")
        assert all("matches the focus" not in m.reason for m in empty.messages)
        # the query-free mode: recent context first, then the history's rare words (the
        # wedding's, which no filler holds), where recency alone drops them
        assert empty.messages[-2].kept == WHOLE and empty.messages[0].kept == WHOLE
        assert "rare words of the history (sister, wedding, ninth)" in empty.messages[0].reason
    recency = apply(validate(data), None, {"focus": "", "query_messages": 0, "cover": False})
    assert not recency.focus.free and recency.messages[0].kept == GONE
    assert recency.messages[-2].kept == WHOLE
    nobody = {**data, "messages": [{**m, "role": "assistant"} for m in data["messages"]]}
    none = apply(validate(nobody))
    assert none.focus.source.startswith("none: the history has no user message; it says no text")
    assert none.focus.text == "" and none.focus.free and none.budget_met
    assert none.messages[0].kept == WHOLE
    start = time.perf_counter()
    huge = apply(validate(data), None, {"focus": "wedding Porto " * 80_000})  # about 1 MB
    assert time.perf_counter() - start < 10
    assert huge.messages[0].kept == WHOLE and huge.focus.focus_terms == ("wedding", "porto")
    assert not huge.focus.free


def test_a_chinese_question_finds_its_evidence_where_recency_drops_it():
    filler = ["今天花园里的玫瑰开得很好，我们浇了水。", "我们讨论了预算和会议的安排，很顺利。"]
    messages = [
        {"role": "user", "content": "我妹妹的婚礼下个月在波尔图举行。"},
        {"role": "assistant", "content": "好的，我记住了。"},
    ]
    for k in range(20):
        messages.append({"role": "user", "content": filler[k % 2] + f"第{k}天。"})
        messages.append({"role": "assistant", "content": "明白了。" + filler[(k + 1) % 2]})
    messages.append({"role": "user", "content": "我妹妹的婚礼在哪个城市举行？"})
    request = validate({"messages": messages, "budget_chars": 200, "keep_last_n": 1})
    result = apply(request)
    assert result.messages[0].kept == WHOLE and result.budget_met
    assert "婚礼" in dict(result.messages[0].matched)
    assert 0 not in apply_strategy("keep-last", request).kept


def test_a_long_tool_result_is_cut_to_the_parts_that_match():
    lines = [f"line {k}: nothing to see in module m{k}" for k in range(200)]
    lines[150] = "line 150: the retry budget is set in RETRY_LIMIT of config.py"
    data = {
        "messages": [
            {"role": "user", "content": "Read the logs."},
            {"role": "tool", "content": "\n".join(lines)},
            {"role": "assistant", "content": "Read them."},
            {"role": "user", "content": "Where is the retry budget set?"},
        ],
        "budget_chars": 400,
        "keep_last_n": 1,
    }
    result = apply(validate(data), None, {"part_chars": 120, "recent_share": 0.2})
    tool = result.messages[1]
    assert tool.kept == PART and "RETRY_LIMIT of config.py" in result.contents[1]
    assert "retry" in dict(tool.matched) and tool.reason.startswith("cut to ")
    assert "it matches the focus (retry 1.68, budget 1.68, set 1.68)" in tool.reason
    # the recent turns' words (the tool result is one) do not match their own parts
    assert set(dict(tool.matched)) == {"retry", "budget", "set"}


def test_bad_parameters_are_named():
    request = validate(chat("hi"))
    with pytest.raises(StrategyParameterError) as error:
        apply(request, None, {"recent_share": 1.5, "focal": "x"})
    assert sorted(p.path for p in error.value.problems) == ["focus.focal", "focus.recent_share"]
    with pytest.raises(StrategyParameterError) as error:
        apply_strategy("focus", request, params={"focus": 3})
    assert [p.path for p in error.value.problems] == ["focus.focus"]
    assert STRATEGIES["focus"].needs == "the focus extra"


def test_anchor_keep_ranks_the_units_that_match_a_focus_first():
    data = chat("Which city is my sister's wedding in?", fillers=10)
    data["messages"][0]["content"] += "\nTicket TK-9931 for gardens."  # a salient term
    request = validate(data)
    plain = anchor_keep.apply(request, 120, {"fill_recent": False})
    focused = anchor_keep.apply(request, 120, {"fill_recent": False, "focus": "wedding city"})
    wedding = "My sister's wedding is in Porto on the ninth of June.\n"
    assert wedding not in (plain.contents[0] or "")
    assert focused.contents[0].startswith(wedding)
    assert focused.messages[0].focus_terms == ("wedding",)
    assert "matches the focus (wedding)" in focused.messages[0].reason


def test_without_bm25s_it_says_how_to_install_it():
    code = """
import json, sys
sys.modules["bm25s"] = None  # as if the focus extra were not installed
from compactor import StrategyUnavailable, apply_strategy, validate
from compactor.strategies import strategy_available
request = validate({"messages": [{"role": "user", "content": "a b"}] * 2, "budget_chars": 100})
try:
    apply_strategy("focus", request)
    refused = None
except StrategyUnavailable as error:
    refused = error.problems[0].message
with_focus = apply_strategy("anchor-keep", request, params={"focus": "a"})
plain = apply_strategy("anchor-keep", request)
print(json.dumps([strategy_available("focus"), refused, with_focus.available,
                  with_focus.unavailable, plain.available]))
"""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert done.returncode == 0, done.stderr
    available, refused, focused, why, plain = json.loads(done.stdout)
    assert (available, focused, plain) == (False, False, True)
    assert refused == 'needs the focus extra; install it with: .venv/bin/pip install -e ".[focus]"'
    assert why == (
        'relevance to a focus needs the focus extra (bm25s): .venv/bin/pip install -e ".[focus]"'
    )


def test_shrink_refuses_rather_than_return_nothing_without_bm25s():
    code = """
import sys
sys.modules["bm25s"] = None  # as if the focus extra were not installed
from compactor import shrink
from compactor.integrations import SettingError
history = [{"role": "user", "content": "Where is DE-4471? " * 20},
           {"role": "assistant", "content": "It left Hamburg."}, {"role": "user", "content": "ok"}]
try:
    print(shrink(history, {"strategy": "focus", "budget_chars": 200}))
except SettingError as error:
    print(error.problems[0].path, "|", error.problems[0].message)
"""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("strategy | focus needs the focus extra")
    assert '.venv/bin/pip install -e ".[focus]"' in done.stdout


def test_spread_keeps_a_passage_of_short_turns_about_the_focus_as_a_run():
    passage = [
        "Let us settle the remote control battery.",
        "Yeah, that sounds right to me.",
        "Uh-huh, go on with that one.",
        "The battery should be a kinetic one.",
        "Okay, agreed by everyone here.",
    ]
    messages = [
        {"role": "user", "content": f"Aside {k}: the weather and lunch."} for k in range(20)
    ]
    messages[6:6] = [{"role": "user", "content": t} for t in passage]
    messages.append({"role": "user", "content": "What was decided about the battery?"})
    request = validate({"messages": messages, "budget_chars": 230, "keep_last_n": 1})
    alone = apply(request, None, {"recent_share": 0, "query_messages": 0})
    run = apply(request, None, {"recent_share": 0, "query_messages": 0, "spread": 1})
    inside = range(6, 6 + len(passage))
    assert [alone.messages[i].kept for i in inside] != [WHOLE] * len(passage)
    assert [run.messages[i].kept for i in inside] == [WHOLE] * len(passage)
    assert run.messages[7].reason == "kept whole: it lies among parts that match the focus (spread)"


def test_parts_of_whole_lines_are_those_read_line_by_line():
    """The quick cut (searching back for a line break) gives the parts the unit-by-unit reading
    gives, and declines when a line is longer than a part."""
    import random
    import re

    from compactor.strategies._focus import _whole_lines
    from compactor.text import units

    def line_by_line(text, part):
        out, start, end = [], 0, 0
        for a, b in units(text, part):
            if b - start > part and end > start:
                out.append((start, end))
                start = a
            end = b
        return [*out, (start, end)]

    rng = random.Random(38)
    for _ in range(400):
        text = "".join(
            rng.choice(["word ", "a longer line of words ", "\n", "\n\n", "x" * rng.randint(1, 40)])
            for _ in range(rng.randint(1, 60))
        )
        part = rng.randint(5, 80)
        quick = _whole_lines(text, part)
        if quick is None:
            lines = re.findall(r"[^\n]*\n|[^\n]+", text)  # each with its line break
            assert any(len(line) > part for line in lines)
        else:
            assert quick == line_by_line(text, part)
