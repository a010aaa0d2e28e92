"""The drop score on its own: the contract's formula, its rounding, and the drop order."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from compactor import contract
from compactor.engine._score import COMPONENTS, Score, drop_order, recency, value, value_at


def test_recency_runs_from_the_first_message_to_the_last():
    assert [recency(i, 5) for i in range(5)] == [0.0, 0.25, 0.5, 0.75, 1.0]


def test_the_score_is_the_weighted_sum_rounded_to_the_contracts_decimals():
    assert value(0.5, 0.7, 1.0) == 0.66
    assert value(1 / 3, 1.0, 1 / 7) == round(0.5 / 3 + 0.3 + 0.2 / 7, contract.SCORE_DECIMALS)


def test_a_scores_parts_are_its_components_weighted_and_add_up_to_it():
    s = Score.of(1, 3, "assistant", 1.0)
    assert s == Score(recency=0.5, role_weight=0.7, topic_overlap=1.0, value=0.66)
    assert list(s.parts) == list(COMPONENTS) == list(contract.WEIGHTS)
    assert s.parts == pytest.approx({"recency": 0.25, "role": 0.21, "topic_overlap": 0.2})


def test_drop_order_takes_the_lowest_score_first_and_the_lower_index_on_a_tie():
    assert drop_order({4: 0.3, 1: 0.5, 2: 0.3, 0: 0.9}) == (2, 4, 1, 0)
    assert drop_order({}) == ()


@given(
    st.integers(2, 400).flatmap(lambda n: st.tuples(st.integers(0, n - 1), st.just(n))),
    st.sampled_from(sorted(contract.ROLE_WEIGHTS.values())),
    st.floats(0, 1),
)
def test_the_replays_one_call_score_is_the_score(at, role_weight, overlap):
    index, n = at
    assert value_at(index, n, role_weight, overlap) == value(
        recency(index, n), role_weight, overlap
    )
