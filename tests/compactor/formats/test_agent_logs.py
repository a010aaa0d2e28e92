"""Agent logs from real sessions (tests/fixtures/real): Claude Code transcripts, Codex rollouts."""

import json

import pytest

from compactor import compact, validate
from compactor.errors import FormatError
from compactor.formats import FORMATS, convert, convert_text, detect_format
from tests.paths import ROOT

REAL = ROOT / "tests" / "fixtures" / "real"


def lines(name):
    return [json.loads(line) for line in (REAL / name).read_text("utf-8").splitlines() if line]


def kinds(conversion):
    return [c.kind for c in conversion.changes]


def test_both_agent_formats_are_named():
    assert {"claude-code", "codex"} <= set(FORMATS)


@pytest.mark.parametrize(
    "name", ["claude_code_hello_world.jsonl", "claude_code_coverage_fix.jsonl"]
)
def test_a_claude_code_transcript_imports_every_message_with_calls_linked_by_id(name):
    records = lines(name)
    conversion = convert_text((REAL / name).read_bytes())
    assert conversion.format == "claude-code"
    messages = conversion.request["messages"]
    validate(conversion.request)
    uses = [
        b
        for r in records
        if r.get("type") == "assistant"
        for b in r["message"]["content"]
        if b["type"] == "tool_use"
    ]
    results = [
        b
        for r in records
        if r.get("type") == "user" and isinstance(r["message"]["content"], list)
        for b in r["message"]["content"]
        if b["type"] == "tool_result"
    ]
    # every call is a line of its assistant message; every result a tool message with its id
    for use in uses:
        assert (
            sum(f"[tool call {use['name']} id={use['id']}]" in m["content"] for m in messages) == 1
        )
    tools = [m for m in messages if m["role"] == "tool"]
    assert [m["id"] for m in tools] == [r["tool_use_id"] for r in results]
    assert len(conversion.tool_links) == len(results)
    for call, result in conversion.tool_links:
        assert f"id={messages[result]['id']}]" in messages[call]["content"]
    # the texts people typed arrive as they were
    typed = [
        r["message"]["content"]
        for r in records
        if r.get("type") == "user" and isinstance(r["message"]["content"], str)
    ]
    assert [m["content"] for m in messages if m["role"] == "user"] == typed
    # the one queue-operation line is reported once, as Claude Code's own record
    skipped = [c for c in conversion.changes if c.kind == "line-skipped"]
    assert [c.source for c in skipped] == ["line 1"]
    assert "queue-operation" in skipped[0].message and not skipped[0].lossy


def test_claude_code_lines_of_one_response_are_one_message():
    # Claude Code writes each block of a response on its own line, with the same message id
    records = lines("claude_code_coverage_fix.jsonl")
    ids = [r["message"]["id"] for r in records if r.get("type") == "assistant"]
    conversion = convert_text((REAL / "claude_code_coverage_fix.jsonl").read_bytes())
    assistants = [m for m in conversion.request["messages"] if m["role"] == "assistant"]
    assert len(assistants) == len(dict.fromkeys(ids)) < len(ids)
    assert [m["id"] for m in assistants] == list(dict.fromkeys(ids))


def test_the_claude_code_export_reads_as_its_transcript():
    jsonl = convert_text((REAL / "claude_code_hello_world.jsonl").read_bytes())
    export = json.loads((REAL / "claude_code_hello_world_export.json").read_text("utf-8"))
    assert detect_format(export) == "claude-code"
    conversion = convert(export)
    assert conversion.request == jsonl.request
    assert conversion.tool_links == jsonl.tool_links


def test_a_subagent_inside_a_session_is_skipped_and_reported():
    records = lines("claude_code_hello_world.jsonl")
    side = {**records[2], "isSidechain": True, "message": {**records[2]["message"], "id": "msg_x"}}
    text = "\n".join(json.dumps(r) for r in [*records[:2], side, *records[2:]])
    conversion = convert_text(text)
    assert (
        conversion.request
        == convert_text((REAL / "claude_code_hello_world.jsonl").read_bytes()).request
    )
    (change,) = [
        c for c in conversion.changes if c.kind == "line-skipped" and "isSidechain" in c.message
    ]
    assert change.source == "line 3"


def test_a_codex_rollout_imports_with_its_instructions_and_every_skipped_kind_once():
    conversion = convert_text((REAL / "codex_exec_session.jsonl").read_bytes())
    assert conversion.format == "codex"
    messages = conversion.request["messages"]
    assert [m["role"] for m in messages] == ["system", "system", "user", "user", "assistant"]
    assert messages[0]["content"] == "[REDACTED_BASE_INSTRUCTIONS]"
    assert messages[-1]["content"] == "[REDACTED_ASSISTANT_TEXT]"
    skipped = {
        c.message.split(" skipped")[0]: c for c in conversion.changes if c.kind == "line-skipped"
    }
    assert set(skipped) == {"5 lines of type 'event_msg'", "1 line of type 'turn_context'"}
    assert skipped["5 lines of type 'event_msg'"].source == "line 2"


def test_codex_calls_and_outputs_are_linked_by_call_id():
    conversion = convert_text((REAL / "codex_tool_calls.jsonl").read_bytes())
    messages = conversion.request["messages"]
    calls = [
        r["payload"]
        for r in lines("codex_tool_calls.jsonl")
        if r["type"] == "response_item" and r["payload"]["type"] == "function_call"
    ]
    for call in calls:
        assert sum(f"[tool call shell id={call['call_id']}]" in m["content"] for m in messages) == 1
    (link,) = conversion.tool_links
    assert messages[link[1]] == {"role": "tool", "content": "Hello World", "id": "call_esc_003"}
    # the empty output is a lost result, its call is named; the reasoning is lost content
    assert conversion.removed_results == ((1, "call_esc_001"),)
    lossy = {c.kind for c in conversion.changes if c.lossy}
    assert lossy == {"empty-result-removed", "line-skipped"}
    reasoning = [c for c in conversion.changes if "reasoning" in c.message]
    assert len(reasoning) == 1 and reasoning[0].message.startswith("2 lines")


def test_a_log_with_no_messages_says_so():
    only_events = (
        '{"timestamp": "t", "type": "event_msg", "payload": {"type": "task_started"}}\n' * 2
    )
    with pytest.raises(FormatError, match="no messages"):
        convert_text(only_events)
    with pytest.raises(FormatError, match="no user or assistant records"):
        convert_text('{"type": "summary", "summary": "x"}\n' * 2, "claude-code")


@pytest.mark.parametrize("name", ["claude_code_coverage_fix.jsonl", "codex_tool_calls.jsonl"])
def test_agent_logs_compact(name):
    request = convert_text((REAL / name).read_bytes()).request
    response = compact(request)
    assert response["loss"]["input_messages"] == len(request["messages"])
