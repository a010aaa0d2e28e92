"""Issue 34, item 11: the items of OpenAI's hosted tools (``web_search_call``, ``file_search_call``,
``code_interpreter_call``, ...) carry their own result; they are never read as a call waiting for
one (and dropped), and a history the setting does not compact comes back exactly as given, through
``shrink`` and through the Agents SDK's session (a real ``SQLiteSession``)."""

from __future__ import annotations

import asyncio
import copy

import pytest

from compactor import shrink, shrink_with_report
from compactor.formats import convert
from compactor.integrations import Setting

#: One item of each hosted tool, as the Responses API returns them (openai.types.responses).
HOSTED = {
    "web_search_call": {
        "type": "web_search_call",
        "id": "ws_1",
        "status": "completed",
        "action": {"type": "search", "query": "Oslo weather DE-4471"},
    },
    "file_search_call": {
        "type": "file_search_call",
        "id": "fs_1",
        "status": "completed",
        "queries": ["refund policy"],
        "results": [{"file_id": "file_9", "filename": "policy.pdf", "text": "30 days."}],
    },
    "code_interpreter_call": {
        "type": "code_interpreter_call",
        "id": "ci_1",
        "status": "completed",
        "container_id": "cntr_1",
        "code": "print(4 * 9 / 5 + 32)",
        "outputs": [{"type": "logs", "logs": "39.2"}],
    },
    "image_generation_call": {
        "type": "image_generation_call",
        "id": "ig_1",
        "status": "completed",
        "result": "iVBORw0KGgo=",
    },
    "mcp_call": {
        "type": "mcp_call",
        "id": "mcp_1",
        "server_label": "tickets",
        "name": "lookup",
        "arguments": '{"ticket": "T-88"}',
        "output": "T-88: open",
    },
    "mcp_list_tools": {
        "type": "mcp_list_tools",
        "id": "mcpl_1",
        "server_label": "tickets",
        "tools": [{"name": "lookup", "input_schema": {"type": "object"}}],
    },
}
REASONING = {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "…"}]}


def history(hosted):
    return [
        {"role": "user", "content": "Weather in Oslo today?"},
        REASONING,
        hosted,
        {"role": "assistant", "content": "It is 4 °C and cloudy in Oslo."},
    ]


@pytest.mark.parametrize("kind", HOSTED)
def test_a_history_nothing_compacts_comes_back_exactly_as_given(kind):
    items = history(HOSTED[kind])
    before = copy.deepcopy(items)
    shrunk = shrink_with_report(items, {"budget_chars": 100_000})
    assert shrunk.messages == before and items == before
    assert all(a is b for a, b in zip(shrunk.messages, items, strict=True))  # the same items
    assert shrunk.report.export_notes == () and not shrunk.report.removed
    assert shrink(items, {"budget_chars": 100_000}, format="responses") == before


@pytest.mark.parametrize("kind", HOSTED)
def test_a_hosted_item_is_no_call_waiting_for_a_result(kind):
    conversion = convert(history(HOSTED[kind]), "responses")
    contents = [m["content"] for m in conversion.request["messages"]]
    assert not any("[tool call" in c for c in contents)
    assert any(c.startswith(f"[{kind}] ") for c in contents)


def test_a_kept_hosted_item_comes_back_as_itself_when_others_are_removed():
    items = [
        {"role": "user", "content": "Book me a flight. " * 30},
        {"role": "assistant", "content": "Which dates? " * 30},
        HOSTED["web_search_call"],
        HOSTED["code_interpreter_call"],
        {"role": "assistant", "content": "It is 4 °C (39.2 °F) and cloudy in Oslo."},
        {"role": "user", "content": "Thanks"},
    ]
    setting = Setting(budget_chars=600, params={"keep_last_n": 4})
    shrunk = shrink_with_report(items, setting)
    assert shrunk.report.removed and shrunk.report.budget_met
    assert shrunk.messages == items[2:]  # the hosted items as given, nothing dropped
    assert shrunk.report.export_notes == ()


def test_a_hosted_item_a_trim_cut_is_dropped_and_said_never_sent_in_part():
    items = [
        {"role": "user", "content": "Weather in Oslo?"},
        HOSTED["file_search_call"],
        {"role": "assistant", "content": "Refunds are accepted within 30 days."},
        {"role": "user", "content": "Thanks"},
    ]
    setting = Setting(budget_chars=150, params={"keep_last_n": 2, "max_message_chars": 80})
    shrunk = shrink_with_report(items, setting)
    assert 1 in shrunk.report.cut
    assert not any(m.get("type") == "file_search_call" for m in shrunk.messages)
    assert not any("file_search_call" in str(m.get("content")) for m in shrunk.messages)
    (note,) = shrunk.report.export_notes
    assert note.startswith("#1: dropped the file_search_call item: a trim cut it")


def test_the_agents_session_returns_a_history_nothing_compacts_as_stored(tmp_path):
    pytest.importorskip("agents")
    from agents import SQLiteSession

    from compactor.integrations import ShrinkingSession

    stored = [
        {"role": "user", "content": "Weather in Oslo today?"},
        HOSTED["web_search_call"],
        {"role": "assistant", "content": "It is 4 °C and cloudy in Oslo."},
    ]

    async def run():
        store = SQLiteSession("user-7", tmp_path / "chats.db")
        await store.add_items(copy.deepcopy(stored))
        session = ShrinkingSession(store, {"budget_chars": 100_000})
        return await session.get_items(), await store.get_items(), session.last_report

    got, kept, report = asyncio.run(run())
    assert got == kept == stored
    assert report is not None and not (report.removed or report.export_notes)
