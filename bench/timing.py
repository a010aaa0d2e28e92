"""What the benchmarks share: tasks timed in interleaved rounds, each task's median."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def medians(tasks: dict[str, Callable[[], object]], rounds: int) -> dict[str, float]:
    """Each task's median seconds over ``rounds`` rounds that run every task in turn (after one
    warm-up call each), so that a drift of the machine's speed touches all of them alike."""
    for task in tasks.values():
        task()
    times: dict[str, list[float]] = {name: [] for name in tasks}
    for _ in range(rounds):
        for name, task in tasks.items():
            start = time.perf_counter()
            task()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(t) for name, t in times.items()}
