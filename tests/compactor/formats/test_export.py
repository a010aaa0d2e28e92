"""Exports a provider accepts: OpenAI's and Anthropic's tool-call rules checked on real trajectories
at many settings, every returned text kept exactly, each orphan half dropped and reported."""

import itertools
import json

import pytest

from compactor import compact
from compactor.formats import (
    TARGETS,
    apply_fixes,
    compacted_messages,
    convert,
    convert_text,
    export,
    resolve,
)
from tests.paths import ROOT

TAU = ROOT / "tests" / "fixtures" / "real" / "tau_airline_3_records.json"
SETTINGS = list(itertools.product((1_500, 4_000, 9_000, 400_000), (0, 3), (80, 400, 4_000)))


def tau(record):
    conversion = apply_fixes(convert_text(TAU.read_bytes(), record=record))
    return conversion, {call for _, call in conversion.removed_results}


def openai_problems(messages):
    """Chat Completions' tool-call rules: each assistant tool_calls entry answered by a tool
    message right after it (before any other role), no tool message without such a call."""
    problems, pending = [], None
    for k, m in enumerate(messages):
        if m["role"] == "tool":
            if not pending or m["tool_call_id"] not in pending:
                problems.append(f"[{k}] answers no open call")
            else:
                pending.discard(m["tool_call_id"])
            if not isinstance(m["content"], str):
                problems.append(f"[{k}] content is not text")
            continue
        if pending:
            problems.append(f"[{k}] comes before the results of {sorted(pending)}")
        pending = None
        if m["role"] == "assistant" and "tool_calls" in m:
            ids = [c["id"] for c in m["tool_calls"]]
            if not ids or len(set(ids)) != len(ids):
                problems.append(f"[{k}] tool_calls empty or ids repeated")
            for call in m["tool_calls"]:
                function = call["function"]
                if call["type"] != "function" or not function["name"]:
                    problems.append(f"[{k}] a call has no function name")
                json.loads(function["arguments"])  # tau's arguments are JSON objects
            if not (m["content"] is None or isinstance(m["content"], str) and m["content"]):
                problems.append(f"[{k}] content must be text or null")
            pending = set(ids)
        elif not isinstance(m["content"], str) or not m["content"]:
            problems.append(f"[{k}] {m['role']} message without text")
        if m["role"] not in ("system", "user", "assistant", "tool"):
            problems.append(f"[{k}] role {m['role']}")
    if pending:
        problems.append(f"the last calls {sorted(pending)} have no results")
    return problems


def text_without_calls(content):
    """The oracle: a content's text with the import's call lines (one block) taken out."""
    blocks = content.split("\n\n")
    keep = [b for b in blocks if not all(line.startswith("[tool call ") for line in b.split("\n"))]
    return "\n\n".join(keep)


@pytest.mark.parametrize("record", [0, 1, 2])
@pytest.mark.parametrize(("budget", "keep_last_n", "max_chars"), SETTINGS)
def test_a_tau_trajectory_compacted_to_openai_follows_its_tool_call_rules(
    record, budget, keep_last_n, max_chars
):
    conversion, empty = tau(record)
    request = {
        **conversion.request,
        "budget_chars": budget,
        "keep_last_n": keep_last_n,
        "max_message_chars": max_chars,
    }
    response = compact(request)
    exported = export(response, request, "openai", empty_results=empty)
    assert openai_problems(exported.value) == []
    # every returned text is kept exactly (the calls now structured, orphans dropped)
    returned = {m["index"]: m for m in response["messages"]}
    emitted = [m for m in exported.value if not (m["role"] == "tool" and m["content"] == "")]
    left_out = {int(n[1:].split(":")[0]) for n in exported.notes if "left out" in n}
    dropped_results = {int(n[1:].split(":")[0]) for n in exported.notes if "tool result" in n}
    expected = [m for i, m in sorted(returned.items()) if i not in left_out | dropped_results]
    assert len(emitted) == len(expected)
    for got, want in zip(emitted, expected, strict=True):
        assert got["role"] == want["role"]
        whole = conversion.request["messages"][want["index"]]["content"]
        if want["role"] == "assistant" and whole.startswith(want["content"]):
            assert (got["content"] or "") == text_without_calls(want["content"]).rstrip("\n") or (
                want["kept"] == "trimmed"
            )
        else:
            assert got["content"] == want["content"]
    # with nothing dropped, reading the export back gives the compacted contents exactly
    if all("gave back" in n for n in exported.notes) and len(response["messages"]) >= 2:
        again = convert(exported.value, "openai").request["messages"]
        assert [m["content"] for m in again] == [m["content"] for m in response["messages"]]


def test_the_empty_think_result_the_import_removed_is_given_back():
    conversion, empty = tau(0)
    request = {**conversion.request, "budget_chars": 400_000}
    exported = export(compact(request), request, "openai", empty_results=empty)
    (think,) = [m for m in exported.value if m["role"] == "tool" and m["content"] == ""]
    assert think["tool_call_id"] in empty
    assert exported.notes == (next(n for n in exported.notes if "gave back" in n),)


def anthropic_problems(body):
    problems = []
    messages = body["messages"]
    for k, m in enumerate(messages):
        if k and messages[k - 1]["role"] == m["role"]:
            problems.append(f"[{k}] repeats the role {m['role']}")
        uses = [b["id"] for b in m["content"] if b["type"] == "tool_use"]
        if m["role"] != "assistant" and uses:
            problems.append(f"[{k}] tool_use outside an assistant message")
        if uses:
            after = messages[k + 1]["content"] if k + 1 < len(messages) else []
            results = [b["tool_use_id"] for b in after if b["type"] == "tool_result"]
            if sorted(results) != sorted(uses):
                problems.append(f"[{k}] calls {uses} answered by {results}")
            kinds = [b["type"] for b in after]
            if kinds[: len(results)] != ["tool_result"] * len(results):
                problems.append(f"[{k + 1}] tool results are not first")
        for b in m["content"]:
            if b["type"] == "text" and not b["text"]:
                problems.append(f"[{k}] an empty text block")
            if b["type"] == "tool_use" and not isinstance(b["input"], dict):
                problems.append(f"[{k}] tool_use input is not an object")
    return problems


@pytest.mark.parametrize("record", [0, 1])
@pytest.mark.parametrize(("budget", "keep_last_n", "max_chars"), SETTINGS[::3])
def test_a_tau_trajectory_compacted_to_anthropic_follows_its_rules(
    record, budget, keep_last_n, max_chars
):
    conversion, empty = tau(record)
    request = {**conversion.request, "budget_chars": budget, "keep_last_n": keep_last_n}
    request["max_message_chars"] = max_chars
    response = compact(request)
    exported = export(response, request, "anthropic", empty_results=empty)
    body = exported.value
    assert anthropic_problems(body) == []
    # the API accepts an assistant message first (Amazon Bedrock does not): it is said
    first = body["messages"][0]["role"] if body["messages"] else "user"
    assert any("starts with an assistant message" in n for n in exported.notes) == (
        first == "assistant"
    )
    assert body["system"] == response["messages"][0]["content"]


CALLING = [
    {"role": "user", "content": "Where is order DE-4471?"},
    {
        "role": "assistant",
        "content": 'Let me look it up.\n\n[tool call lookup id=c1] {"order": "DE-4471", '
        + '"fields": ["status", "eta", "carrier", "warehouse", "history", "notes"]}',
    },
    {"role": "tool", "id": "c1", "content": "Shipped on 2024-05-17, arriving Thursday."},
    {"role": "assistant", "content": "It ships Thursday."},
]


def test_a_call_cut_by_a_trim_is_dropped_with_its_result_and_both_are_reported():
    request = {
        "messages": CALLING,
        "budget_chars": 4_000,
        "keep_last_n": 2,
        "max_message_chars": 80,
    }
    response = compact(request)
    assert response["messages"][1]["kept"] == "trimmed"
    exported = export(response, request, "openai")
    assert [m["role"] for m in exported.value] == ["user", "assistant", "assistant"]
    assert exported.value[1] == {"role": "assistant", "content": "Let me look it up."}
    assert exported.notes == (
        "#1: dropped the call to lookup id=c1: a trim cut its line, so it cannot be sent",
        "#2: dropped the tool result for call c1: a trim cut its call's line",
    )
    kept = export(response, request, "openai", keep_orphans=True)
    assert kept.value[1]["content"] == response["messages"][1]["content"]
    assert kept.value[2] == {
        "role": "user",
        "content": "[tool result id=c1] " + CALLING[2]["content"],
    }
    assert openai_problems(kept.value) == []


def test_a_result_whose_call_was_dropped_goes_and_a_call_without_result_goes():
    request = {"messages": CALLING, "budget_chars": 100, "keep_last_n": 2, "keep_roles": []}
    response = compact(request)
    assert [m["index"] for m in response["messages"]] == [2, 3]
    exported = export(response, request, "anthropic")
    assert exported.value == {
        "messages": [
            {"role": "assistant", "content": [{"type": "text", "text": "It ships Thursday."}]}
        ]
    }
    assert exported.notes == (
        "#2: dropped the tool result for call c1: its call is not in the compacted conversation "
        "right before it",
        "#3: the conversation starts with an assistant message: Anthropic's API accepts that, "
        "Amazon Bedrock's does not (it wants a user message first)",
    )
    messages = CALLING[:2] + CALLING[3:]
    request = {"messages": messages, "budget_chars": 4_000}
    exported = export(compact(request), request, "vercel")
    assert exported.notes == (
        "#1: dropped the call to lookup id=c1: its result is not in the compacted conversation",
    )
    assert exported.value[1] == {"role": "assistant", "content": "Let me look it up."}


def test_vercel_and_sharegpt_shapes():
    request = {"messages": CALLING, "budget_chars": 4_000}
    response = compact(request)
    vercel = export(response, request, "vercel").value
    assert vercel[1]["content"][1] == {
        "type": "tool-call",
        "toolCallId": "c1",
        "toolName": "lookup",
        "input": {
            "order": "DE-4471",
            "fields": ["status", "eta", "carrier", "warehouse", "history", "notes"],
        },
    }
    assert vercel[2]["content"][0]["output"] == {"type": "text", "value": CALLING[2]["content"]}
    sharegpt = export(response, request, "sharegpt").value["conversations"]
    assert [t["from"] for t in sharegpt] == ["human", "gpt", "function_call", "observation", "gpt"]
    assert json.loads(sharegpt[2]["value"])["name"] == "lookup"
    # and ShareGPT's import reads the export back to the same conversation
    again = convert({"conversations": sharegpt}).request["messages"]
    assert again[3] == {"role": "tool", "content": CALLING[2]["content"]}


def test_same_is_the_input_format_where_there_is_a_writer():
    assert resolve("same", "anthropic") == "anthropic"
    assert resolve("openai", "codex") == "openai"
    with pytest.raises(ValueError, match="the input is codex"):
        resolve("same", "codex")
    assert "same" in TARGETS


def test_compacted_messages_are_the_survivors_ready_to_send():
    request = {
        "budget_chars": 200,
        "keep_last_n": 1,
        "messages": [
            {"role": "system", "id": "sys", "content": "You are terse."},
            {"role": "user", "content": "Where is order DE-4471? " * 12},
            {"role": "assistant", "id": "a-1", "content": "It left Lyon at 03:10."},
            {"role": "user", "content": "Thanks!"},
        ],
    }
    response = compact(request)
    messages = compacted_messages(response)
    assert [m["content"] for m in messages] == [m["content"] for m in response["messages"]]
    assert all(set(m) <= {"role", "content", "id"} for m in messages)
    with_id = [m for m in response["messages"] if "id" in m]
    assert [m["id"] for m in messages if "id" in m] == [m["id"] for m in with_id] == ["sys", "a-1"]
    assert export(response, request, "messages").value == messages
