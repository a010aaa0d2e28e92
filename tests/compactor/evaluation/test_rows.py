"""Every row equals compacting that one request, on random conversations and the real corpus."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor.analyses.sweeps import BUDGET_RANGE
from compactor.contract import ROLES
from compactor.evaluation import (
    ROW_KEYS,
    CorpusItem,
    RunOptions,
    conversation_rows,
    evaluate,
    load_corpus,
    settings_grid,
)
from tests.compactor.evaluation.brute import brute_row, in_force
from tests.generate import requests
from tests.paths import CORPUS, ROOT

grids = st.fixed_dictionaries(
    {},
    optional={
        "keep_last_n": st.lists(st.integers(0, 6), min_size=1, max_size=2, unique=True),
        "keep_roles": st.lists(
            st.lists(st.sampled_from(ROLES), max_size=2, unique=True).map(sorted),
            min_size=1,
            max_size=2,
            unique_by=lambda roles: tuple(r for r in ROLES if r in roles),
        ),
        "duplicate_threshold": st.lists(
            st.sampled_from([0.5, 2 / 3, 0.8, 1.0]), min_size=1, max_size=2, unique=True
        ),
        "max_message_chars": st.lists(st.integers(80, 300), min_size=1, max_size=2, unique=True),
    },
)


@settings(max_examples=60, deadline=None)
@given(requests(max_size=12), grids, st.randoms(use_true_random=False))
def test_every_sweep_row_equals_compact_at_its_budget_and_holds_to_the_next(request, grid, rnd):
    item = CorpusItem(0, request)
    chosen = settings_grid({}, grid)
    rows = conversation_rows(item, chosen)
    for setting in chosen:
        mine = [r for r in rows if all(r[k] == setting[k] for k in setting)]
        assert mine[0]["budget_chars"] == BUDGET_RANGE[0]
        for row in mine:
            assert list(row) == list(ROW_KEYS)
            assert row == brute_row(item, setting, row["budget_chars"])
        # A sweep row holds up to the next one: any budget reads the row in force there.
        for budget in [rnd.randint(*BUDGET_RANGE) for _ in range(3)] + [BUDGET_RANGE[1]]:
            expected = {**in_force(mine, budget), "budget_chars": budget}
            assert brute_row(item, setting, budget) == expected


@settings(max_examples=60, deadline=None)
@given(
    requests(max_size=12),
    grids,
    st.lists(st.integers(100, 4000), min_size=1, max_size=4, unique=True),
)
def test_rows_at_listed_budgets_equal_compact(request, grid, budgets):
    item = CorpusItem("x.json#3", request)
    chosen = settings_grid({}, grid)
    rows = list(evaluate([item], chosen, budgets, options=RunOptions(workers=1)))
    assert len(rows) == len(chosen) * len(budgets)
    expected = [brute_row(item, s, b) for s in chosen for b in sorted(budgets)]
    assert rows == expected


def test_a_setting_with_its_own_budget_is_evaluated_there():
    item = CorpusItem(
        0,
        {
            "messages": [{"role": "user", "content": "a " * 300}] * 2
            + [{"role": "assistant", "content": "DE-4471 ships today."}],
            "budget_chars": 100,
        },
    )
    chosen = settings_grid({"keep_last_n": 1}, {"budget_chars": [150, 700]})
    rows = list(evaluate([item], chosen, options=RunOptions(workers=1)))
    assert [r["budget_chars"] for r in rows] == [150, 700]
    assert rows == [brute_row(item, s, s["budget_chars"]) for s in chosen]


def real_items():
    return load_corpus(CORPUS) + load_corpus(ROOT / "tests" / "fixtures" / "real")


def test_the_real_corpus_rows_equal_compact_at_every_sweep_point():
    items = real_items()
    assert any(item.tool_links for item in items)  # the links of the import are used
    chosen = settings_grid({}, {"keep_last_n": [2, 6], "max_message_chars": [150, 800]})
    rows = list(evaluate(items, chosen, options=RunOptions(workers=1)))
    rnd = random.Random(15)
    for row in rows if len(rows) < 800 else rnd.sample(rows, 800):
        item = next(i for i in items if i.conversation == row["conversation"])
        setting = {k: row[k] for k in chosen[0]}
        assert row == brute_row(item, setting, row["budget_chars"])


def test_token_counts_equal_the_tokens_of_the_returned_contents():
    items = load_corpus(CORPUS / "tau_airline_tool_heavy.json")
    chosen = settings_grid({}, {"keep_last_n": [3]})
    rows = list(
        evaluate(
            items, chosen, [500, 5000, 40000], options=RunOptions(workers=1, encoding="o200k_base")
        )
    )
    assert [r["output_tokens"] > 0 for r in rows] == [True] * 3
    assert rows == [brute_row(items[0], chosen[0], b, "o200k_base") for b in (500, 5000, 40000)]


@pytest.mark.parametrize("budgets", [[99], [400_001], [True], [1000, 1000], []])
def test_bad_budgets_are_refused_at_the_call(budgets):
    from compactor.errors import ProblemError

    with pytest.raises(ProblemError):
        evaluate([], settings_grid(), budgets)
