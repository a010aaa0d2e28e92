"""Compute processes: large requests run outside the event loop's process.

Parsing a 4 MiB body alone holds the GIL for about 0.1 s in one C call, so neither the event
loop nor a thread could answer ``/healthz`` meanwhile: large bodies go to a small pool of
processes instead (the event loop only reads the body and writes the answer). Each worker has
its own pool, as large as the machine has cores, so that one worker whose connections carry
all the large requests still uses every core.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from compactor.service.handling import ready

T = TypeVar("T")


def default_processes() -> int:
    """One compute process per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class ComputePool:
    """``processes`` compute processes (none: everything runs in the caller's process)."""

    def __init__(self, processes: int):
        self.processes = processes
        self._executor: ProcessPoolExecutor | None = None

    @property
    def running(self) -> bool:
        return self._executor is not None

    def start(self) -> None:
        """Start every process and wait until each has imported the engine."""
        if self.processes < 1 or self._executor is not None:
            return
        self._executor = ProcessPoolExecutor(
            self.processes,
            mp_context=multiprocessing.get_context("spawn"),  # never fork a running event loop
            initializer=_quiet,
        )
        for future in [self._executor.submit(ready) for _ in range(self.processes)]:
            future.result()

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in a compute process (in place when there are none)."""
        if self._executor is None:
            return function(*args)
        executor = self._executor
        try:
            return await asyncio.get_running_loop().run_in_executor(executor, function, *args)
        except BrokenProcessPool:  # a process died (killed, out of memory): start afresh
            if self._executor is executor:
                self._executor = None
                executor.shutdown(wait=False, cancel_futures=True)
                self.start()
            raise

    def stop(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None


def _quiet() -> None:
    # Ctrl-C reaches the whole process group: the worker stops its pool in order, so the
    # compute processes must not die of it first (and print tracebacks).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
