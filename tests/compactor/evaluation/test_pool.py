"""The local pool's workers under SIGKILL, on real processes: a killed worker's conversations run
again (once), and a killed ``evaluate`` leaves no worker behind."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from compactor.evaluation import CorpusItem, RunOptions, evaluate, grid_points, load_corpus
from compactor.evaluation._pool import WorkerDied, _Pool, local_rows
from tests.compactor.cli.test_evaluate import generated_corpus
from tests.paths import ROOT
from tests.processes import children, gone, wait_for

#: Seconds within which a child must end once its parent is killed.
BOUND = 5


def _dies_once(item, marker):
    """Kills its own worker the first time it meets conversation 3."""
    if item.conversation == 3 and not os.path.exists(marker):
        open(marker, "w").close()
        os.kill(os.getpid(), signal.SIGKILL)
    return item.conversation


def _always_dies(item):
    if item.conversation == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    return item.conversation


class Task:
    def __init__(self, marker):
        self.marker = marker

    def __call__(self, item):
        return _dies_once(item, self.marker)


def test_a_worker_killed_once_has_its_conversations_run_again(tmp_path, caplog):
    items = [CorpusItem(k, {}) for k in range(12)]
    outcomes = list(local_rows(items, Task(str(tmp_path / "died")), 2))
    assert outcomes == list(range(12))  # in order, each once
    assert "a worker process died" in caplog.text


def _dies_beside_a_slow_one(item):
    if item.conversation == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    if item.conversation == 2:
        time.sleep(1.0)  # in flight whenever 3 kills the pool
    return item.conversation


def test_the_conversation_in_flight_beside_the_culprit_is_not_blamed():
    """2 is in flight both times 3 kills the pool: run alone, it is done, and 3 is named."""
    items = [CorpusItem(k, {}) for k in (2, 3)]
    with pytest.raises(WorkerDied, match="evaluating conversation 3, run again 1 time"):
        list(local_rows(items, _dies_beside_a_slow_one, 2))


def test_a_conversation_that_kills_its_worker_again_is_named():
    items = [CorpusItem(k, {}) for k in range(8)]
    with pytest.raises(WorkerDied, match="evaluating conversation 3, run again 1 time"):
        list(local_rows(items, _always_dies, 2))


def test_a_pool_broken_before_a_conversation_is_sent_runs_it_on_the_next_pool(tmp_path):
    # The race CI met: the worker died between two submits, so the pool refused the next one.
    pool = _Pool(2, Task(str(tmp_path / "died")))
    try:
        pool.submit(CorpusItem(3, {}))
        assert wait_for(lambda: pool.pending[0][2].done(), 30)  # its worker killed itself
        for k in range(4, 8):
            pool.submit(CorpusItem(k, {}))  # refused by the broken pool, queued all the same
        assert [pool.next() for _ in range(5)] == [3, 4, 5, 6, 7]
    finally:
        pool.close()


def test_a_conversation_never_sent_is_not_counted_as_run_again(tmp_path):
    pool = _Pool(2, _always_dies)
    try:
        pool.submit(CorpusItem(3, {}))
        assert wait_for(lambda: pool.pending[0][2].done(), 30)
        pool.submit(CorpusItem(4, {}))
        # 3 dies once more on the new pool and is named; 4, refused once, was never run
        with pytest.raises(WorkerDied, match="conversation 3, run again 1 time"):
            pool.next()
        assert [runs for item, runs, _ in pool.pending if item.conversation == 4] == [0]
    finally:
        pool.close()


def start(corpus, *args):
    return subprocess.Popen(
        [sys.executable, "-m", "compactor", "evaluate", str(corpus), *map(str, args)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    path = tmp_path_factory.mktemp("pool") / "corpus.jsonl"
    generated_corpus(path, 480)  # its run lasts seconds after the first rows (160: one)
    return path


@pytest.mark.slow
def test_evaluate_goes_on_when_a_pool_worker_is_killed(corpus, tmp_path):
    out = tmp_path / "rows.jsonl"
    grid = ["--grid", "keep_last_n=1,4", "--budgets", "700,1500"]
    process = start(corpus, *grid, "--workers", "2", "--out", out)
    try:
        assert wait_for(lambda: out.exists() and out.stat().st_size > 5000, 120)
        workers = children(process.pid)
        assert len(workers) == 2
        os.kill(workers[0], signal.SIGKILL)
        _, said = process.communicate(timeout=300)
    finally:
        process.kill()
    said = said.decode()
    assert process.returncode == 0 and "Traceback" not in said, said
    assert "a worker process died" in said
    chosen = grid_points({}, {"keep_last_n": [1, 4]})
    expected = evaluate(load_corpus(corpus), chosen, [700, 1500], RunOptions(workers=1))
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == len({json.dumps(r, sort_keys=True) for r in rows})  # none twice
    assert sorted(json.dumps(r, sort_keys=True) for r in rows) == sorted(
        json.dumps(r, sort_keys=True) for r in expected
    )


@pytest.mark.slow
def test_a_killed_evaluate_leaves_no_pool_worker(corpus):
    process = start(corpus, "--workers", "2")
    try:
        assert wait_for(lambda: len(children(process.pid)) == 2, 120)
        workers = children(process.pid)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
        assert wait_for(lambda: all(gone(pid) for pid in workers), BOUND), [
            pid for pid in workers if not gone(pid)
        ]
    finally:
        process.kill()
