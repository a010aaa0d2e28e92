"""Conversation input: paste, upload and edit; errors name where, and nothing typed is lost."""

import json

import pytest

from compactor.contract import DEFAULTS
from compactor.formats import convert_text
from compactor.samples import DEFAULT_SAMPLE, load_samples
from explorer.conversation import fixing, importing
from explorer.session import state
from harness.apptest import assert_clean, goto, params, set_param, start, table
from tests.explorer.requests import rich_request
from tests.paths import ROOT

TAU = ROOT / "tests" / "fixtures" / "real" / "tau_airline_3_records.json"

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
    assert any("own parameters are used (it states all" in c.value for c in at.caption)
    assert not at.info  # its own by its own statement, not as a fallback
    assert "sample" not in at.query_params
    assert any("Loaded: Pasted conversation (request)" in s.value for s in at.success)
    assert at.selectbox(key=state.SAMPLE_KEY).value == state.YOURS  # the loaded one


def test_pasting_a_bare_message_array_keeps_your_parameters_and_says_so(conv_page):
    messages = rich_request()["messages"]
    at = set_param(conv_page, "keep_last_n", 7)
    before = params(at)
    at = paste(at, json.dumps(messages))
    assert_clean(at)
    assert list(conversation(at).messages) == messages
    assert params(at) == before  # the file has no parameters: the tuned ones stay
    assert any("your current parameters are kept" in c.value for c in at.caption)
    assert not any(OWN in i.value for i in at.info)
    assert not at.dataframe or "budget-chosen" not in set(table(at, "what changed")["kind"])


def test_a_file_with_some_parameters_brings_those_and_keeps_the_others(conv_page):
    at = set_param(conv_page, "max_message_chars", 999)
    request = {"messages": rich_request()["messages"], "budget_chars": 700, "keep_last_n": 1}
    at = paste(at, json.dumps(request))
    assert_clean(at)
    got = params(at)
    assert (got["budget_chars"], got["keep_last_n"], got["max_message_chars"]) == (700, 1, 999)
    said = [c.value for c in at.caption if "file's own" in c.value]
    assert said == [
        "The file's own budget_chars, keep_last_n are used; your keep_roles, "
        "duplicate_threshold, max_message_chars are kept."
    ]


#: The notice of a conversation that opens with its own parameters.
OWN = "this one opens with its own"


def long_session(turns=40):
    """A bare message list of 24,465 characters: a system prompt and 40 messages of 470 to 722
    characters, no two alike (so dedupe has nothing to do and the parameters alone decide)."""
    messages = [{"role": "system", "content": "You are a coding agent. Keep the tests green."}]
    for i in range(turns):
        words = " ".join(f"s{i}w{w}" for w in range(80 + i % 3 * 12))  # no two alike
        messages.append({"role": "user" if i % 2 else "assistant", "content": f"{words}."})
    return messages


@pytest.mark.parametrize("sample", ["dispatcher", DEFAULT_SAMPLE])
def test_a_conversation_loaded_over_untouched_sample_parameters_gets_its_own(sample):
    # issue 26: an upload inherited the dispatcher's budget_chars 400 and max_message_chars 120
    at = goto(start({"sample": sample}), PAGE)
    messages = long_session()
    data = "\n".join(json.dumps(m) for m in messages).encode()
    at = upload(at, "session.jsonl", data)
    assert_clean(at)
    conv = conversation(at)
    chars = sum(len(m["content"]) for m in messages)
    own = {
        "budget_chars": chars // 2 // 100 * 100,  # about half, as the import chooses it
        "keep_last_n": DEFAULTS["keep_last_n"],
        "keep_roles": list(DEFAULTS["keep_roles"]),
        "duplicate_threshold": DEFAULTS["duplicate_threshold"],
        "max_message_chars": DEFAULTS["max_message_chars"],
    }
    assert dict(conv.params) == own and params(at) == own
    (notice,) = [i.value for i in at.info if OWN in i.value]
    assert f"budget_chars {own['budget_chars']:,}" in notice and "max_message_chars 400" in notice
    assert "budget-chosen" in set(table(at, "what changed")["kind"])  # and the budget is said
    at.button(key="reset_params").click().run()
    assert params(at) == own  # what Reset gives it
    # a second conversation over these untouched values gets its own too
    at = paste(at, json.dumps(messages[:11]))
    assert_clean(at)
    assert params(at)["budget_chars"] == sum(len(m["content"]) for m in messages[:11]) // 200 * 100
    assert any(OWN in i.value for i in at.info)


def test_a_file_stating_some_parameters_over_untouched_ones_gets_the_rest_of_its_own(conv_page):
    messages = rich_request()["messages"]
    at = paste(conv_page, json.dumps({"messages": messages, "keep_last_n": 1}))
    assert_clean(at)
    got = params(at)
    assert got == {**dict(conversation(at).params), "keep_last_n": 1}
    assert (got["max_message_chars"], got["keep_roles"]) == (400, ["system"])
    (notice,) = [i.value for i in at.info if OWN in i.value]
    assert "keep_last_n from the file" in notice and "about half its characters" in notice


def test_a_tuned_parameter_is_kept_and_the_others_too(conv_page):
    at = set_param(conv_page, "budget_chars", 9_000)  # one change is enough to keep them all
    before = params(at)
    at = upload(at, "session.jsonl", "\n".join(json.dumps(m) for m in long_session()).encode())
    assert_clean(at)
    assert params(at) == before
    assert not any(OWN in i.value for i in at.info)
    assert any("your current parameters are kept" in c.value for c in at.caption)


def test_a_refused_paste_shows_only_its_own_outcome(conv_page):
    at = paste(conv_page, json.dumps(rich_request()))
    assert any("Loaded:" in s.value for s in at.success)
    loaded = conversation(at)
    at = paste(at, '{"messages": [')
    assert_clean(at)
    assert not at.success  # the earlier "Loaded" banner is gone
    assert any("not valid JSON" in e.value for e in at.error)
    assert conversation(at) is loaded  # and the conversation is still the one loaded


def upload(at, name, data):
    at = mode(at, "Upload")
    at.file_uploader(key=importing.UPLOAD_KEY).set_value((name, data, "application/json"))
    return at.run()


def test_a_file_of_many_conversations_offers_a_record_picker(conv_page):
    at = upload(conv_page, "tau airline.json", TAU.read_bytes())
    assert_clean(at)
    assert conversation(at).sample == DEFAULT_SAMPLE  # nothing is loaded until a record is
    assert any("holds many conversations" in i.value for i in at.info)
    picker = at.selectbox(key=importing.RECORD_KEY.format("uploaded"))
    assert picker.options == ["record 0 · id 41", "record 1 · id 45", "record 2 · id 12"]
    picker.set_value(1).run()
    at.button(key="load_record_uploaded").click().run()
    assert_clean(at)
    conv = conversation(at)
    expected = convert_text(TAU.read_bytes(), record=1)
    assert list(conv.messages) == expected.request["messages"]
    assert (conv.record, conv.file_name) == (1, "tau airline.json")
    assert conv.removed_results == expected.removed_results  # the think call's empty result
    assert any("Loaded: Uploaded file tau airline.json, record 1" in s.value for s in at.success)
    assert any("its empty result was removed" in c.value for c in at.caption)
    # the changes name messages #N, with where they were in the file beside them
    changes = table(at, "what changed")
    lossy = changes[changes["kind"] == "empty-result-removed"]
    assert list(lossy["where"]) == ["[1].traj[13]"] and bool(lossy["lossy"].iloc[0])


def query_of(at):
    return {k: v[-1] if isinstance(v, list) else v for k, v in at.query_params.items()}


def test_a_link_reopens_a_loaded_conversation_with_its_view(conv_page):
    at = paste(conv_page, json.dumps(OPENAI))
    conv = conversation(at)
    query = query_of(at)
    assert query["c"] == conv.key and "sample" not in query
    view = {"phrases": "Porto\n18 °C", "message": "3", "step": "2", "b_budget_chars": "150"}
    again = start({**query, **view})
    assert_clean(again)
    assert conversation(again).key == conv.key
    assert list(conversation(again).messages) == list(conv.messages)
    assert conversation(again).tool_links == conv.tool_links
    assert params(again) == params(at)
    session = again.session_state
    assert session[state.PHRASES_KEY] == "Porto\n18 °C"
    assert (session[state.PICKER_KEY], session[state.STEP_KEY]) == (3, 2)
    assert session[state.B_KEYS["budget_chars"]] == 150
    assert session[state.B_KEYS["keep_last_n"]] == params(at)["keep_last_n"]
    # and the URL keeps carrying the view
    assert {k: query_of(again)[k] for k in view} == view


def test_a_link_to_a_conversation_this_server_does_not_have_says_so():
    at = start({"c": "f" * 24, "budget_chars": "500"})
    assert_clean(at)
    assert conversation(at).sample == DEFAULT_SAMPLE
    warnings = [w.value for w in at.warning]
    assert any("f" * 24 in w and "does not have" in w for w in warnings)


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
    goto(at, "pages/overview.py")
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


def test_a_conversation_over_the_limits_loads_whole_and_a_window_is_an_option(conv_page):
    messages = [{"role": "user", "content": f"question number {i}"} for i in range(230)]
    at = paste(conv_page, json.dumps(messages))
    assert_clean(at)
    assert list(conversation(at).messages) == messages  # whole: no fix asked
    assert any(i.value.startswith("Whole: 230 messages") for i in at.info)
    assert not at.warning
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


def test_edits_in_the_table_are_compacted_with_the_current_parameters():
    at = goto(start({"sample": "dispatcher"}), PAGE)  # its six messages, its budget of 400
    before = list(conversation(at).messages)
    at = edit(
        at,
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
    added = len(conversation(conv_page).messages)  # the new row's place
    at = edit(conv_page, {"added_rows": [{"content": "no role here"}]})
    assert_clean(at)
    where = f"messages[{added}].role"
    assert problems(at) == [{"where": where, "problem": "is required but missing"}]
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


def test_the_first_and_last_window_adjusts_the_other_count_and_says_so(conv_page):
    messages = [{"role": "user", "content": f"question number {i}"} for i in range(230)]
    at = paste(conv_page, json.dumps(messages))
    at.checkbox(key=importing.FIX_KEY.format("pasted", "keep_last")).check().run()
    at.radio(key=fixing.WINDOW_KEY.format("pasted", "kind")).set_value("head_tail").run()
    at.number_input(key=fixing.WINDOW_KEY.format("pasted", "first")).set_value(4).run()
    assert_clean(at)
    assert at.number_input(key=fixing.WINDOW_KEY.format("pasted", "last")).value == 196
    said = [c.value.replace("\\", "") for c in at.caption]  # the escapes of markdown_literal
    assert any("The last lowered to 196, so that with the first 4" in c for c in said), said
    assert any(c.startswith("Keeps #0 to #3 and #34 to #229 (200 messages)") for c in said)
    at.button[[b.label for b in at.button].index("Load with these fixes")].click().run()
    assert len(conversation(at).messages) == 200
