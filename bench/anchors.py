"""Anchor speed: anchors and their survival on the largest sample, against one `compact` call.

What the explorer pays for the anchors table, retention curve and stage losses once it has the
result: find every anchor (parameter-free: once per conversation) and read its fate and its
survival budget from the result and the budget sweep (no run per budget). Target: find +
survival at most 0.5 times one `compact`. Printed: the time of each part (find alone, survival
given the anchors found, which is what a parameter change costs, and both together as
`anchor_report` does them), of `compact`, the ratio against the target, and the finder's plain
scan that the tests check it against. Medians over interleaved rounds, so machine noise hits
every measurement alike. Like bench/engine.py it reports and exits 0 either way: a verdict on a
shared, busy machine is for a person to read, not for CI to fail on.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.sweep import biggest_request  # noqa: E402
from compactor import compact, run, validate  # noqa: E402
from compactor.analyses import anchor_finder  # noqa: E402
from compactor.analyses.anchors import anchor_report, find_anchors  # noqa: E402
from compactor.analyses.sweeps import budget_sweep  # noqa: E402

ROUNDS = 15
TARGET = 0.5


def medians(tasks: dict[str, Callable[[], object]]) -> dict[str, float]:
    for task in tasks.values():  # warm up
        task()
    times: dict[str, list[float]] = {name: [] for name in tasks}
    for _ in range(ROUNDS):
        for name, task in tasks.items():
            start = time.perf_counter()
            task()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(t) for name, t in times.items()}


def main() -> None:
    label, request = biggest_request()
    result = run(validate(request))
    sweep = budget_sweep(result)
    anchors = find_anchors(result.request.contents)
    text, _ = anchor_finder.joined(result.request.contents)
    occurrences = sum(len(a.occurrences) for a in anchors)
    t = medians(
        {
            "compact": lambda: compact(request),
            "anchors + survival": lambda: anchor_report(result, sweep=sweep),
            "find (find_anchors)": lambda: find_anchors(result.request.contents),
            "survival, anchors given": lambda: anchor_report(result, anchors=anchors, sweep=sweep),
            "finder's matches": lambda: anchor_finder.find_matches(text),
            "finder's plain scan": lambda: anchor_finder.find_matches_plainly(text),
        }
    )
    chars = result.totals.input
    print(f"largest request ({label}): {len(request['messages'])} messages, {chars:,} characters")
    print(f"  {len(anchors):,} anchors, {occurrences:,} occurrences; {ROUNDS} rounds")
    for name, seconds in t.items():
        print(f"  {name + ' median:':32}{seconds * 1000:9.2f} ms")
    base = t["compact"]
    ratio = t["anchors + survival"] / base
    verdict = "meets" if ratio <= TARGET else "misses"
    print(f"  anchors + survival / compact:      {ratio:6.2f}  (target <= {TARGET}: {verdict})")
    print(f"  find / compact:                    {t['find (find_anchors)'] / base:6.2f}")
    print(f"  survival, anchors given / compact: {t['survival, anchors given'] / base:6.2f}")
    plain = t["finder's plain scan"] / t["finder's matches"]
    print(f"  plain scan / finder's matches:     {plain:6.2f}")


if __name__ == "__main__":
    main()
