"""compact() and trim_context() on any Python value: a JSON response, or InvalidRequest with paths.

Issue 11: the documented Python API raised ValueError, RecursionError, TypeError and
decimal.InvalidOperation on values no JSON parser makes, and returned responses that could not
be written as UTF-8. Whatever the value, the only outcomes now are a response that is JSON and
UTF-8, or InvalidRequest whose every problem has a path and a short message.
"""

import decimal
import fractions
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor import InvalidRequest, compact
from compactor.contract import ROLES
from compactor.errors import MAX_PROBLEMS
from compactor.strategies._context_trim import trim_context

huge_integers = st.integers(0, 6000).map(lambda digits: 10**digits)
surrogate_text = st.text(st.characters(codec=None, categories=None), max_size=6) | st.sampled_from(
    ["a\ud800", "\udfff", "ok \ud83d", "\ud83d\ude00"]
)
leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    huge_integers,
    st.floats(),
    surrogate_text,
    st.sampled_from([*ROLES, "x" * 9000]),
    st.binary(max_size=4),
    st.decimals(allow_nan=True),
    st.just(decimal.Decimal("NaN")),
    st.fractions(),
    st.complex_numbers(),
    st.just(object()),
    st.just(Ellipsis),
)
keys = st.one_of(surrogate_text, st.integers(), st.none(), st.tuples(st.integers()), st.floats())
python_values = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.sets(st.integers(), max_size=3),
        st.frozensets(st.text(max_size=2), max_size=2),
        st.dictionaries(keys, inner, max_size=3),
    ),
    max_leaves=10,
)


def deep(depth: int, leaf=0):
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


deep_values = st.integers(50, 5000).map(deep) | st.integers(50, 3000).map(
    lambda d: {"messages": [{"role": "user", "content": deep(d)}] * 2, "budget_chars": 100}
)
message = st.one_of(
    python_values,
    st.fixed_dictionaries(
        {"role": st.one_of(st.sampled_from(ROLES), python_values), "content": python_values},
        optional={"id": python_values, "pin": python_values, "parts": python_values},
    ),
    st.fixed_dictionaries({"role": st.sampled_from(ROLES), "content": surrogate_text}),
)
request = st.one_of(
    python_values,
    deep_values,
    st.fixed_dictionaries(
        {"messages": st.lists(message, min_size=0, max_size=4)},
        optional={
            "budget_chars": st.one_of(st.integers(100, 400_000), python_values),
            "keep_last_n": python_values,
            "keep_roles": st.one_of(st.lists(python_values, max_size=3), python_values),
            "duplicate_threshold": st.one_of(st.decimals(allow_nan=True), python_values),
            "max_message_chars": python_values,
            "keepLastMessages": python_values,
            "maxTokensEstimate": python_values,
            "dropToolParts": python_values,
        },
    ),
    st.dictionaries(keys, python_values, max_size=4),
)


def only_json_or_invalid_request(engine, value):
    try:
        out = engine(value)
    except InvalidRequest as error:
        assert error.problems
        for problem in error.problems:
            assert problem.path, problem  # every refusal says where ($ for the whole input)
            assert len(problem.message) < 400 and len(problem.path) < 1000
        assert len(error.problems) <= MAX_PROBLEMS + 1
        str(error).encode("utf-8")  # the report itself is Unicode text
        return None
    return json.dumps(out, ensure_ascii=False, allow_nan=False).encode("utf-8")


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(request)
def test_compact_on_any_python_value_answers_json_or_invalid_request(value):
    only_json_or_invalid_request(compact, value)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(request)
def test_trim_on_any_python_value_answers_json_or_invalid_request(value):
    only_json_or_invalid_request(trim_context, value)


VALID = [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}]


@pytest.mark.parametrize(
    ("value", "path", "message"),
    [
        ({"messages": VALID, "budget_chars": 10**5000}, "budget_chars", "must be at most 400,000"),
        ({"messages": VALID, "budget_chars": 100, "duplicate_threshold": decimal.Decimal("NaN")},
         "duplicate_threshold", "must be a number, not Decimal"),
        ({"messages": VALID, "budget_chars": 100, 7: 1}, "$", "has a key that is not a string (7)"),
        ({"messages": [{"role": {"user"}, "content": "a"}, VALID[1]], "budget_chars": 100},
         "messages[0].role", "must be a string, not set"),
        ({"messages": [{"role": b"user", "content": "a"}, VALID[1]], "budget_chars": 100},
         "messages[0].role", "must be a string, not bytes"),
        ({"messages": [{"role": "user", "content": "a\ud800"}, VALID[1]], "budget_chars": 100},
         "messages[0].content", "contains an unpaired surrogate (U+D800)"),
        ({"messages": VALID, "budget_chars": fractions.Fraction(400)},
         "budget_chars", "must be an integer, not Fraction"),
        ({"messages": deep(10_000), "budget_chars": 100}, "messages[0]", "must be an object"),
    ],
)  # fmt: skip
def test_values_json_does_not_have_are_refused_where_they_are(value, path, message):
    with pytest.raises(InvalidRequest) as caught:
        compact(value)
    assert any(p.path == path and p.message.startswith(message) for p in caught.value.problems), [
        str(p) for p in caught.value.problems
    ]


def test_trim_refuses_what_it_could_not_echo_with_its_path():
    messages = [
        {"role": "user", "content": deep(150)},
        {"role": "user", "content": "x", "n": 10**5000, "s": {1, 2}, "k": {3: 1}, "t": "\udc00"},
    ]
    with pytest.raises(InvalidRequest) as caught:
        trim_context({"messages": messages})
    assert [p.to_dict() for p in caught.value.problems] == [
        {
            "path": "messages[0].content" + "[0]" * 97,
            "message": "is nested more than 100 levels deep",
        },
        {
            "path": "messages[1].k",
            "message": "has a key that is not a string (3); JSON keys are strings",
        },
        {
            "path": "messages[1].n",
            "message": "has more than 4,300 digits; no field takes that many",
        },
        {"path": "messages[1].s", "message": "must be a JSON value, not set"},
        {
            "path": "messages[1].t",
            "message": "contains an unpaired surrogate (U+DC00), which is not Unicode text",
        },
    ]
