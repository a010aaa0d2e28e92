"""A resumed evaluation yields exactly the rows not yet written, and runs again only the
conversations it must: for budgets from the sweep, every conversation written whole before the
last one written is not run again."""

import pytest

from compactor.evaluation import evaluate, load_corpus, row_key, settings_grid
from tests.paths import CORPUS, ROOT

SWEPT = settings_grid({}, {"keep_last_n": [2, 5]})
MIXED = SWEPT + settings_grid({"budget_chars": 900}, {"keep_last_n": [3]})


@pytest.fixture(scope="module")
def items():
    return load_corpus(CORPUS) + load_corpus(ROOT / "tests" / "fixtures" / "real")


def resumed(items, settings, written):
    """The rows a resumed run yields after ``written`` rows, and how many conversations it
    counted as done before running any."""
    started = []
    rows = list(
        evaluate(
            items,
            settings,
            workers=1,
            skip={row_key(r) for r in written},
            progress=lambda done, total: started.append(done),
        )
    )
    return rows, started[0]


@pytest.mark.parametrize("settings", [SWEPT, MIXED], ids=["swept", "swept and fixed"])
@pytest.mark.parametrize("cut", [0.3, 0.75])
def test_a_run_cut_short_resumes_with_the_missing_rows_only(items, settings, cut):
    full = list(evaluate(items, settings, workers=1))
    stop = int(len(full) * cut)
    written = full[:stop]
    last = written[-1]["conversation"]
    rows, skipped = resumed(items, settings, written)
    assert written + rows == full  # nothing lost, nothing twice, in order
    order = [item.conversation for item in items]
    assert skipped == order.index(last)  # all before the last one written; it is run again


def test_a_resume_with_a_setting_added_runs_every_conversation_for_it(items):
    written = list(evaluate(items, SWEPT, workers=1))
    more = SWEPT + settings_grid({}, {"keep_last_n": [9]})
    rows, skipped = resumed(items, more, written)
    assert skipped == 0
    assert rows == [r for r in evaluate(items, more, workers=1) if r["keep_last_n"] == 9]


def test_a_finished_run_resumed_runs_only_its_last_conversation(items):
    written = list(evaluate(items, MIXED, workers=1))
    rows, skipped = resumed(items, MIXED, written)
    assert rows == [] and skipped == len(items) - 1
