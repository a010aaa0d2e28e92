"""One corpus judged under many settings, one call after another (a tuner's trials): the same
rows as :func:`~compactor.evaluation.evaluate_strategy`, with each conversation's
parameter-free parts (its validation, anchors, past and needs) found once per worker and kept
for every later call, so a trial costs the strategy's runs alone.

The workers live as long as the evaluation: processes started once, each given its own share of
the corpus once (a contiguous run of conversations, the shares about equal in characters) and
always running that share, so each conversation is prepared by one process only and the texts
it remembers (:func:`~compactor.text.salient_terms`) are those it sees again; they end with the
process that started them. Or Ray actors, each holding the conversations it always runs.
Rows come back in corpus order, so they are the same, in the same order, whatever the backend
and workers.

>>> from compactor.evaluation import CorpusItem
>>> items = [CorpusItem(0, {"messages": [{"role": "user", "content": "Ship DE-4471."},
...     {"role": "assistant", "content": "Noted."}], "budget_chars": 100})]
>>> with RepeatedEvaluation(items, future=None, workers=1) as judged:
...     [r["budget_met"] for r in judged.rows("keep-last", {}, 100)]
[True]
"""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from compactor.errors import InvalidRequest, Problem
from compactor.evaluation._corpus import CorpusItem
from compactor.evaluation._pool import default_workers
from compactor.evaluation._strategy_rows import (
    PreparedConversation,
    prepare_conversation,
    prepared_rows,
)
from compactor.processes import end_with_parent, parent_watch
from compactor.strategies import get_strategy, require_strategy_available

#: Chunks per worker in one call: enough to even out conversations of unequal size.
CHUNKS_PER_WORKER = 4


class _Held:
    """A worker's corpus and the conversations it prepared (each once, on first use)."""

    def __init__(self, items: Sequence[CorpusItem], future: int | None):
        self.items = list(items)
        self.future = future
        self.prepared: dict[int, PreparedConversation | tuple[Problem, ...]] = {}

    def rows(
        self, name: str, params: Mapping[str, Any], budget: int, indices: Sequence[int]
    ) -> list[tuple[list[dict[str, Any]], tuple[Problem, ...]]]:
        strategy = get_strategy(name)
        out = []
        for k in indices:
            if k not in self.prepared:
                try:
                    self.prepared[k] = prepare_conversation(self.items[k], self.future)
                except InvalidRequest as error:
                    named = f"(conversation {self.items[k].conversation!r})"
                    self.prepared[k] = tuple(
                        Problem(f"{p.message} {named}", p.path, p.line, p.column)
                        for p in error.problems
                    )
            found = self.prepared[k]
            if isinstance(found, tuple):
                out.append(([], found))
            else:
                out.append((prepared_rows(found, strategy, [dict(params)], [budget]), ()))
        return out


_WORKER: _Held | None = None  # the corpus a pool worker holds (set by its initializer)


def _start_worker(items: Sequence[CorpusItem], future: int | None, watch: tuple) -> None:
    global _WORKER
    end_with_parent(*watch)
    _WORKER = _Held(items, future)


def _worker_rows(name: str, params: Mapping[str, Any], budget: int, indices: Sequence[int]):
    assert _WORKER is not None
    return _WORKER.rows(name, params, budget, indices)


def shares(items: Sequence[CorpusItem], workers: int) -> list[list[int]]:
    """The conversations' indices cut into ``workers`` contiguous shares (none empty) of about
    equal characters, in corpus order.

    >>> [len(s) for s in shares([CorpusItem(k, {"messages": [{"content": "x" * n}]})
    ...     for k, n in enumerate([9, 1, 1, 1, 1, 1, 1, 1, 1, 1])], 2)]
    [1, 9]
    """
    sizes = [sum(len(str(m.get("content") or "")) for m in i.request["messages"]) for i in items]
    total = sum(sizes) or 1
    n = max(1, min(workers, len(items)))
    out: list[list[int]] = [[] for _ in range(n)]
    seen = last = 0
    for k, size in enumerate(sizes):
        want = min(n - 1, int((seen + size / 2) * n / total))  # where its middle falls
        at = min(max(want, last), last + 1 if out[last] else last)  # contiguous, none skipped
        at = max(at, n - (len(items) - k))  # the conversations left fill the shares left
        out[at].append(k)
        seen, last = seen + size, at
    return [share for share in out if share]


class RepeatedEvaluation:
    """``items`` judged again and again: :meth:`rows` of one setting at one budget, in corpus
    order, on ``workers`` processes (1: this process; None: one per core) or Ray actors
    (``backend="ray"``, at ``address`` or a new local instance). Close it (or use ``with``)
    to end the workers."""

    def __init__(
        self,
        items: Sequence[CorpusItem],
        *,
        future: int | None,
        workers: int | None = None,
        backend: str = "local",
        address: str | None = None,
    ):
        self.items = list(items)
        self.workers = max(1, min(workers or default_workers(), len(self.items) or 1))
        self.backend = backend
        self._local: _Held | None = None
        self._pools: list[ProcessPoolExecutor] = []
        self._shares: list[list[int]] = []
        self._actors: list[Any] = []
        self._ray_started = False
        if backend == "ray":
            self._start_ray(future, address)
        elif self.workers == 1:
            self._local = _Held(self.items, future)
        else:
            method = "fork" if threading.active_count() == 1 else "forkserver"
            if method not in multiprocessing.get_all_start_methods():
                method = "spawn"
            self._shares = shares(self.items, self.workers)
            self._pools = [
                ProcessPoolExecutor(
                    max_workers=1,
                    mp_context=multiprocessing.get_context(method),
                    initializer=_start_worker,
                    initargs=([self.items[k] for k in share], future, parent_watch()),
                )
                for share in self._shares
            ]

    def _start_ray(self, future: int | None, address: str | None) -> None:
        from compactor.evaluation._ray_backend import start_ray

        ray, self._ray_started = start_ray(self.workers, address)
        actor = ray.remote(num_cpus=1)(_Held)
        shared = ray.put(self.items)
        self._actors = [actor.remote(shared, future) for _ in range(self.workers)]

    def chunks(self) -> list[list[int]]:
        """The conversations' indices in corpus order, cut into chunks (each always the same)."""
        count = min(len(self.items), self.workers * CHUNKS_PER_WORKER) or 1
        size = -(-len(self.items) // count)
        return [
            list(range(k, min(k + size, len(self.items)))) for k in range(0, len(self.items), size)
        ]

    def rows(self, name: str, params: Mapping[str, Any], budget: int) -> list[dict[str, Any]]:
        """Every conversation's row of the strategy registered as ``name`` with ``params`` at
        ``budget``, in corpus order. Raises InvalidRequest naming a conversation that is not a
        valid request, StrategyUnavailable for a strategy whose extra is missing."""
        require_strategy_available(name)
        chunks = self.chunks()
        if self._local is not None:
            parts = [self._local.rows(name, params, budget, c) for c in chunks]
        elif self._actors:
            import ray

            refs = [
                self._actors[k % len(self._actors)].rows.remote(name, dict(params), budget, c)
                for k, c in enumerate(chunks)
            ]
            parts = ray.get(refs)
        else:
            futures = [
                pool.submit(_worker_rows, name, dict(params), budget, range(len(share)))
                for pool, share in zip(self._pools, self._shares, strict=True)
            ]
            parts = [f.result() for f in futures]
        rows: list[dict[str, Any]] = []
        for part in parts:
            for found, problems in part:
                if problems:
                    raise InvalidRequest(list(problems))
                rows.extend(found)
        return rows

    def close(self) -> None:
        for pool in self._pools:
            pool.shutdown(wait=True, cancel_futures=True)
        self._pools = []
        if self._actors:
            import ray

            for actor in self._actors:
                ray.kill(actor)
            self._actors = []
            if self._ray_started:
                ray.shutdown()

    def __enter__(self) -> RepeatedEvaluation:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
