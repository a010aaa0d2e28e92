"""Imports keep the compactions an agent recorded: where each falls, its trigger and token
counts, the summary it wrote; the summary is not a message, and logs without one are unchanged."""

import json
from pathlib import Path

import pytest

from compactor.formats import RecordedCompaction, apply_fixes, convert_text
from tests.paths import ROOT

FIXTURES = ROOT / "tests" / "fixtures"
CLAUDE = FIXTURES / "compactions" / "claude_code_two_compactions.jsonl"
CODEX = FIXTURES / "compactions" / "codex_compacted.jsonl"


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def jsonl(records: list[dict]) -> bytes:
    return "\n".join(json.dumps(r) for r in records).encode()


def test_claude_code_keeps_each_boundary_with_its_metadata_and_summary():
    conversion = convert_text(CLAUDE.read_bytes())
    records = lines_of(CLAUDE)
    summaries = [r for r in records if r.get("isCompactSummary")]
    first, second = conversion.compactions
    assert (first.boundary, first.trigger, first.pre_tokens, first.post_tokens, first.source) == (
        6,
        "manual",
        48211,
        3120,
        "line 8",
    )
    assert first.summary == summaries[0]["message"]["content"]
    assert (second.boundary, second.trigger, second.pre_tokens, second.post_tokens) == (
        9,
        "auto",
        155025,
        None,
    )
    assert second.summary == summaries[1]["message"]["content"][0]["text"]
    kept = [c for c in conversion.changes if c.kind == "compaction-kept"]
    assert [c.source for c in kept] == ["line 8", "line 13"]
    assert not any(c.lossy for c in kept)


def test_the_summary_is_not_a_message_and_the_rest_reads_as_without_the_compaction():
    records = lines_of(CLAUDE)
    plain = [
        r
        for r in records
        if r.get("subtype") != "compact_boundary" and not r.get("isCompactSummary")
    ]
    with_them = convert_text(CLAUDE.read_bytes())
    without = convert_text(jsonl(plain))
    assert with_them.request["messages"] == without.request["messages"]
    assert without.compactions == ()
    contents = [m["content"] for m in with_them.request["messages"]]
    assert not any("This session is being continued" in c for c in contents)


def test_codex_keeps_the_compacted_item_where_it_falls():
    conversion = convert_text(CODEX.read_bytes())
    compacted = next(r for r in lines_of(CODEX) if r["type"] == "compacted")
    (only,) = conversion.compactions
    assert only == RecordedCompaction(
        4, compacted["payload"]["message"], None, None, None, "line 9"
    )
    assert conversion.request["messages"][3]["role"] == "assistant"
    assert conversion.request["messages"][4]["content"].startswith("Did you handle region_code")


def test_a_codex_compaction_without_a_message_is_kept_without_a_summary():
    records = lines_of(CODEX)
    for r in records:
        if r["type"] == "compacted":
            r["payload"] = {"message": "", "replacement_history": []}
    (only,) = convert_text(jsonl(records)).compactions
    assert (only.boundary, only.summary) == (4, "")


@pytest.mark.parametrize(
    "name",
    [
        "claude_code_hello_world.jsonl",
        "claude_code_coverage_fix.jsonl",
        "claude_code_hello_world_export.json",
        "codex_exec_session.jsonl",
        "codex_tool_calls.jsonl",
    ],
)
def test_logs_without_a_compaction_record_none(name):
    assert convert_text((FIXTURES / "real" / name).read_bytes()).compactions == ()


def test_a_subagents_compaction_is_skipped_with_its_records():
    records = lines_of(CLAUDE)
    for r in records:
        if r.get("subtype") == "compact_boundary" or r.get("isCompactSummary"):
            r["isSidechain"] = True
    conversion = convert_text(jsonl(records))
    assert conversion.compactions == ()
    assert any("isSidechain" in c.message for c in conversion.changes)


def test_a_summary_without_its_boundary_is_a_compaction_of_its_own():
    records = [r for r in lines_of(CLAUDE) if r.get("subtype") != "compact_boundary"]
    first, second = convert_text(jsonl(records)).compactions
    assert (first.boundary, first.trigger, first.source) == (6, None, "line 8, message.content")
    assert second.boundary == 9


def test_keeping_the_last_messages_shifts_the_boundaries():
    records = lines_of(CLAUDE)
    filler = [
        {"type": "user", "message": {"role": "user", "content": f"note {i}"}} for i in range(199)
    ]
    conversion = convert_text(jsonl(filler + records))
    assert [c.boundary for c in conversion.compactions] == [205, 208]
    fixed = apply_fixes(conversion)
    start = len(conversion.request["messages"]) - 200
    assert [c.boundary for c in fixed.compactions] == [205 - start, 208 - start]
    # 11 messages, then 199 notes: the first 10 go, and both histories with them
    gone = apply_fixes(convert_text(jsonl(records + filler)))
    assert len(gone.request["messages"]) == 200
    assert gone.compactions == ()


@pytest.mark.parametrize(
    ("metadata", "said"),
    [
        ("oops", "compactMetadata is not an object (str)"),
        ({"trigger": 5, "preTokens": "x"}, "trigger is not a text (5); preTokens is not a count"),
        ({"trigger": "auto", "preTokens": -3}, "preTokens is not a count of tokens (-3)"),
    ],
)
def test_a_boundary_with_malformed_metadata_is_kept_and_the_bad_fields_named(metadata, said):
    lines = CLAUDE.read_text("utf-8").splitlines()
    record = json.loads(lines[7])
    record["compactMetadata"] = metadata
    conversion = convert_text("\n".join([*lines[:7], json.dumps(record), *lines[8:]]))
    assert [c.boundary for c in conversion.compactions] == [6, 9]  # nothing lost
    assert conversion.compactions[0].pre_tokens is None
    [skipped] = [c for c in conversion.changes if c.kind == "compaction-metadata-skipped"]
    assert skipped.source == "line 8" and said in skipped.message
