"""compactor.formats.apply_fixes: the lossy fixes are pending until the user chooses them."""

import pytest

from compactor import InvalidRequest, validate
from compactor.contract import LIMITS
from compactor.errors import FormatError
from compactor.formats import Window, apply_fixes, convert

MAX_MESSAGES = LIMITS["max_messages"]
MAX_CHARS = LIMITS["max_content_chars"]


def long_history(n: int, long_at: dict[int, int]) -> list[dict]:
    """``n`` OpenAI messages: a call and its result every tenth pair, some contents over-long."""
    messages = []
    for i in range(n):
        if i % 10 == 8:
            call = {"id": f"c{i}", "type": "function", "function": {"name": "f", "arguments": "{}"}}
            messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        elif i % 10 == 9:
            messages.append({"role": "tool", "tool_call_id": f"c{i - 1}", "content": f"r{i}"})
        else:
            role = "user" if i % 2 == 0 else "assistant"
            messages.append({"role": role, "content": "x" * long_at.get(i, 20 + i)})
    return messages


@pytest.fixture
def oversized():
    # 250 messages; message 3 (dropped by keep-last) and 120 and 240 are over-long
    return convert(long_history(250, {3: 9000, 120: 8001, 240: 12000}))


def test_an_oversized_conversation_comes_back_as_it_is_with_pending_fixes(oversized):
    assert oversized.needs_fixes and oversized.lossy
    assert len(oversized.request["messages"]) == 250
    pending = [(c.kind, c.index, c.lossy) for c in oversized.changes if c.lossy]
    assert pending == [
        ("too-many-messages", None, True),
        ("content-too-long", 3, True),
        ("content-too-long", 120, True),
        ("content-too-long", 240, True),
    ]
    assert "keeping the last 200 would remove the first 50" in oversized.changes[-4].message
    with pytest.raises(InvalidRequest):
        validate(oversized.request)


def test_both_fixes_make_a_valid_request_and_say_what_they_did(oversized):
    fixed = apply_fixes(oversized)
    validate(fixed.request)
    assert not fixed.needs_fixes
    messages = fixed.request["messages"]
    assert messages[:-1] == [
        {**m, "content": m["content"][:MAX_CHARS]} for m in oversized.request["messages"][50:-1]
    ]
    made = [(c.kind, c.index) for c in fixed.changes if c.kind in ("kept-last", "cut-content")]
    assert made == [("kept-last", None), ("cut-content", 70), ("cut-content", 190)]
    assert (
        "cut from 12,000 to 8,000 characters: the last 4,000 are lost" in fixed.changes[-1].message
    )
    assert fixed.changes[-1].source == "[240]"
    # the cut of a message that keep-last removed is no longer pending or reported
    assert not any(c.kind == "content-too-long" for c in fixed.changes)


def test_changes_and_tool_links_are_re_indexed(oversized):
    fixed = apply_fixes(oversized)
    start = 250 - MAX_MESSAGES
    assert fixed.tool_links == tuple(
        (a - start, b - start) for a, b in oversized.tool_links if a >= start
    )
    for a, b in fixed.tool_links:
        assert fixed.request["messages"][b]["id"] == f"c{a + start}"
    before = {c.source: c.index for c in oversized.changes if c.kind == "tool-call-as-text"}
    after = {c.source: c.index for c in fixed.changes if c.kind == "tool-call-as-text"}
    assert after == {s: (i - start if i >= start else None) for s, i in before.items()}


def test_each_fix_can_be_chosen_alone(oversized):
    cut_only = apply_fixes(oversized, keep_last=False)
    assert cut_only.needs_fixes
    assert [c.kind for c in cut_only.changes if c.lossy] == ["too-many-messages"] + [
        "cut-content"
    ] * 3
    assert len(cut_only.request["messages"]) == 250
    kept_only = apply_fixes(oversized, cut_long=False)
    assert [c.index for c in kept_only.changes if c.kind == "content-too-long"] == [70, 190]
    assert apply_fixes(kept_only, keep_last=False) == apply_fixes(oversized)


def test_a_conversation_without_pending_fixes_is_returned_unchanged():
    conversion = convert(long_history(12, {}))
    assert not conversion.needs_fixes
    assert apply_fixes(conversion) is conversion


@pytest.mark.parametrize(
    ("before", "tail"),
    [
        (7998, "👨‍👩‍👧 family"),  # a ZWJ sequence of 5 code points across the limit
        (7999, "e\u0301 accent"),  # a combining accent is not separated from its letter
        (7999, "🇩🇪 flag"),  # a flag's two regional indicators stay together
    ],
)
def test_a_cut_never_splits_a_character(before, tail):
    content = "a" * before + tail
    conversion = convert([{"role": "user", "content": content}, {"role": "user", "content": "ok"}])
    fixed = apply_fixes(conversion)
    assert fixed.request["messages"][0]["content"] == "a" * before
    validate(fixed.request)


def test_a_single_character_longer_than_the_limit_is_cut_hard():
    content = "e" + "\u0301" * 9000  # one grapheme cluster of 9,001 code points
    fixed = apply_fixes(
        convert([{"role": "user", "content": content}, {"role": "user", "content": "ok"}])
    )
    assert fixed.request["messages"][0]["content"] == content[:MAX_CHARS]


def test_a_window_keeps_the_head_and_the_tail_and_re_indexes_what_it_keeps(oversized):
    fixed = apply_fixes(oversized, cut_long=False, window=Window(first=5, last=100))
    kept = list(range(5)) + list(range(150, 250))
    assert fixed.request["messages"] == [oversized.request["messages"][i] for i in kept]
    new = {old: i for i, old in enumerate(kept)}
    assert fixed.tool_links == tuple(
        (new[a], new[b]) for a, b in oversized.tool_links if a in new and b in new
    )
    assert fixed.sources == tuple(oversized.sources[i] for i in kept)
    # message 3 (long) is kept, 120 is gone: only 3 and 240 still wait for a cut
    pending = [c.index for c in fixed.changes if c.kind == "content-too-long"]
    assert pending == [3, new[240]]
    (made,) = [c for c in fixed.changes if c.kind == "kept-window"]
    chars = sum(len(oversized.request["messages"][i]["content"]) for i in range(5, 150))
    assert made.message == (
        f"kept #0 to #4 and #150 to #249 (105 of 250 messages): #5 to #149 were removed "
        f"(145 messages, {chars:,} characters)"
    )


def test_a_window_that_cannot_make_a_request_is_an_error(oversized):
    for window, words in [
        (Window(start=0, end=200), "keeps 201 messages"),
        (Window(start=240, end=260), "not within the 250 messages"),
        (Window(first=1, last=0), "keeps 1 message and a request needs at least 2"),
    ]:
        with pytest.raises(FormatError, match=words):
            apply_fixes(oversized, window=window)


def test_the_results_whose_call_a_window_leaves_out_are_named_by_link_and_by_position():
    # 149 is the result of the call in 148, which the range leaves out
    fixed = apply_fixes(convert(long_history(250, {})), window=Window(start=149, end=248))
    assert fixed.window_orphans == (0,)
    assert all(b != 0 for _, b in fixed.tool_links)
    # without ids, a result pairs with the assistant message before its run of tool messages
    roles = ["user", "assistant", "tool", "tool", "user", "assistant", "tool"]
    plain = convert({"messages": [{"role": r, "content": f"m{i}"} for i, r in enumerate(roles)]})
    assert apply_fixes(plain, window=Window(start=3)).window_orphans == (0,)
    assert apply_fixes(plain, window=Window(start=1)).window_orphans == ()
    assert apply_fixes(plain, window=Window(first=1, last=1)).window_orphans == (1,)
    # keep-last leaves no result without its call here (it starts at a user message)
    assert apply_fixes(convert(long_history(250, {}))).window_orphans == ()
