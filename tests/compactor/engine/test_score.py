"""The drop score on its own: the contract's formula, its rounding, and the drop order."""

import math
import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from compactor import contract
from compactor.engine._score import (
    COMPONENTS,
    Score,
    Scores,
    drop_order,
    drop_order_at,
    recency,
    rounded,
    value,
    value_at,
    values_at,
)


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


def test_drop_order_in_index_order_or_not_gives_the_same_order():
    # keys in index order or not: the same order (ties by index, signed zeros equal)
    values = {0: 0.5, 1: 0.2, 3: 0.5, 4: -0.0, 6: 0.0, 7: 0.2}
    shuffled = dict(reversed(values.items()))
    assert drop_order(values) == drop_order(shuffled) == (4, 6, 1, 7, 0, 3)


@given(
    st.lists(
        st.sampled_from([0.0, -0.0, 0.15005, 0.2, 0.5, 0.677409, 1.0, math.nan]) | st.floats(),
        max_size=60,
    ),
    st.randoms(use_true_random=False),
)
def test_the_drop_stages_order_at_its_ascending_indices_is_drop_order(values, rng):
    # ties, signed zeros, NaN and any float: where each index of the order stands, too
    indices = sorted(rng.sample(range(10 * len(values) + 1), len(values)))
    order, positions = drop_order_at(indices, values)
    assert order == drop_order(dict(zip(indices, values, strict=True)))
    assert [indices[k] for k in positions] == list(order)


@given(
    st.integers(2, 30_000).flatmap(
        lambda n: st.tuples(st.lists(st.integers(0, n - 1), max_size=40, unique=True), st.just(n))
    ),
    st.data(),
)
def test_the_drop_stages_scores_in_one_pass_are_each_messages_score(at, data):
    indices, n = sorted(at[0]), at[1]
    weights = [data.draw(st.sampled_from(sorted(contract.ROLE_WEIGHTS.values()))) for _ in indices]
    overlaps = [data.draw(st.floats(0, 1)) for _ in indices]
    found = values_at(indices, n, weights, overlaps)
    assert list(map(repr, found)) == [
        repr(value_at(i, n, w, o)) for i, w, o in zip(indices, weights, overlaps, strict=True)
    ]


def test_rounding_in_bulk_is_pythons_round_on_every_value_near_a_half():
    # every float within 3 steps of k + 0.5 millionths (where a product could round across the
    # half), ordinary values, signed zeros, large and not finite ones: byte for byte
    rng = random.Random(35)
    near = [(rng.randrange(2_000_000) + 0.5) / 1e6 for _ in range(3_000)]
    values = [y for x in near for y in _steps(x, 3)]
    values += [rng.uniform(-3, 3) for _ in range(3_000)]
    values += [0.0, -0.0, 5e-7, -5e-7, 2.5e-6, 1e300, -math.inf, math.inf, math.nan, 2.0**30 / 1e6]
    for places in (contract.SCORE_DECIMALS, 0, 2, 16):
        found = rounded(np.array(values), places)
        assert list(map(repr, found)) == [repr(round(x, places)) for x in values]


def _steps(x: float, k: int) -> list[float]:
    """``x`` and the ``k`` floats on either side of it."""
    out, low, high = [x], x, x
    for _ in range(k):
        low, high = math.nextafter(low, -math.inf), math.nextafter(high, math.inf)
        out += [low, high]
    return out


def test_scores_read_at_once_are_each_scores_value():
    # the drop stage's indices ascend; any other order is read one by one, the same values
    for indices in ([1, 4, 5, 9], [9, 1, 5, 4], []):
        values = [0.3, 0.1, 0.7, 0.2][: len(indices)]
        scores = Scores(indices, 10, [1.0] * len(indices), [0.0] * len(indices), values)
        asked = sorted(indices)[::-1] + sorted(indices)
        assert scores.values_of(asked) == [scores.value(i) for i in asked]
        assert scores.values_of(asked) == [scores[i].value for i in asked]
        with pytest.raises(KeyError):
            scores.values_of([*indices, 3])
