"""Compute processes: large requests run outside the event loop's process.

Parsing a 4 MiB body alone holds the GIL for about 0.1 s in one C call, so neither the event
loop nor a thread could answer ``/healthz`` meanwhile: large bodies go to a small pool of
processes instead (the event loop only reads the body and writes the answer). Each worker has
its own pool, as large as the machine has cores, so that one worker whose connections carry
all the large requests still uses every core.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from compactor.processes import end_with_parent, parent_watch
from compactor.service._handling import ready

T = TypeVar("T")


def default_processes() -> int:
    """One compute process per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class ComputePool:
    """``processes`` compute processes (none: everything runs in the caller's process).

    Each process ends with the worker that started it (:mod:`compactor.processes`), so a worker
    killed with SIGKILL leaves none behind. When one dies (killed, out of memory), its pool is
    started again in a thread of its own: the event loop goes on answering meanwhile, and the
    calls that come then wait for the new processes rather than run on the loop.
    """

    def __init__(self, processes: int):
        self.processes = processes
        self._executor: ProcessPoolExecutor | None = None
        self._starting: Future[None] | None = None  # a new pool on its way, after a death
        self._lock = threading.Lock()

    @property
    def running(self) -> bool:
        """Whether the work goes to compute processes (or to those being started again)."""
        return self._executor is not None or self._starting is not None

    def start(self) -> None:
        """Start every process and wait until each has imported the engine."""
        if self.processes < 1 or self._executor is not None:
            return
        executor = ProcessPoolExecutor(
            self.processes,
            mp_context=multiprocessing.get_context("spawn"),  # never fork a running event loop
            initializer=_child,
            initargs=parent_watch(),
        )
        for future in [executor.submit(ready) for _ in range(self.processes)]:
            future.result()
        self._executor = executor

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in a compute process (in place when there are none)."""
        executor = self._executor
        if executor is None:
            starting = self._starting
            if starting is not None:
                await asyncio.wrap_future(starting)  # raises when they could not start
            executor = self._executor
            if executor is None:
                return function(*args)
        try:
            return await asyncio.get_running_loop().run_in_executor(executor, function, *args)
        except BrokenProcessPool:  # a process died (killed, out of memory): start afresh
            self._start_again(executor)
            raise

    def stop(self) -> None:
        starting = self._starting
        if starting is not None:
            with contextlib.suppress(Exception):
                starting.result()
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

    def _start_again(self, broken: ProcessPoolExecutor) -> None:
        """Replace a broken pool, starting the new one in a thread (once, however many calls
        saw it break)."""
        with self._lock:
            if self._executor is not broken:
                return
            self._executor = None
            starting: Future[None] = Future()
            self._starting = starting
        broken.shutdown(wait=False, cancel_futures=True)

        def start() -> None:
            try:
                self.start()
            except BaseException as error:  # said to the calls that wait for it
                starting.set_exception(error)
            else:
                starting.set_result(None)
            finally:
                self._starting = None

        threading.Thread(target=start, name="compute-pool-start", daemon=True).start()


def _child(parent: int, immediate: bool) -> None:
    end_with_parent(parent, immediate)
    # Ctrl-C reaches the whole process group: the worker stops its pool in order, so the
    # compute processes must not die of it first (and print tracebacks).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
