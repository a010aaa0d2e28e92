"""Compute processes: the same answers as in place, a pool that survives a dead process (started
again off the event loop), and processes that end with their worker, on real processes."""

import asyncio
import json
import os
import signal
import threading
from concurrent.futures.process import BrokenProcessPool

import pytest

from compactor import compact
from compactor.contract import REQUEST_EXAMPLE
from compactor.service._compute import ComputePool
from compactor.service._handling import handle
from harness.service import serving
from tests.processes import children, descendants, gone, wait_for

#: Seconds within which a compute process must end once its worker is killed.
BOUND = 5


def die() -> None:
    os._exit(1)  # as if the kernel had killed the process (out of memory, say)


@pytest.fixture(scope="module")
def pool():
    started = ComputePool(1)
    started.start()
    yield started
    started.stop()


def test_a_compute_process_gives_the_same_bytes_as_in_place(pool):
    body = json.dumps(REQUEST_EXAMPLE).encode()
    answer = asyncio.run(pool.run(handle, compact, body))
    assert answer == handle(compact, body)
    assert answer[0] == 200
    assert asyncio.run(pool.run(handle, compact, b"[1,")) == handle(compact, b"[1,")


def test_a_pool_whose_process_died_starts_afresh(pool):
    with pytest.raises(BrokenProcessPool):
        asyncio.run(pool.run(die))
    body = json.dumps(REQUEST_EXAMPLE).encode()
    assert asyncio.run(pool.run(handle, compact, body)) == handle(compact, body)


def test_without_processes_the_work_runs_in_place():
    idle = ComputePool(0)
    idle.start()
    assert not idle.running
    assert asyncio.run(idle.run(os.getpid)) == os.getpid()


def test_a_pool_starts_again_off_the_event_loop_which_goes_on_meanwhile(pool, monkeypatch):
    seen = {}
    original = pool.start

    def start():
        seen["thread"] = threading.current_thread()
        seen["ticks before"] = ticks
        original()
        seen["ticks after"] = ticks

    monkeypatch.setattr(pool, "start", start)
    ticks = 0
    body = json.dumps(REQUEST_EXAMPLE).encode()

    async def scenario():
        nonlocal ticks

        async def tick():
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.005)

        ticker = asyncio.create_task(tick())
        with pytest.raises(BrokenProcessPool):
            await pool.run(die)
        assert pool.running  # the calls that come now wait for the new processes
        answer = await pool.run(handle, compact, body)
        ticker.cancel()
        return answer

    assert asyncio.run(scenario()) == handle(compact, body)
    assert seen["thread"] is not threading.main_thread()
    # The loop kept turning while the processes started (each start takes a process spawn
    # and an import of the engine: far longer than one turn of the loop).
    assert seen["ticks after"] - seen["ticks before"] >= 3


@pytest.mark.slow
def test_compute_processes_end_when_their_service_worker_is_killed(tmp_path):
    for workers in ("1", "2"):
        with serving("--workers", workers, "--processes", "2", log=tmp_path / "log") as service:
            top = service.process.pid
            # With one worker, uvicorn serves in its own process; with more, in its children.
            worker = top if workers == "1" else compute_processes(top)[0]
            assert wait_for(lambda w=worker: len(compute_processes(w)) == 2, 60)
            below = descendants(worker)
            os.kill(worker, signal.SIGKILL)
            assert wait_for(lambda b=below: all(gone(pid) for pid in b), BOUND), [
                pid for pid in below if not gone(pid)
            ]


def compute_processes(parent):
    """The processes ``parent`` spawned (uvicorn's workers, or a worker's compute processes),
    not multiprocessing's resource tracker."""
    return [
        pid
        for pid in children(parent)
        if "resource_tracker"
        not in open(f"/proc/{pid}/cmdline", "rb").read().decode(errors="ignore")
    ]
