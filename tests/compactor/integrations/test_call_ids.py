"""Issue 34, items 12 and 13: tool-call ids as sent. No two calls of what ``shrink`` returns share
an id (Anthropic rejects duplicate ``tool_use`` ids): a repeated id is given a fresh one, its
result too, and the report says so; a call without an id gets its id before the characters are
counted, so a budget the report says is met is met by what is sent."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from compactor import compact, shrink_with_report
from compactor.formats import convert, export
from compactor.integrations import Setting
from harness.call_id_cases import FORMATS, case, check, sent_chars

SETTING = Setting(budget_chars=2_000, params={"keep_last_n": 10})


def openai_call(call_id, name):
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": json.dumps({"order": name.upper()})},
    }


#: Two messages reusing one id, and one message whose two calls share an id.
OPENAI = [
    {"role": "user", "content": "Where are my two orders?"},
    {"role": "assistant", "content": None, "tool_calls": [openai_call("c1", "lookup")]},
    {"role": "tool", "tool_call_id": "c1", "content": "order LOOKUP: shipped"},
    {"role": "assistant", "content": None, "tool_calls": [openai_call("c1", "track")]},
    {"role": "tool", "tool_call_id": "c1", "content": "order TRACK: in Hamburg"},
    {
        "role": "assistant",
        "content": "Checking both again.",
        "tool_calls": [openai_call("c2", "recheck"), openai_call("c2", "confirm")],
    },
    {"role": "tool", "tool_call_id": "c2", "content": "order RECHECK: shipped"},
    {"role": "tool", "tool_call_id": "c2", "content": "order CONFIRM: delivered"},
    {"role": "assistant", "content": "One is shipped, the other delivered."},
]


def anthropic_use(call_id, name):
    return {"type": "tool_use", "id": call_id, "name": name, "input": {"order": name.upper()}}


def anthropic_result(call_id, text):
    return {"type": "tool_result", "tool_use_id": call_id, "content": text}


ANTHROPIC = {
    "system": "You track orders.",
    "messages": [
        {"role": "user", "content": "Where are my two orders?"},
        {"role": "assistant", "content": [anthropic_use("toolu_1", "lookup")]},
        {"role": "user", "content": [anthropic_result("toolu_1", "order LOOKUP: shipped")]},
        {"role": "assistant", "content": [anthropic_use("toolu_1", "track")]},
        {"role": "user", "content": [anthropic_result("toolu_1", "order TRACK: in Hamburg")]},
        {
            "role": "assistant",
            "content": [anthropic_use("toolu_2", "recheck"), anthropic_use("toolu_2", "confirm")],
        },
        {
            "role": "user",
            "content": [
                anthropic_result("toolu_2", "order RECHECK: shipped"),
                anthropic_result("toolu_2", "order CONFIRM: delivered"),
            ],
        },
        {"role": "assistant", "content": "One is shipped, the other delivered."},
    ],
}


def openai_pairs(messages):
    """(call name, its result) in order; asserts every result answers a call of the message
    right before its run of results, and no two calls share an id."""
    names, pairs, seen = {}, [], []
    for m in messages:
        if m["role"] == "assistant":
            names = {c["id"]: c["function"]["name"] for c in m.get("tool_calls") or []}
            seen += list(names)
        elif m["role"] == "tool":
            pairs.append((names.pop(m["tool_call_id"]), m["content"]))
        else:
            names = {}
    assert len(seen) == len(set(seen)), seen
    return pairs


def anthropic_pairs(messages):
    names, pairs, seen = {}, [], []
    for m in messages:
        blocks = m["content"] if isinstance(m["content"], list) else []
        if m["role"] == "assistant":
            names = {b["id"]: b["name"] for b in blocks if b["type"] == "tool_use"}
            seen += list(names)
        else:
            for b in blocks:
                if b["type"] == "tool_result":
                    pairs.append((names.pop(b["tool_use_id"]), b["content"]))
            names = {}
    assert len(seen) == len(set(seen)), seen
    return pairs


EXPECTED = [
    ("lookup", "order LOOKUP: shipped"),
    ("track", "order TRACK: in Hamburg"),
    ("recheck", "order RECHECK: shipped"),
    ("confirm", "order CONFIRM: delivered"),
]


def test_repeated_openai_call_ids_are_repaired_each_result_beside_its_call_and_said():
    shrunk = shrink_with_report(OPENAI, SETTING)
    assert openai_pairs(shrunk.messages) == EXPECTED
    ids = [c["id"] for m in shrunk.messages for c in m.get("tool_calls") or []]
    assert ids == ["c1", "c1_2", "c2", "c2_2"]
    notes = shrunk.report.export_notes
    assert [n.split(":")[0] for n in notes] == ["#3", "#5"]
    assert "the call to track repeats the id c1 of an earlier call" in notes[0]
    assert "sent as id=c1_2" in notes[0] and "sent as id=c2_2" in notes[1]


def test_repeated_anthropic_tool_use_ids_are_repaired_each_result_beside_its_call_and_said():
    shrunk = shrink_with_report(ANTHROPIC, SETTING)
    assert anthropic_pairs(shrunk.messages["messages"]) == EXPECTED
    notes = shrunk.report.export_notes
    assert len(notes) == 2 and all("repeats the id toolu_" in n for n in notes)


def test_a_fresh_id_repeats_no_id_of_the_conversation():
    messages = [dict(m) for m in OPENAI]
    messages[-1] = {"role": "assistant", "content": None, "tool_calls": [openai_call("c1_2", "x")]}
    messages.append({"role": "tool", "tool_call_id": "c1_2", "content": "x done"})
    shrunk = shrink_with_report(messages, SETTING)
    openai_pairs(shrunk.messages)  # asserts the ids are unique
    assert "sent as id=c1_3" in shrunk.report.export_notes[0]


def test_compact_emit_repairs_them_too():
    """A conversation compacted as it was given (``compact --emit``) is settled by the export."""
    conversion = convert(ANTHROPIC)
    request = {**conversion.request, "budget_chars": 2_000, "keep_last_n": 10}
    exported = export(compact(request), request, "anthropic")
    assert anthropic_pairs(exported.value["messages"]) == EXPECTED
    assert sum("repeats the id" in n for n in exported.notes) == 2


def test_a_call_without_an_id_is_counted_with_the_id_it_is_sent_with():
    # issue 34, item 13: the export gave the call "call_10_0" after the count; 13 characters over
    # a budget the report said was met
    history = [{"role": "user", "content": f"question {i} about DE-{i}"} for i in range(10)]
    call = {"type": "function", "function": {"name": "lookup", "arguments": '{"order": 7}'}}
    history += [
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "content": "order 7 shipped"},
        {"role": "assistant", "content": "Order 7 has shipped."},
    ]
    unsettled = sum(len(m["content"]) for m in convert(history).request["messages"])
    shrunk = shrink_with_report(history, {"budget_chars": unsettled, "params": {"keep_last_n": 13}})
    (sent_call,) = shrunk.messages[10]["tool_calls"]
    assert sent_call["id"] == "call_10_0" and shrunk.messages[11]["tool_call_id"] == "call_10_0"
    sent = sent_chars(shrunk.messages, "openai")
    assert sent == shrunk.report.output_chars == unsettled + len(" id=call_10_0")
    assert not shrunk.report.budget_met  # nothing could be removed: the 13 characters are over


@settings(max_examples=80, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(FORMATS))
def test_what_is_sent_meets_a_budget_the_report_says_met_and_no_two_calls_share_an_id(rng, form):
    """Random histories whose calls lack ids or share them (``python -m bench.call_ids`` runs
    3,000 of them)."""
    data, setting = case(rng, form)
    shrunk = shrink_with_report(data, setting)
    found = check(shrunk.messages, form, shrunk.report)
    assert not found.over_while_met, (found.sent_chars, shrunk.report.budget_chars)
    assert found.shared_ids == () and found.missing_ids == 0


def test_user_messages_sent_as_one_count_the_blank_line_that_joins_them():
    # the one case of bench.call_ids's 3,000 that went over a budget the report said met: two
    # user messages left side by side go out as one Anthropic message, read back with a blank
    # line between their texts (2 characters the engine never counted)
    data, setting = case(random.Random(1325), "anthropic")
    shrunk = shrink_with_report(data, setting)
    found = check(shrunk.messages, "anthropic", shrunk.report)
    assert found.sent_chars == shrunk.report.output_chars > shrunk.report.budget_chars
    assert not shrunk.report.budget_met
    assert any("sent as one message" in n for n in shrunk.report.export_notes)
