"""A resumed evaluation yields exactly the rows not yet written, and runs again only the
conversations it must: with budgets from the sweep, every conversation the written rows hold
whole (:func:`written_whole`) is not run again."""

import pytest

from compactor.evaluation import (
    RunOptions,
    evaluate,
    grid_points,
    load_corpus,
    row_key,
    written_whole,
)
from tests.paths import CORPUS, ROOT

SWEPT = grid_points({}, {"keep_last_n": [2, 5]})
MIXED = SWEPT + grid_points({"budget_chars": 900}, {"keep_last_n": [3]})
ADDED = grid_points({}, {"keep_last_n": [9]})


@pytest.fixture(scope="module")
def items():
    return load_corpus(CORPUS) + load_corpus(ROOT / "tests" / "fixtures" / "real")


def resumed(items, settings, written):
    """The rows a run resumed after ``written`` (in the order written) yields, and how many
    conversations it counted as done before running any."""
    started = []
    rows = list(
        evaluate(
            items,
            settings,
            options=RunOptions(workers=1),
            skip={row_key(r) for r in written},
            whole=written_whole(written, settings),
            progress=lambda done, total: started.append(done),
        )
    )
    return rows, started[0]


@pytest.mark.parametrize("settings", [SWEPT, MIXED], ids=["swept", "swept and fixed"])
@pytest.mark.parametrize("cut", [0.3, 0.75])
def test_a_run_cut_short_resumes_with_the_missing_rows_only(items, settings, cut):
    full = list(evaluate(items, settings, options=RunOptions(workers=1)))
    written = full[: int(len(full) * cut)]
    last = written[-1]["conversation"]
    rows, skipped = resumed(items, settings, written)
    assert written + rows == full  # nothing lost, nothing twice, in order
    order = [item.conversation for item in items]
    assert skipped == order.index(last)  # all before the last one written; it runs again


def test_a_resume_with_a_setting_added_runs_every_conversation_for_it(items):
    written = list(evaluate(items, SWEPT, options=RunOptions(workers=1)))
    rows, skipped = resumed(items, SWEPT + ADDED, written)
    assert skipped == 0
    # the baselines' rows were written with the first run's: only the added setting's run
    added = list(evaluate(items, ADDED, options=RunOptions(workers=1)))
    assert rows == [r for r in added if r["strategy"] == "memory-compact"]


@pytest.mark.parametrize("cut", [0.2, 0.55, 0.9])
def test_a_resume_with_a_setting_added_and_cut_short_resumes_again(items, cut):
    """The first run wrote every row of SWEPT; a second, with a setting added, was cut short
    (maybe in the middle of a conversation's rows); a third finishes both."""
    first = list(evaluate(items, SWEPT, options=RunOptions(workers=1)))
    second = list(
        evaluate(
            items, SWEPT + ADDED, options=RunOptions(workers=1), skip={row_key(r) for r in first}
        )
    )
    written = first + second[: int(len(second) * cut)]
    rows, _ = resumed(items, SWEPT + ADDED, written)
    # by repr: a bare baseline's keep_roles is None where a protected one's is a tuple
    assert sorted(map(row_key, written + rows), key=repr) == sorted(
        map(row_key, evaluate(items, SWEPT + ADDED, options=RunOptions(workers=1))), key=repr
    )
    assert len(written + rows) == len(first) + len(second)  # nothing twice


def test_a_finished_run_resumed_runs_only_its_last_conversation(items):
    written = list(evaluate(items, MIXED, options=RunOptions(workers=1)))
    rows, skipped = resumed(items, MIXED, written)
    assert rows == [] and skipped == len(items) - 1
