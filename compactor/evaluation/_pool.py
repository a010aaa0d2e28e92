"""The local backend: a process pool whose workers end with it, and whose killed worker's
conversations run again.

Work goes to the pool conversation by conversation, with a bounded window in flight, and comes
back in corpus order. Every worker ends with the process that started the pool
(:func:`compactor.processes.end_with_parent`), so a killed ``evaluate`` leaves none behind. A
worker that dies (killed, or out of memory) breaks the pool: a new pool takes over, and the
conversations that were in flight run again, each at most :data:`RETRIES` more time. A
conversation in flight when a pool breaks once more is run alone in a pool of its own: only one
that kills its worker there too is an error that names it (another in flight beside the culprit
dies with the pool but is not blamed).
"""

from __future__ import annotations

import itertools
import logging
import multiprocessing
import os
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from compactor.errors import Problem, ProblemError
from compactor.evaluation._corpus import CorpusItem
from compactor.evaluation._rows import ConversationRows
from compactor.processes import end_with_parent, parent_watch

#: Chunks in flight per worker: enough to keep every worker busy, few enough to bound memory.
IN_FLIGHT_PER_WORKER = 4
#: How many more times a conversation in flight when a worker died runs.
RETRIES = 1

_log = logging.getLogger(__name__)


class WorkerDied(ProblemError):
    """A worker died while evaluating a conversation that had been run again already."""


def default_workers() -> int:
    """One worker per core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def local_rows(
    items: Iterable[CorpusItem], task: Callable[[CorpusItem], ConversationRows], workers: int | None
) -> Iterator[ConversationRows]:
    """``task`` of every item, in order: in this process for one worker (or one item), else on
    a process pool with a bounded window of chunks in flight (the items are read as they go)."""
    workers = workers or default_workers()
    queue = iter(items)
    first = list(itertools.islice(queue, 2))
    if workers == 1 or len(first) < 2:
        yield from map(task, itertools.chain(first, queue))
        return
    pool = _Pool(workers, task)
    try:
        for item in itertools.chain(first, queue):
            pool.submit(item)
            if len(pool.pending) >= workers * IN_FLIGHT_PER_WORKER:
                yield pool.next()
        while pool.pending:
            yield pool.next()
    finally:
        pool.close()


class _Pool:
    """A process pool and the conversations in flight on it, in order; started afresh when a
    worker dies, with the conversations in flight sent again."""

    def __init__(self, workers: int, task: Callable[[CorpusItem], ConversationRows]):
        self.workers = workers
        self.task = task
        self.context = multiprocessing.get_context(_start_method())
        if self.context.get_start_method() == "forkserver":
            self.context.set_forkserver_preload(["compactor.evaluation._rows"])
        self.pending: deque[tuple[CorpusItem, int, Future[ConversationRows]]] = deque()
        self.executor = self._start()

    def submit(self, item: CorpusItem, runs: int = 0) -> None:
        try:
            future = self.executor.submit(self.task, item)
        except BrokenProcessPool as broken:
            # A worker died before this conversation was sent: ``next`` meets the broken pool
            # in order and starts a new one. Never run, its run on the new pool is not a retry.
            future = Future()
            future.set_exception(broken)
            runs -= 1
        self.pending.append((item, runs, future))

    def next(self) -> ConversationRows:
        """The outcome of the first conversation in flight."""
        while True:
            item, runs, future = self.pending[0]
            try:
                outcome = future.result()
            except BrokenProcessPool:
                self._again(item, runs)
                continue
            self.pending.popleft()
            return outcome

    def close(self) -> None:
        for _, _, future in self.pending:  # stopped early (an error, or the reader closed us)
            future.cancel()
        self.executor.shutdown(wait=True, cancel_futures=True)

    def _again(self, item: CorpusItem, runs: int) -> None:
        if runs >= RETRIES:
            # it may only have been in flight beside the culprit: alone, it dies or it is done
            done: Future = Future()
            done.set_result(self._alone(item))
            self.pending[0] = (item, runs, done)
            return
        _log.warning(
            "a worker process died (killed, or out of memory?): its pool starts again, and the "
            "%d conversations in flight run again, from %r",
            len(self.pending),
            item.conversation,
        )
        self.executor.shutdown(wait=True, cancel_futures=True)  # its threads end before a fork
        self.executor = self._start()
        again = list(self.pending)
        self.pending.clear()
        for waiting, times, _ in again:
            self.submit(waiting, times + 1)

    def _alone(self, item: CorpusItem) -> ConversationRows:
        """``item`` run in a pool of its own; :class:`WorkerDied` naming it when its worker
        dies there too."""
        solo = self._start(workers=1)
        try:
            return solo.submit(self.task, item).result()
        except BrokenProcessPool:
            raise WorkerDied(
                [
                    Problem(
                        f"a worker process died evaluating conversation {item.conversation!r}, "
                        f"run again {RETRIES} time{'s' * (RETRIES != 1)} already, the last alone "
                        "(killed, or out of memory?)"
                    )
                ]
            ) from None
        finally:
            solo.shutdown(wait=True, cancel_futures=True)

    def _start(self, workers: int | None = None) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=workers or self.workers,
            mp_context=self.context,
            initializer=end_with_parent,
            initargs=parent_watch(),
        )


def _start_method() -> str:
    """``fork`` (no start cost, no re-import of the main script) in a process without other
    threads; else ``forkserver`` (a thread holding a lock when forking could deadlock the
    child), which like ``spawn`` imports the main script: guard it with ``__main__``."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"
