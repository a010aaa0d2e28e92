"""compactor.formats: the Anthropic, Vercel AI SDK and ShareGPT adapters."""

import json

import pytest

from compactor.errors import FormatError
from compactor.formats import convert, convert_text
from tests.compactor.formats.test_convert import fixture, report


def test_anthropic_messages():
    conversion = convert_text(fixture("anthropic_messages.json"))
    source = json.loads(fixture("anthropic_messages.json"))
    m = source["messages"]
    assert conversion.request["messages"] == [
        {
            "role": "system",
            "content": source["system"][0]["text"] + "\n\n" + source["system"][1]["text"],
        },
        {"role": "user", "content": m[0]["content"]},
        {
            "role": "assistant",
            "content": m[1]["content"][1]["text"]
            + '\n\n[tool call smoke_test_results id=toolu_01SmokeA] {"build": "1873"}'
            + '\n[tool call crash_rate id=toolu_02Crash] {"build": "1873", "channel": "beta"}',
        },
        {"role": "tool", "content": m[2]["content"][0]["content"], "id": "toolu_01SmokeA"},
        {
            "role": "tool",
            "content": m[2]["content"][1]["content"][0]["text"],
            "id": "toolu_02Crash",
        },
        {"role": "assistant", "content": m[3]["content"][0]["text"]},
        {"role": "user", "content": m[4]["content"][0]["text"]},
        {
            "role": "assistant",
            "content": '[tool call rerun_test id=toolu_03Rerun] {"build": "1873", '
            '"test": "login_with_passkey", "device": "Pixel 6"}',
        },
        {"role": "tool", "content": m[6]["content"][0]["content"], "id": "toolu_03Rerun"},
        {"role": "user", "content": m[6]["content"][1]["text"]},
        {"role": "assistant", "content": m[7]["content"]},
    ]
    assert report(conversion) == [
        ("system-as-message", 0, "system", False),
        ("reasoning-removed", 2, "messages[1].content[0]", True),
        ("tool-call-as-text", 2, "messages[1].content[2]", False),
        ("tool-call-as-text", 2, "messages[1].content[3]", False),
        ("tool-result-as-message", 3, "messages[2].content[0]", False),
        ("tool-result-as-message", 4, "messages[2].content[1]", False),
        ("image-removed", 4, "messages[2].content[1].content[1]", True),
        ("document-removed", 6, "messages[4].content[1]", True),
        ("tool-call-as-text", 7, "messages[5].content[0]", False),
        ("tool-result-as-message", 8, "messages[6].content[0]", False),
        ("tool-error", 8, "messages[6].content[0]", False),
        ("field-ignored", None, "model", False),
        ("field-ignored", None, "max_tokens", False),
        ("budget-chosen", None, None, False),
    ]
    assert conversion.tool_links == ((2, 3), (2, 4), (7, 8))


def test_an_anthropic_string_system_and_an_image_only_message():
    data = {
        "system": "Be brief.",
        "messages": [
            {"role": "user", "content": [{"type": "image", "source": {"type": "url", "url": "x"}}]},
            {"role": "user", "content": "What is in the picture?"},
            {"role": "assistant", "content": "I cannot see images."},
        ],
    }
    conversion = convert(data)
    assert conversion.format == "anthropic"
    assert [m["content"] for m in conversion.request["messages"]] == [
        "Be brief.",
        "What is in the picture?",
        "I cannot see images.",
    ]
    assert report(conversion)[:3] == [
        ("system-as-message", 0, "system", False),
        ("image-removed", None, "messages[0].content[0]", True),
        ("empty-removed", None, "messages[0]", False),
    ]


def test_anthropic_problems():
    data = {"system": 5, "messages": [{"role": "user", "content": [{"type": "text", "text": 3}]}]}
    with pytest.raises(FormatError) as caught:
        convert(data, "anthropic")
    assert [(p.path, p.message) for p in caught.value.problems] == [
        ("system", "system must be text or a list of text blocks, not a number"),
        ("messages[0].content[0].text", "text must be a string, not a number"),
    ]


def test_vercel_ui_messages():
    conversion = convert_text(fixture("vercel_ui.json"))
    source = json.loads(fixture("vercel_ui.json"))["messages"]
    assert conversion.request["messages"] == [
        {"role": "system", "content": source[0]["parts"][0]["text"], "id": "sys-1"},
        {"role": "user", "content": source[1]["parts"][0]["text"], "id": "msg-u1"},
        {
            "role": "assistant",
            "content": '[tool call getWeather id=call_w1] {"city": "Lyon"}\n'
            '[tool call read_soil_sensor id=call_s2] {"bed": "tomatoes"}',
            "id": "msg-a1",
        },
        {
            "role": "tool",
            "content": '{"tonight": "dry", "tomorrow": "thunderstorms from 14:00", "rain_mm": 18}',
            "id": "call_w1",
        },
        {"role": "tool", "content": "sensor offline since 09:12", "id": "call_s2"},
        {"role": "assistant", "content": source[2]["parts"][5]["text"]},
        {"role": "user", "content": source[3]["parts"][0]["text"], "id": "msg-u2"},
        {
            "role": "assistant",
            "content": '[tool call scheduleReminder id=call_r3] {"at": "08:00", '
            '"text": "Check the tomato bed after the storm"}',
            "id": "msg-a2",
        },
    ]
    assert report(conversion) == [
        ("image-removed", 1, "messages[1].parts[1]", True),
        ("reasoning-removed", 2, "messages[2].parts[1]", True),
        ("tool-call-as-text", 2, "messages[2].parts[2]", False),
        ("tool-result-as-message", 3, "messages[2].parts[2]", False),
        ("tool-call-as-text", 2, "messages[2].parts[3]", False),
        ("tool-result-as-message", 4, "messages[2].parts[3]", False),
        ("tool-error", 4, "messages[2].parts[3]", False),
        ("source-removed", 5, "messages[2].parts[6]", True),
        ("tool-call-as-text", 7, "messages[4].parts[1]", False),
        ("tool-call-without-result", 7, "messages[4].parts[1]", False),
        ("data-removed", 7, "messages[4].parts[2]", True),
        ("field-ignored", None, "id", False),
        ("field-ignored", None, "trigger", False),
        ("field-ignored", None, "messages[2].metadata", False),
        ("budget-chosen", None, None, False),
    ]
    assert "tomatoes.jpg" in conversion.changes[0].message
    assert conversion.tool_links == ((2, 3), (2, 4))


def test_vercel_text_after_a_result_starts_a_new_message_in_order():
    data = [
        {"id": "u", "role": "user", "parts": [{"type": "text", "text": "Two lookups please"}]},
        {
            "id": "a",
            "role": "assistant",
            "parts": [
                {"type": "text", "text": "First:"},
                {
                    "type": "tool-lookup",
                    "toolCallId": "1",
                    "state": "output-available",
                    "input": {"q": "a"},
                    "output": "A",
                },
                {"type": "text", "text": "Then:"},
                {
                    "type": "tool-invocation",
                    "toolInvocation": {
                        "toolCallId": "2",
                        "toolName": "lookup",
                        "args": {"q": "b"},
                        "state": "result",
                        "result": ["B"],
                    },
                },
                {"type": "text", "text": "Done."},
            ],
        },
    ]
    conversion = convert(data)
    assert [(m["role"], m["content"], m.get("id")) for m in conversion.request["messages"]] == [
        ("user", "Two lookups please", "u"),
        ("assistant", 'First:\n\n[tool call lookup id=1] {"q": "a"}', "a"),
        ("tool", "A", "1"),
        ("assistant", 'Then:\n\n[tool call lookup id=2] {"q": "b"}', None),
        ("tool", '["B"]', "2"),
        ("assistant", "Done.", None),
    ]
    assert conversion.tool_links == ((1, 2), (3, 4))


def test_vercel_model_messages():
    conversion = convert_text(fixture("vercel_model.json"))
    assert conversion.request["messages"] == [
        {"role": "system", "content": "You are a unit converter for a bakery."},
        {"role": "user", "content": "How many grams is 2 cups of flour?"},
        {
            "role": "assistant",
            "content": 'Converting.\n\n[tool call convert_units id=tc_1] {"amount": 2, "from": '
            '"cup", "to": "g", "ingredient": "flour"}',
        },
        {"role": "tool", "content": '{"grams": 250}', "id": "tc_1"},
        {"role": "assistant", "content": "2 cups of flour are about 250 g."},
    ]
    assert [c.kind for c in conversion.changes] == [
        "tool-call-as-text",
        "tool-result-as-message",
        "reasoning-removed",
        "budget-chosen",
    ]


def test_vercel_parts_without_a_type_are_problems():
    data = [{"role": "user", "parts": [{"text": "hi"}, "hello"]}, {"role": "assistant", "parts": 3}]
    with pytest.raises(FormatError) as caught:
        convert(data, "vercel")
    assert [(p.path, p.message) for p in caught.value.problems] == [
        ("[0].parts[0]", "the part has no type"),
        ("[0].parts[1]", "a part must be an object, not a string"),
        ("[1].parts", "parts must be a list, not a number"),
    ]


def test_sharegpt():
    conversion = convert_text(fixture("sharegpt.json"))
    source = json.loads(fixture("sharegpt.json"))
    turns = source["conversations"]
    assert conversion.request["messages"] == [
        {"role": "system", "content": source["system"]},
        {"role": "user", "content": turns[0]["value"]},
        {"role": "assistant", "content": turns[1]["value"]},
        {"role": "user", "content": turns[2]["value"]},
        {"role": "assistant", "content": turns[3]["value"]},
        {"role": "assistant", "content": '[tool call calculator] {"expression": "9/12 + 8/12"}'},
        {"role": "tool", "content": "17/12"},
        {"role": "assistant", "content": turns[6]["value"]},
    ]
    assert report(conversion) == [
        ("system-as-message", 0, "system", False),
        ("tool-call-as-text", 5, "conversations[4]", False),
        ("role-mapped", None, "conversations[0]", False),
        ("role-mapped", None, "conversations[1]", False),
        ("role-mapped", None, "conversations[4]", False),
        ("role-mapped", None, "conversations[5]", False),
        ("field-ignored", None, "id", False),
        ("field-ignored", None, "tools", False),
        ("field-ignored", None, "conversations[6].weight", False),
        ("budget-chosen", None, None, False),
    ]
    assert "2 messages with role 'human' read as user" in conversion.changes[2].message


def test_sharegpt_list_of_one_record_and_of_many():
    conversion = convert_text(fixture("sharegpt_records.json"))
    assert [m["role"] for m in conversion.request["messages"]] == ["user", "assistant"] * 2
    assert conversion.changes[0].source == "[0].conversations[0]"
    records = json.loads(fixture("sharegpt_records.json")) * 3
    with pytest.raises(FormatError, match="the file holds 3 ShareGPT records"):
        convert(records)


def test_sharegpt_problems():
    data = {
        "conversations": [
            {"from": "alien", "value": "x"},
            {"value": "y"},
            {"from": "gpt", "value": 1},
        ]
    }
    with pytest.raises(FormatError) as caught:
        convert(data)
    assert [p.path for p in caught.value.problems] == [
        "conversations[0].from",
        "conversations[1].from",
        "conversations[2].value",
    ]
    assert "'alien' is not a speaker this import knows" in caught.value.problems[0].message
