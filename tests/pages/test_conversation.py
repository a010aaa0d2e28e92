"""Conversation input: paste, upload and edit; errors name where, and nothing typed is lost."""

import json

import pytest

from compactor.samples import DEFAULT_SAMPLE, load_samples
from explorer.session import state
from explorer.widgets import importing
from tests.explorer.requests import rich_request
from tests.pages.apptest import assert_clean, goto, params, start, table

PAGE = "pages/conversation.py"


@pytest.fixture
def conv_page():
    at = goto(start(), PAGE)
    assert_clean(at)
    return at


def mode(at, name):
    return at.segmented_control(key="input_mode").set_value(name).run()


def paste(at, text, format=None):
    mode(at, "Paste")
    at.text_area(key=importing.PASTE_KEY).set_value(text)
    if format:
        at.selectbox(key=importing.PASTE_FORMAT_KEY).set_value(format)
    at.button[[b.label for b in at.button].index("Load pasted conversation")].click()
    return at.run()


def conversation(at):
    return at.session_state[state.CONVERSATION_KEY]


def problems(at):
    return table(at, "problem").to_dict("records")


def test_pasting_a_request_loads_it_with_its_parameters(conv_page):
    request = rich_request()
    at = paste(conv_page, json.dumps(request, indent=2))
    assert_clean(at)
    assert list(conversation(at).messages) == request["messages"]
    assert params(at) == {k: v for k, v in request.items() if k != "messages"}
    assert "sample" not in at.query_params
    assert any("Loaded: Pasted conversation (request)" in s.value for s in at.success)
    assert at.selectbox(key=state.SAMPLE_KEY).value == state.YOURS  # the loaded one


def test_pasting_a_bare_message_array_loads_it_and_reports_the_chosen_budget(conv_page):
    messages = rich_request()["messages"]
    at = paste(conv_page, json.dumps(messages))
    assert_clean(at)
    assert list(conversation(at).messages) == messages
    changes = table(at, "what changed")
    assert "budget-chosen" in set(changes["kind"])


def test_broken_json_shows_line_and_column_and_keeps_the_text_and_the_conversation(conv_page):
    broken = '{"messages": [\n  {"role": "user", "content": "hi"},\n  {"role": "user" "x": 1}\n]}'
    at = paste(conv_page, broken)
    assert_clean(at)
    assert any("not valid JSON" in e.value for e in at.error)
    (problem,) = problems(at)
    assert problem["where"] == "line 3, column 19"  # where "x" starts: a comma was expected
    assert at.text_area(key=importing.PASTE_KEY).value == broken
    assert conversation(at).sample == DEFAULT_SAMPLE
    # the text survives a visit to another page
    goto(at, "app.py")
    goto(at, PAGE)
    assert at.text_area(key=importing.PASTE_KEY).value == broken


def test_a_request_breaking_the_schema_lists_every_path(conv_page):
    request = rich_request()
    request["messages"][2]["role"] = "robot"
    request["budget_chars"] = 50
    request["duplicate_threshold"] = 2
    at = paste(conv_page, json.dumps(request))
    assert_clean(at)
    where = {p["where"] for p in problems(at)}
    assert where == {"messages[2].role", "budget_chars", "duplicate_threshold"}
    assert conversation(at).sample == DEFAULT_SAMPLE


OPENAI = [
    {"role": "developer", "content": "You answer about the weather."},
    {"role": "user", "content": "Weather in Porto?"},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Porto"}'},
            }
        ],
    },
    {"role": "tool", "tool_call_id": "call_1", "content": "18 °C, light rain"},
    {"role": "assistant", "content": "It is 18 °C with light rain in Porto."},
]


def test_other_formats_are_converted_reported_and_keep_their_tool_links(conv_page):
    at = paste(conv_page, json.dumps(OPENAI))
    assert_clean(at)
    conv = conversation(at)
    assert conv.format == "openai"
    assert conv.tool_links == ((2, 3),)
    assert conv.messages[3]["id"] == "call_1"
    kinds = set(table(at, "what changed")["kind"])
    assert kinds  # the role mapping and the tool call are reported


def test_a_wrong_format_choice_says_why_and_loads_nothing(conv_page):
    at = paste(conv_page, json.dumps(OPENAI), format="sharegpt")
    assert_clean(at)
    assert at.error and problems(at)
    assert conversation(at).sample == DEFAULT_SAMPLE


def test_an_upload_loads_at_once(conv_page):
    lines = "\n".join(json.dumps(m) for m in rich_request()["messages"])
    at = mode(conv_page, "Upload")
    at.file_uploader(key=importing.UPLOAD_KEY).set_value(
        ("history.jsonl", lines.encode(), "application/jsonl")
    )
    at.run()
    assert_clean(at)
    conv = conversation(at)
    assert conv.format == "jsonl" and conv.source == "uploaded"
    assert list(conv.messages) == rich_request()["messages"]


def test_a_broken_upload_names_the_line_and_keeps_the_conversation(conv_page):
    at = mode(conv_page, "Upload")
    at.file_uploader(key=importing.UPLOAD_KEY).set_value(
        ("history.json", b'{"messages": [}', "application/json")
    )
    at.run()
    assert_clean(at)
    assert problems(at)[0]["where"].startswith("line 1, column ")
    assert conversation(at).sample == DEFAULT_SAMPLE


def test_a_conversation_over_the_limits_waits_for_the_chosen_fix(conv_page):
    messages = [{"role": "user", "content": f"question number {i}"} for i in range(230)]
    at = paste(conv_page, json.dumps(messages))
    assert_clean(at)
    assert conversation(at).sample == DEFAULT_SAMPLE  # nothing loaded yet
    assert any("over the request's limits" in w.value for w in at.warning)
    at.checkbox(key=importing.FIX_KEY.format("pasted", "keep_last")).check().run()
    at.button[[b.label for b in at.button].index("Load with these fixes")].click().run()
    assert_clean(at)
    conv = conversation(at)
    assert len(conv.messages) == 200
    assert conv.messages[0]["content"] == "question number 30"
    assert "kept-last" in set(table(at, "what changed")["kind"])


def edit(at, changes):
    mode(at, "Edit messages")
    key = f"editor_{conversation(at).key}"
    at.session_state[key] = {"edited_rows": {}, "added_rows": [], "deleted_rows": [], **changes}
    at.run()
    at.button[[b.label for b in at.button].index("Apply edits")].click()
    return at.run()


def test_edits_in_the_table_are_compacted_with_the_current_parameters(conv_page):
    before = list(conversation(conv_page).messages)
    at = edit(
        conv_page,
        {
            "edited_rows": {
                1: {"content": "Where is DE-4471 now?", "pin": True},
                2: {"position": -0.5},  # positions are the #N numbers: before #0
            },
            "added_rows": [{"role": "user", "content": "One more thing.", "id": "new-1"}],
            "deleted_rows": [4],
        },
    )
    assert_clean(at)
    messages = list(conversation(at).messages)
    assert messages == [
        before[2],
        before[0],
        {"role": "user", "content": "Where is DE-4471 now?", "pin": True},
        before[3],
        before[5],
        {"role": "user", "content": "One more thing.", "id": "new-1"},
    ]
    assert conversation(at).label == "Edited conversation"
    assert params(at)["budget_chars"] == 400


def test_an_invalid_edit_names_the_cell_and_keeps_the_conversation(conv_page):
    at = edit(conv_page, {"added_rows": [{"content": "no role here"}]})
    assert_clean(at)
    assert problems(at) == [{"where": "messages[6].role", "problem": "is required but missing"}]
    assert conversation(at).sample == DEFAULT_SAMPLE


def test_every_sample_can_be_loaded_from_the_list(conv_page):
    at = paste(conv_page, json.dumps(rich_request()))
    assert at.success
    mode(at, "Samples")
    for sample in load_samples():
        at.button(key=f"load_sample_{sample.slug}").click().run()
        assert_clean(at)
        assert conversation(at).sample == sample.slug
        assert at.button(key=f"load_sample_{sample.slug}").disabled
        assert not at.success  # the import report belonged to the pasted conversation
