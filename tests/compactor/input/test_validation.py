"""Validation by the seed's own schema, with every violation named by path and reason."""

import json
import pickle

import pytest

from compactor import InvalidRequest, compact, validate
from compactor.contract import DEFAULTS, INPUT_SCHEMA, RANGES, REQUEST_EXAMPLE
from compactor.errors import format_path
from compactor.input._validation import errors_of as problems_of
from compactor.model import Message, Params, Request
from tests.paths import SEEDS

VALID = {
    "messages": [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}],
    "budget_chars": 100,
}


def dicts_of(request):
    """The problems of ``request`` as JSON, the form the service and the CLI report them in."""
    return [p.to_dict() for p in problems_of(request)]


def test_the_shipped_schema_is_the_seeds_own():
    seed = json.loads((SEEDS / "000_63ad049e3f5f4dfc.txt").read_text("utf-8"))
    assert seed["inputSchema"] == INPUT_SCHEMA
    assert seed["requestExample"] == REQUEST_EXAMPLE


def test_defaults_and_ranges_come_from_the_schema():
    assert dict(DEFAULTS) == {
        "keep_last_n": 5,
        "keep_roles": ["system"],
        "duplicate_threshold": 0.9,
        "max_message_chars": 400,
    }
    assert RANGES["budget_chars"] == (100, 400000)
    assert validate(VALID).params == Params(100, 5, ("system",), 0.9, 400)


def test_every_violation_is_reported_not_only_the_first():
    request = {
        "messages": [{"role": "bot", "content": ""}, {"content": "x", "pin": 1}],
        "budget_chars": True,
        "keep_roles": ["user", "nobody"],
        "colour": "red",
    }
    with pytest.raises(InvalidRequest) as caught:
        compact(request)
    assert [p.to_dict() for p in caught.value.problems] == [
        {"path": "budget_chars", "message": "must be an integer, not a boolean"},
        {
            "path": "colour",
            "message": "unknown field; allowed fields are messages, budget_chars, "
            "keep_last_n, keep_roles, duplicate_threshold, max_message_chars",
        },
        {
            "path": "keep_roles[1]",
            "message": 'must be one of "system", "user", "assistant", "tool", not "nobody"',
        },
        {"path": "messages[0].content", "message": "must not be empty"},
        {
            "path": "messages[0].role",
            "message": 'must be one of "system", "user", "assistant", "tool", not "bot"',
        },
        {"path": "messages[1].pin", "message": "must be a boolean, not an integer"},
        {"path": "messages[1].role", "message": "is required but missing"},
    ]
    assert str(caught.value).splitlines()[0] == "budget_chars: must be an integer, not a boolean"


def test_lengths_count_code_points():
    emoji = "👍🏽" * 4000  # 8,000 code points, 16,000 UTF-16 units
    request = {**VALID, "messages": [{"role": "user", "content": emoji}, VALID["messages"][1]]}
    assert validate(request).messages[0].content == emoji
    request["messages"][0]["content"] += "x"
    assert dicts_of(request) == [
        {
            "path": "messages[0].content",
            "message": "must be at most 8,000 characters long; it has 8,001",
        }
    ]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("budget_chars", 99, "must be at least 100; it is 99"),
        ("budget_chars", 400001, "must be at most 400,000; it is 400,001"),
        ("budget_chars", 250.5, "must be an integer, not a number"),
        ("keep_last_n", -1, "must be at least 0; it is -1"),
        ("duplicate_threshold", 1.01, "must be at most 1; it is 1.01"),
        ("duplicate_threshold", float("inf"), "must be at most 1; it is inf"),
        ("duplicate_threshold", float("nan"), "must be a finite number"),
        ("max_message_chars", None, "must be an integer, not null"),
        ("keep_roles", "system", "must be an array, not a string"),
    ],
)
def test_parameter_errors(field, value, message):
    assert {"path": field, "message": message} in dicts_of({**VALID, field: value})


def test_a_request_that_is_not_an_object():
    assert dicts_of([1, 2]) == [{"path": "$", "message": "must be an object, not an array"}]


def test_integral_numbers_are_integers():
    request = validate({**VALID, "budget_chars": 400.0, "keep_last_n": 2.0})
    assert request.params.budget_chars == 400 and isinstance(request.params.budget_chars, int)
    assert compact({**VALID, "budget_chars": 1e3})["budget"]["budget_chars"] == 1000


def test_paths_quote_keys_that_are_not_names():
    assert format_path(["messages", 3, "content"]) == "messages[3].content"
    assert format_path(["odd key"]) == '["odd key"]'
    assert format_path([]) == "$"
    assert dicts_of({**VALID, "a.b": 1})[0]["path"] == '["a.b"]'


def test_a_validated_request_equals_one_made_of_typed_messages_and_makes_them_when_read():
    given = {
        "messages": [
            {"role": "system", "content": "Be brief.", "pin": True},
            {"role": "user", "content": "Hi", "id": "u1"},
            {"role": "assistant", "content": "Hello", "pin": False},
        ],
        "budget_chars": 100,
    }
    request = validate(given)
    assert "messages" not in vars(request)  # the columns only, until the messages are read
    typed = (
        Message(0, "system", "Be brief.", None, True),
        Message(1, "user", "Hi", "u1", False),
        Message(2, "assistant", "Hello", None, False),
    )
    whole = Request(typed, request.params, request.limits)
    again = pickle.loads(pickle.dumps(validate(given)))
    assert request == whole and whole == again and hash(request) == hash(whole)
    assert repr(validate(given)) == repr(whole)
    assert request.messages == typed and vars(request)["messages"] is request.messages
    for name in ("contents", "roles", "ids", "pins"):
        assert getattr(request, name) == getattr(whole, name)
    with pytest.raises(AttributeError, match="no attribute 'message'"):
        request.message  # noqa: B018
    with pytest.raises(ValueError, match="differ in length"):
        Request.of_columns(("user",), (), (), (), request.params)
