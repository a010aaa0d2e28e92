"""Odd messages through ``shrink``: each is the project's FormatError with the position it is
at, never a bare TypeError, langchain-core's ValueError or pydantic's ValidationError, and never
a message dropped without a word (issue 34, items 4 and 5)."""

import pytest

from compactor import FormatError, shrink

langchain = pytest.importorskip("langchain_core.messages")

SETTING = {"budget_chars": 100}
LONG = "Where is parcel DE-4471? " * 10
ITEMS = [
    {"type": "message", "role": "user", "content": LONG},
    {"type": "message", "role": "assistant", "content": "It left Hamburg on Monday."},
]
SERIALISED = [
    {"type": "human", "data": {"content": LONG}},
    {"type": "ai", "data": {"content": "It left Hamburg on Monday."}},
]


def problems(messages, format=None):
    with pytest.raises(FormatError) as raised:
        shrink(messages, SETTING, format=format)
    return [str(p) for p in raised.value.problems]


@pytest.mark.parametrize("kind", [{"x": 1}, ["message"], None])
@pytest.mark.parametrize("position", [0, 1, 2])
@pytest.mark.parametrize("format", [None, "responses"])
def test_a_responses_item_whose_type_is_not_a_text_is_named(kind, position, format):
    # a message item with an object type was skipped as "content the model produced"
    items = [*ITEMS]
    items.insert(position, {"type": kind, "role": "user", "content": "Also Oslo."})
    found = problems(items, format)
    assert found == [
        f"[{position}].type: an item's type is a text (message, function_call, ...), not "
        + {dict: "an object", list: "a list"}.get(type(kind), "null")
    ]


@pytest.mark.parametrize("kind", [{"x": 1}, ["human"]])
def test_a_serialised_langchain_message_whose_type_is_not_a_text_is_named(kind):
    found = problems([*SERIALISED, {"type": kind, "data": {"content": "Also Oslo."}}], "langchain")
    assert len(found) == 1 and found[0].startswith("[2].type: ")
    assert "is not a LangChain message type" in found[0]


@pytest.mark.parametrize("position", [0, 2])
def test_a_remove_message_is_named_at_its_position(position):
    messages = [langchain.HumanMessage(LONG), langchain.AIMessage("It left Hamburg.")]
    messages.insert(position, langchain.RemoveMessage(id="m-1"))
    found = problems(messages)
    assert len(found) == 1 and found[0].startswith(f"[{position}].type: 'remove' is not")


def test_a_serialised_message_of_an_unknown_type_is_named():
    found = problems([*SERIALISED, {"type": "remove", "data": {"content": "", "id": "m"}}])
    assert found[0].startswith("[2].type: 'remove' is not a LangChain message type")


@pytest.mark.parametrize(
    ("kind", "data"),
    [
        ("ai", {"additional_kwargs": 5}),
        ("ai", {"response_metadata": "x"}),
        ("ai", {"usage_metadata": [1]}),
        ("ai", {"invalid_tool_calls": "x"}),
        ("AIMessageChunk", {"tool_call_chunks": "bad"}),
        ("human", {"name": 5}),
        ("system", {"response_metadata": 1}),
        ("tool", {"tool_call_id": "c1", "status": "odd"}),
        ("function", {"name": None}),
        ("chat", {"role": "user", "additional_kwargs": [1]}),
    ],
)
def test_serialised_data_langchain_cannot_read_back_is_named_at_its_position(kind, data):
    # the import leaves these fields out, and the export once gave them to
    # messages_from_dict, which raised its own error
    message = {"type": kind, "data": {"content": "It left Hamburg on Monday.", **data}}
    found = problems([SERIALISED[0], message])
    assert len(found) == 1 and found[0].startswith("[1]: LangChain cannot read the message: ")


@pytest.mark.parametrize("odd", [object(), 5, "text", None, ["a"]])
def test_a_value_among_message_objects_that_is_not_one_is_named(odd):
    messages = [langchain.HumanMessage(LONG), langchain.AIMessage("It left Hamburg."), odd]
    found = problems(messages)
    assert len(found) == 1 and found[0].startswith("[2]: a LangChain message is an object")


def _nested(levels):
    value = 1
    for _ in range(levels):
        value = {"a": value}
    return value


#: Python values no JSON holds, as tool arguments (issue 34, item 6): each was a RecursionError,
#: the json encoder's ValueError or TypeError, or (NaN) arguments written as '{"x": NaN}'.
NOT_JSON = {
    "deep": (_nested(5_000), "is nested more than 100 levels deep"),
    "long-int": (10**5_000, "has more than 4,300 digits"),
    "tuple-key": ({(1, 2): 3}, "has a key that is not a string"),
    "nan": (float("nan"), "must be a finite number"),
    "infinity": (float("-inf"), "must be a finite number"),
    "set": ({1}, "must be a JSON value, not set"),
}


def _with_arguments(format, arguments):
    """A call with ``arguments`` and its result, in ``format``; the arguments' path."""
    if format == "openai":
        call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": arguments}}
        return [
            {"role": "user", "content": LONG},
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "c1", "content": "ok"},
        ], "[1].tool_calls[0].function.arguments"
    if format == "anthropic":
        return [
            {"role": "user", "content": LONG},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "c1", "name": "f", "input": arguments}],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "c1", "content": "ok"}],
            },
        ], "[1].content[0].input"
    if format == "responses":
        return [
            {"role": "user", "content": LONG},
            {"type": "function_call", "call_id": "c1", "name": "f", "arguments": arguments},
            {"type": "function_call_output", "call_id": "c1", "output": "ok"},
        ], "[1].arguments"
    return [
        langchain.HumanMessage(LONG),
        langchain.AIMessage("", tool_calls=[{"id": "c1", "name": "f", "args": arguments}]),
        langchain.ToolMessage("ok", tool_call_id="c1"),
    ], "[1].data.tool_calls[0].function.arguments"


@pytest.mark.parametrize("format", ["openai", "anthropic", "responses", "langchain"])
@pytest.mark.parametrize("case", sorted(NOT_JSON))
def test_tool_arguments_json_cannot_hold_are_named_at_their_path(format, case):
    value, says = NOT_JSON[case]
    messages, path = _with_arguments(format, {"x": value})
    found = problems(messages)
    assert len(found) == 1 and found[0].startswith(f"{path}.x"), found
    assert says in found[0]


def test_arguments_given_as_text_that_is_not_strict_json_are_kept_as_written():
    # '{"x": NaN}' is not JSON: it is neither parsed nor written again as if it were
    messages, _ = _with_arguments("openai", '{"x": NaN}')
    shrunk = shrink(messages, {"budget_chars": 5000})
    assert shrunk[1]["tool_calls"][0]["function"]["arguments"] == '{"x": NaN}'
    messages, _ = _with_arguments("openai", '{"x": 1.5}')
    assert shrink(messages, {"budget_chars": 5000}) == messages
