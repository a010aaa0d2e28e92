"""The real recorded conversations in ../shared/corpus/ (read in place) import and compact."""

import json

import pytest

from compactor import compact, run, validate
from compactor.engine import build_response
from compactor.formats import apply_fixes, convert_text
from tests.paths import CORPUS

FILES = sorted(CORPUS.glob("*.json"))
#: The corpus README's format names and the import's names for them.
FORMAT_OF = {"simple": "messages", "openai-chat": "openai"}
METADATA = ["source", "licence", "format", "notes"]


def test_the_corpus_is_there():
    assert [f.name for f in FILES] == [
        "abcd_customer_support.json",
        "swe_agent_pydicom_tool_trace.json",
        "tau_airline_long_repetitive.json",
        "tau_airline_tool_heavy.json",
    ]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_recorded_conversation_imports_with_an_accurate_report_and_compacts(path):
    recorded = json.loads(path.read_text("utf-8"))
    conversion = convert_text(path.read_bytes())
    assert conversion.format == FORMAT_OF[recorded["format"]]
    request = apply_fixes(conversion).request
    typed = validate(request)
    source = recorded["messages"]
    kinds = [c.kind for c in conversion.changes]

    # every recorded message with text arrives, in order; the empty ones are reported
    empty = [i for i, m in enumerate(source) if not m.get("content") and not m.get("tool_calls")]
    removed = [c for c in conversion.changes if c.kind in ("empty-removed", "empty-result-removed")]
    assert [c.source for c in removed] == [f"messages[{i}]" for i in empty]
    # an empty tool result is a lost result: lossy, and its call is named as unanswered
    for change in removed:
        assert change.lossy == (change.kind == "empty-result-removed")
    empty_results = [source[i]["tool_call_id"] for i in empty if source[i]["role"] == "tool"]
    assert [call for _, call in conversion.removed_results] == empty_results
    kept = [m for i, m in enumerate(source) if i not in empty]
    assert typed.roles == tuple(m["role"] for m in kept)
    for message, original in zip(typed.messages, kept, strict=True):
        assert message.content.startswith(original["content"] or "")

    # each tool call is written into its message, each result keeps the call's id
    calls = [(i, c) for i, m in enumerate(kept) for c in m.get("tool_calls") or []]
    assert kinds.count("tool-call-as-text") == len(calls)
    for i, call in calls:
        line = f"[tool call {call['function']['name']} id={call['id']}]"
        assert line in typed.messages[i].content
    results = [i for i, m in enumerate(kept) if m.get("tool_call_id")]
    assert [typed.messages[i].id for i in results] == [kept[i]["tool_call_id"] for i in results]
    assert [b for _, b in conversion.tool_links] == results

    # the corpus' own fields are reported as left out, and a budget was chosen
    ignored = [c.source for c in conversion.changes if c.kind == "field-ignored"]
    assert ignored[:4] == METADATA
    assert kinds.count("budget-chosen") == 1
    assert conversion.needs_fixes is False  # the corpus keeps within the limits

    # and it compacts: the budget is met by dropping, the accounting adds up
    result = run(typed)
    response = compact(request)
    assert response == build_response(result)
    loss = response["loss"]
    assert loss["input_messages"] == len(kept)
    assert loss["output_messages"] < loss["input_messages"]
    assert result.budget_met or result.protected_chars > typed.params.budget_chars


@pytest.mark.parametrize("name", ["tau_airline_tool_heavy", "tau_airline_long_repetitive"])
def test_recorded_tool_results_arrive_unchanged(name):
    recorded = json.loads((CORPUS / f"{name}.json").read_text("utf-8"))["messages"]
    conversion = convert_text((CORPUS / f"{name}.json").read_bytes())
    expected = [(m["tool_call_id"], m["content"]) for m in recorded if m["role"] == "tool"]
    arrived = [
        (m["id"], m["content"]) for m in conversion.request["messages"] if m["role"] == "tool"
    ]
    assert arrived == [(i, c) for i, c in expected if c]
