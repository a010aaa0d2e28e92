"""The protected baselines (SPEC part D) against their plain definition: the protected messages
kept whole, the bare rule over the others with the budget that remains."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor import validate
from compactor.analyses.outcomes import (
    BARE,
    PROTECTED,
    baseline_form,
    keep_last_from,
    keep_last_from_budgets,
    keep_last_lengths,
    random_from,
    random_from_budgets,
    random_lengths,
)
from tests.compactor.analyses.outcomes.brute import (
    plain_keep_last,
    plain_protected,
    plain_random,
)

DRAWS = 4
lengths_and_masks = st.integers(1, 9).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(1, 60), min_size=n, max_size=n),
        st.lists(st.booleans(), min_size=n, max_size=n),
        st.integers(0, 400),
    )
)


def kept(row: np.ndarray) -> set[int]:
    return {i for i, x in enumerate(row.tolist()) if x >= 0}


@settings(max_examples=150, deadline=None)
@given(lengths_and_masks)
def test_protected_keep_last_and_random_equal_their_plain_definition(case):
    lengths, protected, budget = case
    assert kept(keep_last_lengths(lengths, budget, protected)) == plain_protected(
        plain_keep_last, lengths, budget, protected
    )
    for seed, row in enumerate(random_lengths(lengths, budget, DRAWS, protected)):
        assert kept(row) == plain_protected(plain_random, lengths, budget, protected, seed)


@settings(max_examples=100, deadline=None)
@given(lengths_and_masks)
def test_protected_messages_are_always_kept_whole(case):
    lengths, protected, budget = case
    for row in (
        keep_last_lengths(lengths, budget, protected),
        *random_lengths(lengths, budget, DRAWS, protected),
    ):
        for i, p in enumerate(protected):
            if p:
                assert row[i] == lengths[i]


@settings(max_examples=100, deadline=None)
@given(lengths_and_masks)
def test_no_protection_is_the_bare_rule(case):
    lengths, _, budget = case
    nothing = [False] * len(lengths)
    for mask in (None, nothing):
        assert keep_last_from(lengths, mask).tolist() == keep_last_from_budgets(lengths).tolist()
        assert (
            random_from(lengths, mask, DRAWS).tolist()
            == random_from_budgets(lengths, DRAWS).tolist()
        )
        assert kept(keep_last_lengths(lengths, budget, mask)) == plain_keep_last(lengths, budget)


def _request(messages, keep_roles=("system",)):
    return validate({"messages": messages, "budget_chars": 1000, "keep_roles": list(keep_roles)})


def test_the_form_names_what_it_keeps_first():
    system = {"role": "system", "content": "You are an airline agent. " * 10}
    user = {"role": "user", "content": "hello"}
    pinned = {"role": "user", "content": "my booking is ZFA04Y", "pin": True}
    assert baseline_form(_request([system, user])).label() == "keep-last, system prompt kept"
    assert baseline_form(_request([system, user]), BARE).label() == "keep-last, bare"
    assert baseline_form(_request([user, user])).label("random") == "random"
    both = baseline_form(_request([system, pinned, pinned, user]), PROTECTED)
    assert both.label() == "keep-last, 2 pinned + system kept"
    assert both.protected == (True, True, True, False)
    assert baseline_form(_request([system, user], keep_roles=())).label() == "keep-last"
