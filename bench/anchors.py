"""Anchor speed: anchors and their survival on the largest sample, against one `compact` call.

What the explorer pays for the anchors table, retention curve and stage losses once it has the
result. The finder takes no parameter, so it runs once per conversation: the explorer keeps what
it found (explorer/session/cache.py) and the finder itself remembers the last few conversations
by their contents (compactor/analyses/anchors/_memo.py). Every later parameter change (a budget
moved, a stage's parameter changed) pays only the survival: each anchor's fate and its survival
budget read from the new result and its budget sweep (no run per budget).

Target: **per parameter change**, anchors + survival at most 0.5 times one `compact` (the
explorer compacts again on every change, and this is what the anchors add to it). The first call
on a conversation (find + survival, nothing remembered) is printed beside it and is not held to
the target: it is paid once per conversation, when it is opened. Printed: both ratios; the parts
(find alone on a first call; survival per change, by the explorer's path, which hands the anchors
it keeps back in, and by `anchor_report(result)` alone, which finds them remembered), averaged
over several parameter settings (budgets, max_message_chars, keep_last_n) so no figure is a
repeat of one request; `compact`; and the finder's plain scan that the tests check it against.
Medians over interleaved rounds, so machine noise hits every measurement alike. Like
bench/engine.py it reports and exits 0 either way: a verdict on a shared, busy machine is for a
person to read, not for CI to fail on.

    python -m bench.anchors    # from the project root
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from bench.sweep import biggest_request
from compactor import compact, run, validate
from compactor.analyses._sweeps import BudgetSweep, budget_sweep
from compactor.analyses.anchors import _finder as anchor_finder
from compactor.analyses.anchors._finder import forget_found_anchors
from compactor.analyses.anchors._report import Anchor, anchor_report, find_anchors
from compactor.engine._result import CompactionResult

ROUNDS = 15
TARGET = 0.5
#: Parameter changes a person makes in the explorer, one request each over the same messages.
CHANGES = (
    {},
    {"budget_chars": 4_000},
    {"budget_chars": 60_000},
    {"budget_chars": 400_000},
    {"max_message_chars": 300},
    {"keep_last_n": 6},
)


def medians(tasks: dict[str, Callable[[], float]]) -> dict[str, float]:
    """Median seconds of each task (each returns the seconds it measured), interleaved."""
    for task in tasks.values():  # warm up
        task()
    times: dict[str, list[float]] = {name: [] for name in tasks}
    for _ in range(ROUNDS):
        for name, task in tasks.items():
            times[name].append(task())
    return {name: statistics.median(t) for name, t in times.items()}


def timed(call: Callable[[], object], before: Callable[[], object] = lambda: None) -> float:
    """Seconds ``call`` takes, after an untimed ``before``."""
    before()
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def per_change(call: Callable[[CompactionResult, BudgetSweep], object], runs) -> float:
    """Mean seconds of ``call`` over the parameter settings of ``runs``."""
    start = time.perf_counter()
    for result, sweep in runs:
        call(result, sweep)
    return (time.perf_counter() - start) / len(runs)


def main() -> None:
    label, request = biggest_request()
    runs = []
    for change in CHANGES:
        result = run(validate({**request, **change}))
        runs.append((result, budget_sweep(result)))
    result, sweep = runs[0]
    contents = result.request.contents
    anchors = find_anchors(contents)
    text, _ = anchor_finder.joined(contents)
    occurrences = sum(len(a.occurrences) for a in anchors)

    def found() -> tuple[Anchor, ...]:  # what the explorer keeps: the finder's remembered tuple
        return find_anchors(contents)

    t = medians(
        {
            "compact": lambda: timed(lambda: compact(request)),
            "first call (find + survival)": lambda: timed(
                lambda: anchor_report(result, sweep=sweep), forget_found_anchors
            ),
            "find alone, first call": lambda: timed(
                lambda: find_anchors(contents), forget_found_anchors
            ),
            "per change, explorer's path": lambda: per_change(
                lambda r, s: anchor_report(r, anchors=found(), sweep=s), runs
            ),
            "per change, anchor_report(r)": lambda: per_change(
                lambda r, s: anchor_report(r, sweep=s), runs
            ),
            "finder's matches": lambda: timed(lambda: anchor_finder.find_matches(text)),
            "finder's plain scan": lambda: timed(lambda: anchor_finder.find_matches_plainly(text)),
        }
    )
    chars = result.totals.input
    print(f"largest request ({label}): {len(request['messages'])} messages, {chars:,} characters")
    print(f"  {len(anchors):,} anchors, {occurrences:,} occurrences; {ROUNDS} rounds;")
    print(f"  per change: the mean over {len(CHANGES)} parameter settings")
    for name, seconds in t.items():
        print(f"  {name + ' median:':38}{seconds * 1000:9.2f} ms")
    base = t["compact"]
    ratio = t["per change, explorer's path"] / base
    verdict = f"target <= {TARGET}: {'meets' if ratio <= TARGET else 'misses'}"
    for name, value, note in (
        ("per change (explorer's path) / compact", ratio, verdict),
        ("per change, anchor_report(r) / compact", t["per change, anchor_report(r)"] / base, ""),
        ("first call (find + survival) / compact", t["first call (find + survival)"] / base, ""),
        ("find alone, first call / compact", t["find alone, first call"] / base, ""),
        ("plain scan / finder's matches", t["finder's plain scan"] / t["finder's matches"], ""),
    ):
        print(f"  {name + ':':42}{value:6.2f}  {note}".rstrip())


if __name__ == "__main__":
    main()
