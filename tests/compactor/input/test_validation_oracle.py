"""The check by hand finds exactly what jsonschema finds, and counts exactly what it would list.

The oracle is jsonschema (Draft 2020-12) on the same schema, each of its errors explained in
words as the validator used to (one reason per keyword). Values inside the words go through the
same bounded formatting (`describe`, `number_text`): what is compared is which keyword fails at
which path, on any JSON value.
"""

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from compactor.contract import INPUT_SCHEMA, ROLES
from compactor.errors import describe, format_path, number_text
from compactor.input._validation import (
    COMPACT_SCHEMA,
    Report,
    check,
    count,
    errors_of,
    schema_problems,
)
from compactor.strategies._context_trim import _SCHEMA, TRIM_REQUEST_SCHEMA, trim_problems

_NAMES = {
    bool: "a boolean",
    int: "an integer",
    float: "a number",
    str: "a string",
    list: "an array",
    dict: "an object",
    type(None): "null",
}
_ARTICLE = {"object": "an object", "array": "an array", "integer": "an integer", "null": "null"}


def _wanted(limit):
    names = [limit] if isinstance(limit, str) else limit
    named = [_ARTICLE.get(n, f"a {n}") for n in names]
    return named[0] if len(named) == 1 else f"{', '.join(named[:-1])} or {named[-1]}"


def explain(error):
    """The (path, reason) pairs of one jsonschema error, in the validator's words."""
    path = list(error.absolute_path)
    value, keyword, limit = error.instance, error.validator, error.validator_value
    if keyword == "required":
        return [(path + [name], "is required but missing") for name in limit if name not in value]
    if keyword == "additionalProperties":
        allowed = list(error.schema.get("properties", {}))
        hint = f"unknown field; allowed fields are {', '.join(allowed)}"
        return [(path + [name], hint) for name in value if name not in allowed]
    if keyword == "type":
        return [(path, f"must be {_wanted(limit)}, not {_NAMES[type(value)]}")]
    if keyword == "enum":
        options = ", ".join(json.dumps(v) for v in limit)
        return [(path, f"must be one of {options}, not {describe(value)}")]
    if keyword == "minLength":
        if limit == 1:
            return [(path, "must not be empty")]
        return [(path, f"must be at least {limit:,} characters long; it has {len(value):,}")]
    if keyword == "maxLength":
        return [(path, f"must be at most {limit:,} characters long; it has {len(value):,}")]
    if keyword == "minItems":
        return [(path, f"must have at least {limit:,} items; it has {len(value):,}")]
    if keyword == "maxItems":
        return [(path, f"must have at most {limit:,} items; it has {len(value):,}")]
    if keyword == "minimum":
        return [(path, f"must be at least {limit:,}; it is {number_text(value)}")]
    if keyword == "maximum":
        return [(path, f"must be at most {limit:,}; it is {number_text(value)}")]
    raise AssertionError(f"the schema has a keyword the oracle does not explain: {keyword}")


def oracle(validator, instance):
    pairs = {(format_path(p), m) for e in validator.iter_errors(instance) for p, m in explain(e)}
    return sorted(pairs)


def by_hand(schema, instance):
    report = Report(limit=10**9)
    check(schema, instance, report)
    return sorted({(format_path(p), m) for p, m in report.found})


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
    st.sampled_from([*ROLES, "bot", "", "x" * 8001, "y" * 129]),
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)
maybe = st.one_of(json_values, scalars)
message = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {},
        optional={
            "role": st.one_of(st.sampled_from(ROLES), maybe),
            "content": st.one_of(st.text(min_size=1, max_size=20), maybe),
            "id": st.one_of(st.text(max_size=5), maybe),
            "pin": maybe,
            "extra": maybe,
        },
    ),
)
request = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {},
        optional={
            "messages": st.one_of(st.lists(message, max_size=5), maybe),
            "budget_chars": st.one_of(st.integers(0, 500_000), st.floats(0, 500_000), maybe),
            "keep_last_n": st.one_of(st.integers(-3, 60), maybe),
            "keep_roles": st.one_of(st.lists(st.sampled_from([*ROLES, "boss"]), max_size=6), maybe),
            "duplicate_threshold": st.one_of(st.floats(0, 2), maybe),
            "max_message_chars": st.one_of(st.integers(0, 5000), maybe),
            "colour": maybe,
            "odd key": maybe,
        },
    ),
)


def mostly(valid):
    """``valid`` three times in four, else any JSON value."""
    return st.one_of(valid, valid, valid, maybe)


near_message = st.fixed_dictionaries(
    {
        "role": mostly(st.sampled_from(ROLES)),
        "content": mostly(st.text(min_size=1, max_size=12)),
    },
    optional={
        "id": mostly(st.text(max_size=5)),
        "pin": mostly(st.booleans()),
        "extra": maybe,
    },
)
near_valid = st.fixed_dictionaries(
    {
        "messages": mostly(st.lists(mostly(near_message), min_size=2, max_size=6)),
        "budget_chars": mostly(st.integers(100, 400_000)),
    },
    optional={
        "keep_last_n": mostly(st.integers(0, 50)),
        "keep_roles": mostly(st.lists(st.sampled_from(ROLES), max_size=4)),
        "duplicate_threshold": mostly(st.floats(0.5, 1)),
        "max_message_chars": mostly(st.integers(80, 4000)),
    },
)
COMPACT_ORACLE = Draft202012Validator(INPUT_SCHEMA)
_ITEMS = TRIM_REQUEST_SCHEMA["properties"]["messages"]["items"]
TRIM_ORACLE = Draft202012Validator(
    {
        **TRIM_REQUEST_SCHEMA,
        "properties": {
            **TRIM_REQUEST_SCHEMA["properties"],
            "messages": {
                **TRIM_REQUEST_SCHEMA["properties"]["messages"],
                "items": {k: v for k, v in _ITEMS.items() if k != "anyOf"},
            },
        },
    }
)
trim_message = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {},
        optional={
            "role": st.one_of(st.sampled_from(["user", ""]), maybe),
            "content": maybe,
            "parts": st.one_of(st.lists(json_values, max_size=3), maybe),
            "tool_calls": maybe,
        },
    ),
)
trim_request = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {},
        optional={
            "messages": st.one_of(st.lists(trim_message, max_size=4), maybe),
            "keepLastMessages": st.one_of(st.integers(-2, 5), maybe),
            "dropToolParts": maybe,
            "maxTokensEstimate": st.one_of(st.integers(-1, 5), maybe),
            "extra": maybe,
        },
    ),
)


@settings(max_examples=600, deadline=None)
@given(st.one_of(request, near_valid))
def test_the_check_by_hand_finds_what_jsonschema_finds(value):
    assert by_hand(COMPACT_SCHEMA, value) == oracle(COMPACT_ORACLE, value)


@settings(max_examples=300, deadline=None)
@given(trim_request)
def test_the_trim_check_finds_what_jsonschema_finds(value):
    assert by_hand(_SCHEMA, value) == oracle(TRIM_ORACLE, value)


def test_the_oracle_sees_every_kind_of_problem():
    """The generated requests are not all valid nor all broken in one way: the oracle meets each
    keyword of the schema on a fixed sample."""
    value = {
        "messages": [{"role": "bot", "content": "", "pin": 1, "x": 1}, {"id": "y" * 129}],
        "budget_chars": 99.5,
        "keep_last_n": 51,
        "keep_roles": ["a"] * 5,
        "colour": 1,
    }
    keywords = {e.validator for e in COMPACT_ORACLE.iter_errors(value)}
    for other in ({"messages": [1] * 201}, {"messages": []}):
        keywords |= {e.validator for e in COMPACT_ORACLE.iter_errors(other)}
    assert keywords >= {"required", "additionalProperties", "type", "enum", "minLength"}
    assert keywords >= {"maxLength", "maxItems", "maximum", "minItems"}
    assert by_hand(COMPACT_SCHEMA, value) == oracle(COMPACT_ORACLE, value)


@settings(max_examples=400, deadline=None)
@given(st.one_of(request, near_valid), st.integers(0, 12))
def test_what_is_counted_is_what_would_be_listed(value, limit):
    everything = Report(limit=10**9)
    check(COMPACT_SCHEMA, value, everything)
    assert count(COMPACT_SCHEMA, [value]) == len(everything.found)
    capped = Report(limit=limit)
    check(COMPACT_SCHEMA, value, capped)
    assert capped.found == everything.found[:limit]
    assert len(capped.found) + capped.more == len(everything.found)


@settings(max_examples=200, deadline=None)
@given(st.lists(message, max_size=30), st.lists(maybe, max_size=30))
def test_bulk_counts_of_many_items_are_exact(messages, roles):
    value = {"messages": messages * 7, "budget_chars": 100, "keep_roles": roles * 5}
    everything = Report(limit=10**9)
    check(COMPACT_SCHEMA, value, everything)
    assert count(COMPACT_SCHEMA, [value]) == len(everything.found)


def test_problems_come_in_path_order():
    value = {"zeta": 1, "messages": [{"role": 1}, 5, {"content": ""}], "alpha": 2}
    report = Report(limit=10**9)
    check(COMPACT_SCHEMA, value, report)
    assert [format_path(p) for p, _ in report.found] == [
        "alpha",
        "budget_chars",
        "messages[0].content",
        "messages[0].role",
        "messages[0].role",
        "messages[1]",
        "messages[2].content",
        "messages[2].role",
        "zeta",
    ]
    assert [p.path for p in errors_of(value)] == [format_path(p) for p, _ in report.found]


def test_trim_problems_sort_and_count_every_source():
    value = {"messages": [{"role": "user", "x": float("nan")}] * 150}
    problems = trim_problems(value)
    assert len(problems) == 101
    assert problems[0].to_dict() == {
        "path": "messages[0]",
        "message": "needs content or parts; it has neither",
    }
    assert problems[1].to_dict() == {"path": "messages[0].x", "message": "must be a finite number"}
    assert problems[-1].to_dict() == {
        "path": "$",
        "message": "and 200 more problems not listed (at most 100 are); fix these first",
    }


@settings(max_examples=300, deadline=None)
@given(st.one_of(request, near_valid), st.integers(1, 8))
def test_a_capped_list_shows_the_first_problems_and_counts_the_rest_exactly(value, limit):
    everything = Report(limit=10**9)
    check(COMPACT_SCHEMA, value, everything)
    listed = schema_problems(COMPACT_SCHEMA, value, limit)
    first = [(format_path(p), m) for p, m in everything.found[:limit]]
    assert [(p.path, p.message) for p in listed[:limit]] == first
    more = len(everything.found) - limit
    if more > 0:
        assert len(listed) == limit + 1 and listed[-1].path == "$"
        noun = "problem" if more == 1 else "problems"
        assert listed[-1].message.startswith(f"and {more:,} more {noun} not listed")
    else:
        assert len(listed) == len(everything.found)
