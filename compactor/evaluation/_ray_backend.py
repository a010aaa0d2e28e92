"""The Ray backend: the same per-conversation work as the process pool, as Ray tasks.

Ray is the optional ``ray`` extra. With an ``address`` (``auto``, or ``ray://HOST:10001``) the
tasks run on that cluster, whose nodes must have this package installed; without one, on the
Ray instance this process already started, else on a new local instance (one CPU per worker,
no dashboard, no usage report, every process listening on 127.0.0.1 only) that is shut down at
the end. Conversations go in batches, so a task is a few milliseconds of work rather than well
under one, and come back in corpus order.
"""

from __future__ import annotations

import functools
import itertools
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from compactor.evaluation._corpus import CorpusItem
from compactor.evaluation._rows import outcome
from compactor.wording import install_command

INSTALL_HINT = f"the ray backend needs the ray extra: {install_command('ray')}"
#: Where a local instance listens, and Ray's switch that keeps a single machine on it.
LOOPBACK, LOOPBACK_SWITCH = "127.0.0.1", "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
#: Conversations per Ray task.
BATCH = 8
#: Batches in flight per CPU of the cluster.
IN_FLIGHT_PER_CPU = 4


class BackendUnavailable(RuntimeError):
    """The backend's library is not installed; the message says how to install it."""


def ray_available() -> bool:
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def _batch(items: Sequence[CorpusItem], task: Callable[[CorpusItem], Any]) -> list[Any]:
    return [task(item) for item in items]


def ray_rows(
    items: Iterable[CorpusItem],
    settings: Sequence[Mapping[str, Any]],
    budgets: Sequence[int] | None,
    encoding: str | None,
    workers: int | None,
    address: str | None,
    future: int | None = None,
    probe_columns: bool = False,
) -> Iterator[Any]:
    """The outcome of every item, in order, computed by Ray tasks (the items read as they go)."""
    task = functools.partial(
        outcome,
        settings=list(settings),
        budgets=budgets,
        encoding=encoding,
        future=future,
        probe_columns=probe_columns,
    )
    return ray_map(items, task, workers, address)


def ray_map(
    items: Iterable[CorpusItem],
    task: Callable[[CorpusItem], Any],
    workers: int | None,
    address: str | None,
) -> Iterator[Any]:
    """``task`` of every item, in order, computed by Ray tasks in batches (the items read as
    they go): what the process pool's ``local_rows`` does, on Ray."""
    try:
        import ray
    except ImportError:
        raise BackendUnavailable(INSTALL_HINT) from None
    batches = _batches(iter(items))
    first = next(batches, None)
    if first is None:
        return
    ray, started = start_ray(workers, address)
    try:
        remote = ray.remote(num_cpus=1)(_batch)
        shared = ray.put(task)
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        window = cpus * IN_FLIGHT_PER_CPU
        pending: deque[Any] = deque()
        for batch in itertools.chain([first], batches):
            pending.append(remote.remote(batch, shared))
            if len(pending) >= window:
                yield from ray.get(pending.popleft())
        while pending:
            yield from ray.get(pending.popleft())
    finally:
        if started:
            ray.shutdown()


def start_ray(workers: int | None, address: str | None) -> tuple[Any, bool]:
    """Ray, initialised: on the instance this process already started, else on the cluster at
    ``address``, else on a new local instance; and whether this call started it (then the
    caller shuts it down)."""
    try:
        import ray
    except ImportError:
        raise BackendUnavailable(INSTALL_HINT) from None
    started = not ray.is_initialized()
    if started:
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        if address is None:
            _start_local(ray, workers)
        else:
            ray.init(address=address, logging_level="ERROR")
    return ray, started


def _start_local(ray: Any, workers: int | None) -> None:
    """A new Ray instance on this machine that only this machine can reach: every one of its
    processes (GCS, raylet, agents, this driver, the workers) listens on 127.0.0.1, and there
    is no dashboard.

    Ray binds its servers to the node's address, and turns a loopback ``_node_ip_address`` into
    the machine's reachable one unless its switch for single-machine use is off: the
    ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER`` variable, read when Ray is imported (so it is given to
    the processes Ray starts, and set on Ray's constants for this one) for as long as the
    instance starts.
    """
    constants = ray._private.ray_constants
    saved = constants.ENABLE_RAY_CLUSTER, os.environ.get(LOOPBACK_SWITCH)
    constants.ENABLE_RAY_CLUSTER = False
    os.environ[LOOPBACK_SWITCH] = "0"
    try:
        ray.init(
            address="local",  # a new instance, even where `ray start` left one running
            _node_ip_address=LOOPBACK,
            num_cpus=workers,
            include_dashboard=False,
            log_to_driver=False,
            logging_level="ERROR",
        )
    finally:
        constants.ENABLE_RAY_CLUSTER = saved[0]
        if saved[1] is None:
            os.environ.pop(LOOPBACK_SWITCH, None)
        else:
            os.environ[LOOPBACK_SWITCH] = saved[1]


def _batches(items: Iterator[CorpusItem]) -> Iterator[list[CorpusItem]]:
    while batch := list(itertools.islice(items, BATCH)):
        yield batch
