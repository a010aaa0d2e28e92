"""Compute processes: the same answers as in place, and a pool that survives a dead process."""

import asyncio
import json
import os
from concurrent.futures.process import BrokenProcessPool

import pytest

from compactor import compact
from compactor.contract import REQUEST_EXAMPLE
from compactor.service.compute import ComputePool
from compactor.service.handling import handle


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
