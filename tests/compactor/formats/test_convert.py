"""compactor.formats: detection, the request/messages/OpenAI adapters, JSONL and text input."""

import json

import pytest

from compactor import validate
from compactor.contract import PARAMETERS
from compactor.errors import FormatError, Problem, UnreadableJSON
from compactor.formats import FORMATS, Change, Conversion, convert, convert_text, detect_format
from tests.paths import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "formats"


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def report(conversion: Conversion) -> list[tuple]:
    """The changes without their prose: (kind, index, source, lossy)."""
    return [(c.kind, c.index, c.source, c.lossy) for c in conversion.changes]


def test_formats_are_named_in_picker_order():
    assert list(FORMATS) == [
        "request",
        "messages",
        "openai",
        "responses",
        "anthropic",
        "vercel",
        "langchain",
        "sharegpt",
        "jsonl",
        "claude-code",
        "codex",
        "records",
    ]
    assert all(f.label and "\n" not in f.label for f in FORMATS.values())


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("request.json", "request"),
        ("messages.json", "messages"),
        ("openai_chat.json", "openai"),
        ("anthropic_messages.json", "anthropic"),
        ("vercel_ui.json", "vercel"),
        ("vercel_model.json", "vercel"),
        ("sharegpt.json", "sharegpt"),
        ("sharegpt_records.json", "sharegpt"),
    ],
)
def test_each_fixture_is_detected_and_converts_to_a_valid_request(name, expected):
    data = json.loads(fixture(name))
    assert detect_format(data) == expected
    conversion = convert(data)
    assert conversion.format == expected and not conversion.needs_fixes
    validate(conversion.request)  # raises when invalid


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (42, "the document is a number"),
        ("hello", "the document is a string"),
        ([], "the list is empty"),
        ({"model": "gpt-4o", "input": "hi"}, "an object with no messages or conversations"),
        ({"role": "user", "content": "hi"}, "this is a single message"),
        ({"messages": "hi"}, "must be a list of messages, not a string"),
        ([{"speaker": "me", "text": "hi"}], "the message has no role (its fields: 'speaker'"),
        ([7, 8], "a message must be an object, not a number"),
    ],
)
def test_detection_says_why_nothing_matched(data, problem):
    with pytest.raises(FormatError) as caught:
        detect_format(data)
    assert problem in str(caught.value)
    assert all(isinstance(p, Problem) for p in caught.value.problems)


def test_a_request_keeps_its_parameters_pins_and_ids():
    conversion = convert_text(fixture("request.json"))
    original = json.loads(fixture("request.json"))
    expected = {**original, "messages": [dict(m) for m in original["messages"]]}
    del expected["messages"][3]["pin"]  # pin false is the default
    assert conversion == Conversion(
        "request",
        expected,
        (),
        (),
        sources=tuple(f"messages[{i}]" for i in range(len(expected["messages"]))),
        params_given=tuple(name for name in PARAMETERS if name in original),
    )


def test_a_bare_message_list_gets_a_budget_of_half_its_characters():
    conversion = convert_text(fixture("messages.json"))
    messages = json.loads(fixture("messages.json"))
    total = sum(len(m["content"]) for m in messages)
    assert conversion.request == {"messages": messages, "budget_chars": 100}
    assert total // 2 < 200  # so half of it, rounded down to hundreds, is the floor of 100
    assert report(conversion) == [("budget-chosen", None, None, False)]


def test_the_chosen_budget_is_half_in_whole_hundreds():
    messages = [
        {"role": "user", "content": "x" * 3000},
        {"role": "assistant", "content": "y" * 750},
    ]
    assert convert(messages).request["budget_chars"] == 1800  # 3750 / 2 = 1875


def test_openai_chat_completions():
    conversion = convert_text(fixture("openai_chat.json"))
    call_1 = (
        '[tool call check_availability id=call_avail_01] {"date": "2025-06-14", "from": "10:00", '
        '"to": "16:00", "type": "e-bike", "count": 2}'
    )
    call_2 = '[tool call estimate_range id=call_route_02] {"distance_km": 58, "elevation_m": 740}'
    call_3 = (
        '[tool call create_booking id=call_book_03] {"date": "2025-06-14", "riders": '
        '["Inês Moreira", "Tomás Faria"], "bikes": 2}'
    )
    source = json.loads(fixture("openai_chat.json"))["messages"]
    assert conversion.request["messages"] == [
        {"role": "system", "content": source[0]["content"]},
        {
            "role": "user",
            "content": source[1]["content"][0]["text"] + "\n\n" + source[1]["content"][2]["text"],
        },
        {"role": "assistant", "content": call_1 + "\n" + call_2},
        {"role": "tool", "content": source[3]["content"], "id": "call_avail_01"},
        {"role": "tool", "content": source[4]["content"], "id": "call_route_02"},
        {"role": "assistant", "content": source[5]["content"]},
        {"role": "user", "content": source[6]["content"]},
        {"role": "assistant", "content": call_3},
        {"role": "tool", "content": source[8]["content"][0]["text"], "id": "call_book_03"},
        {"role": "assistant", "content": source[9]["content"]},
        {"role": "user", "content": source[11]["content"]},
        {"role": "assistant", "content": source[12]["refusal"]},
    ]
    assert report(conversion) == [
        ("role-mapped", 0, "messages[0].role", False),
        ("image-removed", 1, "messages[1].content[1]", True),
        ("tool-call-as-text", 2, "messages[2].tool_calls[0]", False),
        ("tool-call-as-text", 2, "messages[2].tool_calls[1]", False),
        ("tool-call-as-text", 7, "messages[7].tool_calls[0]", False),
        ("audio-removed", None, "messages[10].content[0]", True),
        ("empty-removed", None, "messages[10]", False),
        ("refusal-as-text", 11, "messages[12].refusal", False),
        ("id-kept", None, None, False),
        ("field-ignored", None, "model", False),
        ("field-ignored", None, "temperature", False),
        ("field-ignored", None, "messages[3].name", False),
        ("budget-chosen", None, None, False),
    ]
    assert conversion.tool_links == ((2, 3), (2, 4), (7, 8))
    assert conversion.lossy and not conversion.needs_fixes
    assert "'developer' read as system" in conversion.changes[0].message
    assert "3 places" in conversion.changes[11].message


def test_tool_call_arguments_that_are_not_json_are_kept_as_they_are():
    messages = [
        {"role": "user", "content": "run it"},
        {
            "role": "assistant",
            "content": "Running.",
            "tool_calls": [
                {"id": "c1", "function": {"name": "shell", "arguments": "ls -la /tmp"}},
                {"function": {"name": "noop", "arguments": ""}},
            ],
        },
    ]
    content = convert(messages).request["messages"][1]["content"]
    assert content == "Running.\n\n[tool call shell id=c1] ls -la /tmp\n[tool call noop]"


def test_a_legacy_function_message_becomes_a_tool_message():
    messages = [
        {"role": "user", "content": "Temperature in Oslo?"},
        {
            "role": "assistant",
            "content": None,
            "function_call": {"name": "temp", "arguments": "{}"},
        },
        {"role": "function", "name": "temp", "content": "-3 °C"},
    ]
    conversion = convert(messages)
    assert conversion.request["messages"][1:] == [
        {"role": "assistant", "content": "[tool call temp] {}"},
        {"role": "tool", "content": "-3 °C"},
    ]
    assert [c.kind for c in conversion.changes] == [
        "tool-call-as-text",
        "role-mapped",
        "field-ignored",
        "budget-chosen",
    ]
    assert conversion.tool_links == ()  # no ids link them


def test_an_id_that_is_too_long_is_left_out_and_said():
    messages = [
        {"role": "user", "content": "hello", "id": "u" * 129},
        {"role": "assistant", "content": "hi", "id": 17},
    ]
    conversion = convert(messages)
    assert conversion.request["messages"] == [
        {"role": "user", "content": "hello"},
        {"role": "assistant", "content": "hi", "id": "17"},
    ]
    too_long, converted = conversion.changes[:2]
    assert (too_long.kind, too_long.index, too_long.lossy) == ("id-too-long", 0, True)
    assert "129 characters" in too_long.message
    assert (converted.kind, converted.index) == ("id-converted", 1)


def test_every_problem_is_named_with_its_path():
    with pytest.raises(FormatError) as caught:
        convert_text(fixture("nulls.json"))
    assert list(caught.value.problems) == [
        Problem(
            "the message has no role; expected one of system, user, assistant, tool",
            path="messages[0].role",
        ),
        Problem("a message must be an object, not null", path="messages[2]"),
        Problem("must be an integer, not null", path="budget_chars"),
    ]


@pytest.mark.parametrize(
    ("name", "problems"),
    [
        (
            "broken_nesting.json",
            [
                ("messages[0]", "a message must be an object, not a list"),
                (
                    "messages[1].content",
                    "content must be text, a list of parts or null, not an object",
                ),
            ],
        ),
        (
            "missing_roles.json",
            [
                (
                    "[0].role",
                    "the message has no role; expected one of system, user, assistant, tool",
                ),
                (
                    "[2].role",
                    "the message has no role; expected one of system, user, assistant, tool",
                ),
            ],
        ),
    ],
)
def test_broken_structures(name, problems):
    with pytest.raises(FormatError) as caught:
        convert_text(fixture(name))
    assert [(p.path, p.message) for p in caught.value.problems] == problems


def test_unknown_roles_and_bad_pins_are_problems():
    messages = [
        {"role": "narrator", "content": "Once upon a time"},
        {"role": "user", "content": "go on", "pin": "yes"},
    ]
    with pytest.raises(FormatError) as caught:
        convert(messages)
    assert [p.path for p in caught.value.problems] == ["[0].role", "[1].pin"]
    assert "'narrator' is not a role" in caught.value.problems[0].message


def test_a_conversation_left_with_one_message_is_refused():
    with pytest.raises(FormatError, match="has 1 message with text after conversion"):
        convert([{"role": "user", "content": "hi"}, {"role": "assistant", "content": None}])


def test_invalid_parameters_are_refused_with_their_path():
    request = {"messages": json.loads(fixture("messages.json")), "budget_chars": 50}
    with pytest.raises(FormatError) as caught:
        convert(request)
    assert list(caught.value.problems) == [
        Problem("must be at least 100; it is 50", path="budget_chars")
    ]


def test_a_forced_format_that_does_not_fit_says_why():
    with pytest.raises(FormatError, match="messages: the list of messages is missing"):
        convert_text(fixture("sharegpt.json"), "openai")
    with pytest.raises(FormatError, match="unknown format 'yaml'"):
        convert([], "yaml")


# --- text input --------------------------------------------------------------------------------


def test_a_byte_order_mark_is_accepted():
    conversion = convert_text(fixture("bom.json"))
    assert conversion.request["messages"][0]["content"] == "Grüß dich! Wie spät ist es in Zürich?"
    text = fixture("bom.json").decode("utf-8")  # keeps the BOM as U+FEFF
    assert text.startswith("\ufeff") and convert_text(text) == conversion


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("empty.json", "line 1, column 1: the input is empty; expected a JSON document"),
        (
            "binary.png",
            "line 3, column 1: this is a binary file (it contains NUL bytes), not JSON text; "
            "a UTF-16 file looks like this too: save it as UTF-8",
        ),
        ("latin1.json", "line 1, column 37: not UTF-8 text (byte 0xe9); save the file as UTF-8"),
        ("truncated.json", "line 4, column 38: Unterminated string starting at"),
        ("bad_line.jsonl", "line 3, column 29: Unterminated string starting at"),
    ],
)
def test_unreadable_input_says_where(name, problem):
    with pytest.raises(UnreadableJSON) as caught:
        convert_text(fixture(name))
    assert [str(p) for p in caught.value.problems] == [problem]


def test_jsonl_is_read_one_message_per_line():
    conversion = convert_text(fixture("chat.jsonl"))
    lines = [json.loads(line) for line in fixture("chat.jsonl").decode().splitlines() if line]
    assert conversion.format == "jsonl"
    assert conversion.request["messages"] == [
        lines[0],
        lines[1],
        {
            "role": "assistant",
            "content": "[tool call recent_deploys id=call_dep] "
            '{"service": "charge-api", "hours": 6}',
        },
        {"role": "tool", "content": lines[3]["content"], "id": "call_dep"},
        lines[4],
    ]
    # the blank third line counts: changes name the line of the file
    assert report(conversion) == [
        ("tool-call-as-text", 2, "line 4, tool_calls[0]", False),
        ("id-kept", None, None, False),
        ("budget-chosen", None, None, False),
    ]
    assert conversion.tool_links == ((2, 3),)
    assert convert_text(fixture("chat.jsonl"), "jsonl") == conversion


def test_jsonl_problems_name_the_line_of_the_file():
    text = '{"role": "user", "content": "a"}\n\n{"role": "narrator", "content": "b"}\n[1]\n'
    with pytest.raises(FormatError) as caught:
        convert_text(text, "jsonl")
    assert [p.path for p in caught.value.problems] == ["line 3, role", "line 4"]


def test_every_bad_jsonl_line_is_reported():
    text = "\n".join(['{"role": "user", "content": "a"}', "{oops", "nope", "{}"])
    with pytest.raises(UnreadableJSON) as caught:
        convert_text(text, "jsonl")
    assert [(p.line, p.column) for p in caught.value.problems] == [(2, 2), (3, 1)]


def test_jsonl_of_anthropic_and_sharegpt_messages():
    anthropic = [
        {"role": "user", "content": [{"type": "text", "text": "Ping the build bot"}]},
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "t1", "name": "ping", "input": {}}],
        },
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "pong"}],
        },
    ]
    conversion = convert_text("\n".join(json.dumps(m) for m in anthropic))
    assert conversion.request["messages"] == [
        {"role": "user", "content": "Ping the build bot"},
        {"role": "assistant", "content": "[tool call ping id=t1] {}"},
        {"role": "tool", "content": "pong", "id": "t1"},
    ]
    sharegpt = [{"from": "human", "value": "Hi"}, {"from": "gpt", "value": "Hello!"}]
    conversion = convert_text("\n".join(json.dumps(m) for m in sharegpt))
    assert conversion.request["messages"] == [
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": "Hello!"},
    ]
    assert conversion.changes[0].source == "line 1"


def test_changes_and_conversions_are_frozen():
    change = Change("empty-removed", "gone", None, "messages[1]", False)
    with pytest.raises(AttributeError):
        change.kind = "other"  # type: ignore[misc]
