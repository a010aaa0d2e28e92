"""Every row equals compacting that one request, on random conversations and the real corpus."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor import run, validate
from compactor.analyses._pairing import check_pairing
from compactor.analyses._sweeps import BUDGET_RANGE
from compactor.contract import ROLES
from compactor.evaluation import (
    BASELINES,
    OUTCOME_KEYS,
    PROBE_KEYS,
    ROW_KEYS,
    SUMMARY_BUDGETS,
    CorpusItem,
    RunOptions,
    conversation_rows,
    evaluate,
    grid_points,
    load_corpus,
)
from compactor.evaluation._corpus import Probe
from compactor.evaluation._outcomes import baseline_protections
from tests.compactor.analyses.test_pairing import SPLITS, linked
from tests.compactor.evaluation.brute import brute_baseline, brute_row, in_force
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


def probes_for(request, rnd):
    """A few probes over random messages, some with an answer taken from a message."""
    n = len(request["messages"])
    probes = []
    for k in range(rnd.randint(0, 3)):
        evidence = tuple(sorted(rnd.sample(range(n), rnd.randint(1, min(2, n)))))
        content = request["messages"][evidence[0]]["content"]
        start = rnd.randrange(max(1, len(content)))
        answer = content[start : start + rnd.randint(1, 12)] or None
        probes.append(Probe(f"p{k}", evidence, answer if rnd.random() < 0.7 else None))
    return tuple(probes)


@settings(max_examples=60, deadline=None)
@given(requests(max_size=12), grids, st.randoms(use_true_random=False), st.integers(1, 6))
def test_every_sweep_row_equals_compact_at_its_budget_and_holds_to_the_next(
    request, grid, rnd, future
):
    item = CorpusItem(0, request, probes=probes_for(request, rnd))
    chosen = grid_points({}, grid)
    rows = conversation_rows(item, chosen, future=future)
    keys = [*ROW_KEYS, *OUTCOME_KEYS, *(PROBE_KEYS if item.probes else ())]
    protections = baseline_protections(chosen)
    assert protections[-1] is None  # the bare form, after each keep_roles' protected one
    for strategy in BASELINES:
        for roles in protections:
            mine = [r for r in rows if r["strategy"] == strategy and r["keep_roles"] == roles]
            assert [r["budget_chars"] for r in mine] == list(SUMMARY_BUDGETS)
            for row in mine[:: rnd.randint(2, 8)]:
                assert list(row) == keys
                assert row == brute_baseline(
                    item, strategy, row["budget_chars"], future=future, keep_roles=roles
                )
    for setting in chosen:
        mine = [r for r in rows if all(r[k] == setting[k] for k in setting)]
        assert mine[0]["budget_chars"] == BUDGET_RANGE[0]
        for row in mine:
            assert list(row) == keys
            assert row == brute_row(item, setting, row["budget_chars"], future=future)
        # A sweep row holds up to the next one: any budget reads the row in force there.
        for budget in [rnd.randint(*BUDGET_RANGE) for _ in range(3)] + [BUDGET_RANGE[1]]:
            expected = {**in_force(mine, budget), "budget_chars": budget}
            assert brute_row(item, setting, budget, future=future) == expected


@settings(max_examples=60, deadline=None)
@given(
    requests(max_size=12),
    grids,
    st.lists(st.integers(100, 4000), min_size=1, max_size=4, unique=True),
)
def test_rows_at_listed_budgets_equal_compact(request, grid, budgets):
    item = CorpusItem("x.json#3", request)
    chosen = grid_points({}, grid)
    rows = list(evaluate([item], chosen, budgets, options=RunOptions(workers=1)))
    protections = baseline_protections(chosen)
    assert len(rows) == (len(chosen) + len(BASELINES) * len(protections)) * len(budgets)
    expected = [brute_row(item, s, b) for s in chosen for b in sorted(budgets)]
    expected += [
        brute_baseline(item, s, b, keep_roles=roles)
        for s in BASELINES
        for roles in protections
        for b in sorted(budgets)
    ]
    assert rows == expected


def test_without_a_future_the_rows_are_the_counts_alone():
    item = CorpusItem(0, requests_example())
    chosen = grid_points({}, {"keep_last_n": [1, 3]})
    rows = list(evaluate([item], chosen, [300, 900], options=RunOptions(workers=1, future=None)))
    assert [list(r) for r in rows] == [list(ROW_KEYS)] * 4
    assert rows == [brute_row(item, s, b, future=None) for s in chosen for b in (300, 900)]


def requests_example():
    said = ["Order DE-4471 left Lyon on 2024-05-17.", "Noted.", "Ship to 12 Rue X by 03:10."]
    messages = [{"role": ("user", "assistant")[k % 2], "content": said[k % 3]} for k in range(9)]
    return {"messages": messages, "budget_chars": 500}


def test_a_setting_with_its_own_budget_is_evaluated_there():
    item = CorpusItem(
        0,
        {
            "messages": [{"role": "user", "content": "a " * 300}] * 2
            + [{"role": "assistant", "content": "DE-4471 ships today."}],
            "budget_chars": 100,
        },
    )
    chosen = grid_points({"keep_last_n": 1}, {"budget_chars": [150, 700]})
    rows = list(evaluate([item], chosen, options=RunOptions(workers=1)))
    assert [r["budget_chars"] for r in rows] == [150, 700] * 5
    assert rows[:2] == [brute_row(item, s, s["budget_chars"]) for s in chosen]
    assert rows[2:] == [
        brute_baseline(item, s, b, keep_roles=roles)
        for s in BASELINES
        for roles in (["system"], None)
        for b in (150, 700)
    ]


def real_items():
    return load_corpus(CORPUS) + load_corpus(ROOT / "tests" / "fixtures" / "real")


def test_the_real_corpus_rows_equal_compact_at_every_sweep_point():
    items = real_items()
    assert any(item.tool_links for item in items)  # the links of the import are used
    chosen = grid_points({}, {"keep_last_n": [2, 6], "max_message_chars": [150, 800]})
    rows = list(evaluate(items, chosen, options=RunOptions(workers=1)))
    rnd = random.Random(15)
    assert any(r["needs"] for r in rows) and any(r["needs"] is None for r in rows)
    for row in rows if len(rows) < 800 else rnd.sample(rows, 800):
        item = next(i for i in items if i.conversation == row["conversation"])
        if row["strategy"] in BASELINES:
            assert row == brute_baseline(
                item, row["strategy"], row["budget_chars"], keep_roles=row["keep_roles"]
            )
            continue
        setting = {k: row[k] for k in chosen[0]}
        assert row == brute_row(item, setting, row["budget_chars"])


def test_token_counts_equal_the_tokens_of_the_returned_contents():
    items = load_corpus(CORPUS / "tau_airline_tool_heavy.json")
    chosen = grid_points({}, {"keep_last_n": [3]})
    rows = list(
        evaluate(
            items, chosen, [500, 5000, 40000], options=RunOptions(workers=1, encoding="o200k_base")
        )
    )
    assert [r["output_tokens"] > 0 for r in rows[:3]] == [True] * 3
    expected = [brute_row(items[0], chosen[0], b, "o200k_base") for b in (500, 5000, 40000)]
    expected += [
        brute_baseline(items[0], s, b, "o200k_base", keep_roles=roles)
        for s in BASELINES
        for roles in (["system"], None)
        for b in (500, 5000, 40000)
    ]
    assert rows == expected


@pytest.mark.parametrize("budgets", [[99], [400_001], [True], [1000, 1000], []])
def test_bad_budgets_are_refused_at_the_call(budgets):
    from compactor.errors import ProblemError

    with pytest.raises(ProblemError):
        evaluate([], grid_points(), budgets)


@pytest.mark.parametrize("case", sorted(SPLITS))
def test_the_broken_pairs_are_the_pairs_the_tool_pairs_check_flags(case):
    # A call whose line a trim cut away is split as the Tool pairs page says, not kept.
    messages, params, _ = SPLITS[case]
    links = tuple(linked(messages))
    item = CorpusItem(case, {"messages": messages, **params}, links)
    fixed = {k: v for k, v in params.items() if k != "budget_chars"}
    rows = conversation_rows(item, grid_points(fixed, {}), future=None)  # every sweep step
    assert len(rows) > 1
    for row in rows:
        request = {"messages": messages, **fixed, "budget_chars": row["budget_chars"]}
        report = check_pairing(run(validate(request)), links)
        assert row["tool_pairs_broken"] == len(report.issues), row["budget_chars"]
    assert any(row["tool_pairs_broken"] for row in rows)  # each case splits at some budget
