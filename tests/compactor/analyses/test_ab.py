"""A/B of two parameter sets, checked against the contract response of each side."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor import InvalidRequest, Params, compact, run, validate
from compactor.analyses._ab import ABComparison, FatePair, Side, compare_params, compare_results
from compactor.samples import load_sample
from tests.generate import requests


def dispatcher():
    return validate(load_sample("dispatcher").request)


def test_a_lower_budget_drops_the_assistant_answer():
    request = dispatcher()
    a = request.params
    b = replace(a, budget_chars=300)
    comparison = compare_params(request, a, b)
    # At 300 characters drop removes message 2 (107 characters): 371 - 107 = 264.
    assert comparison == ABComparison(
        a=Side(a, 466, 371, 5, 1, 0, 0, True),
        b=Side(b, 466, 264, 4, 2, 0, 0, True),
        messages=(
            FatePair(0, "system", 73, "protected", "protected", 73, 73, False, False),
            FatePair(1, "user", 95, "verbatim", "verbatim", 95, 95, False, False),
            FatePair(2, "assistant", 107, "verbatim", "dropped", 107, 0, True, True),
            FatePair(3, "user", 95, "duplicate", "duplicate", 0, 0, False, False),
            FatePair(4, "assistant", 59, "protected", "protected", 59, 59, False, False),
            FatePair(5, "user", 37, "protected", "protected", 37, 37, False, False),
        ),
    )
    assert comparison.differing == (2,)
    assert comparison.changed_params == ("budget_chars",)


def test_trimmed_under_both_at_other_lengths_differs_without_a_change_of_fate():
    request = dispatcher()
    a = replace(request.params, max_message_chars=80)
    b = replace(request.params, max_message_chars=90)
    comparison = compare_params(request, a, b)
    row = comparison.messages[1]  # 95 characters, one early sentence end: hard cuts at 80 and 90
    assert (row.fate_a, row.fate_b, row.fate_differs, row.differs) == (
        "trimmed",
        "trimmed",
        False,
        True,
    )
    assert (row.chars_a, row.chars_b, row.original_chars) == (80, 90, 95)


def test_params_outside_the_schema_are_rejected_with_their_name():
    request = dispatcher()
    with pytest.raises(InvalidRequest) as raised:
        compare_params(request, request.params, replace(request.params, budget_chars=50))
    assert [p.to_dict() for p in raised.value.problems] == [
        {"path": "budget_chars", "message": "must be at least 100; it is 50"}
    ]


def test_results_of_different_histories_cannot_be_compared():
    a = run(dispatcher())
    other = [{"role": "user", "content": "x"}, {"role": "user", "content": "y"}]
    b = run(validate(load_sample("dispatcher").request | {"messages": other}))
    with pytest.raises(ValueError, match="same history"):
        compare_results(a, b)


params = st.builds(
    Params,
    budget_chars=st.integers(100, 3000),
    keep_last_n=st.integers(0, 12),
    keep_roles=st.lists(st.sampled_from(["system", "user", "assistant", "tool"]), max_size=4).map(
        tuple
    ),
    duplicate_threshold=st.floats(0.5, 1.0),
    max_message_chars=st.integers(80, 300),
)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(requests(), params)
def test_each_side_agrees_with_the_contract_response(request, b):
    typed = validate(request)
    comparison = compare_params(typed, typed.params, b)
    for side, side_params in ((comparison.a, typed.params), (comparison.b, b)):
        response = compact({**request, **side_params.to_dict()})
        loss = response["loss"]
        assert side.params == side_params
        assert (
            side.input_chars,
            side.output_chars,
            side.output_messages,
            side.removed_messages,
            side.trimmed_messages,
            side.truncated_chars,
            side.budget_met,
        ) == (
            loss["input_chars"],
            loss["output_chars"],
            loss["output_messages"],
            loss["dropped_messages"],
            loss["trimmed_messages"],
            loss["truncated_chars"],
            response["budget"]["budget_met"],
        )
    result_b = run(replace(typed, params=b))
    for row, trace in zip(comparison.messages, result_b.messages, strict=True):
        assert (row.fate_b, row.chars_b) == (trace.fate, trace.chars)
    assert set(comparison.differing) >= {m.index for m in comparison.messages if m.fate_differs}
