"""The process pool and a real local Ray instance give the rows of the plain loop."""

import sys

import pytest

from compactor.errors import InvalidRequest, ProblemError
from compactor.evaluation import (
    BASELINES,
    RAY_INSTALL_HINT,
    BackendUnavailable,
    CorpusItem,
    RunOptions,
    evaluate,
    grid_points,
    load_corpus,
    row_key,
)
from compactor.evaluation._pool import local_rows
from tests.paths import CORPUS, ROOT

CHOSEN = grid_points({}, {"keep_last_n": [2, 5], "duplicate_threshold": [0.7, 0.9]})


@pytest.fixture(scope="module")
def items():
    real = load_corpus(CORPUS) + load_corpus(ROOT / "tests" / "fixtures" / "real")
    return real * 2  # enough chunks to fill the window of in-flight work


@pytest.fixture(scope="module")
def plain(items):
    return list(evaluate(items, CHOSEN, options=RunOptions(workers=1)))


def test_the_process_pool_gives_the_same_rows_in_the_same_order(items, plain):
    assert list(evaluate(items, CHOSEN, options=RunOptions(workers=2))) == plain


@pytest.fixture(scope="module")
def ray_instance():
    import ray

    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        logging_level="ERROR",
    )
    yield ray
    ray.shutdown()


@pytest.mark.slow
def test_ray_gives_the_same_rows_in_the_same_order(ray_instance, items, plain):
    assert ray_instance.is_initialized()
    assert list(evaluate(items, CHOSEN, options=RunOptions(backend="ray"))) == plain
    tokens = list(
        evaluate(
            items[:3], CHOSEN, [900], options=RunOptions(backend="ray", encoding="cl100k_base")
        )
    )
    assert tokens == list(
        evaluate(items[:3], CHOSEN, [900], options=RunOptions(workers=1, encoding="cl100k_base"))
    )


def test_ray_missing_says_how_to_install_it(monkeypatch, items):
    monkeypatch.setitem(sys.modules, "ray", None)  # what an environment without ray gives
    with pytest.raises(BackendUnavailable, match=r'pip install -e "\.\[ray\]"'):
        list(evaluate(items[:1], CHOSEN, options=RunOptions(backend="ray")))
    assert "pip install" in RAY_INSTALL_HINT


def test_progress_counts_conversations_up_to_all(items):
    seen = []
    rows = list(
        evaluate(
            items[:5],
            CHOSEN,
            [1000],
            options=RunOptions(workers=2),
            progress=lambda *p: seen.append(p),
        )
    )
    # 4 settings and the 2 baselines in 2 forms (protected with keep_roles system, bare), at
    # one budget, for each of 5 conversations
    assert seen == [(k, 5) for k in range(6)] and len(rows) == 40


def test_skipped_rows_are_not_given_and_done_conversations_not_run(items, plain):
    skip = {row_key(r) for r in plain[::3]}
    assert list(evaluate(items, CHOSEN, options=RunOptions(workers=1), skip=skip)) == [
        r for r in plain if row_key(r) not in skip
    ]
    broken = CorpusItem("broken", {"messages": [], "budget_chars": 100})
    done = {row_key({**s, "conversation": "broken", "budget_chars": 500}) for s in CHOSEN}
    assert list(evaluate([broken], CHOSEN, [500], options=RunOptions(future=None), skip=done)) == []
    baselines = [
        {**dict.fromkeys(CHOSEN[0]), "strategy": s, "keep_roles": roles}
        for s in BASELINES
        for roles in (["system"], None)  # the protected form of the grid's keep_roles, and bare
    ]
    done |= {row_key({**s, "conversation": "broken", "budget_chars": 500}) for s in baselines}
    assert list(evaluate([broken], CHOSEN, [500], skip=done)) == []  # not run: it would fail


@pytest.mark.parametrize("workers", [1, 2])
def test_an_invalid_request_names_its_conversation(workers, items):
    broken = CorpusItem("a.json#7", {"messages": [{"role": "user", "content": "x"}]})
    with pytest.raises(InvalidRequest, match=r"conversation 'a.json#7'"):
        list(evaluate([items[0], broken], CHOSEN, [500], options=RunOptions(workers=workers)))


def test_outcomes_come_back_in_order_whatever_finishes_first():
    items = [CorpusItem(k, {}) for k in range(40)]
    assert [o for o in local_rows(items, _slow_first, 2)] == list(range(40))


def _slow_first(item):
    import time

    time.sleep(0.05 if item.conversation % 7 == 0 else 0)
    return item.conversation


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (RunOptions(backend="dask"), "unknown backend 'dask'; choose one of local, ray"),
        (RunOptions(workers=0), "workers must be 1 or more, not 0"),
    ],
)
def test_bad_run_options_are_refused_at_the_call_before_any_work(options, message):
    with pytest.raises(ProblemError) as error:
        evaluate([], CHOSEN, [500], options)
    assert [p.message for p in error.value.problems] == [message]


def test_good_run_options_pass_their_check():
    RunOptions().check()
    RunOptions(workers=2, backend="ray", address="auto").check()
