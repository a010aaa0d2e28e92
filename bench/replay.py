"""Replay speed: the memory-compact replay of the largest sample, against one `compact` of it.

The replay (``python -m compactor replay``'s work: validate, then 199 turns, each compacting the
carried history plus the next message, policy ``always``) runs back to back with one `compact`
of the full request, in alternating order, for several rounds; the median of the rounds'
ratios is the figure, so machine noise hits both alike (each round's ratio is printed, in wall
time and in CPU time, which other work on a shared machine changes less). Target: ratio <= 3;
goal 1.5.

Then the Replay page (``pages/replay.py``, in Streamlit's AppTest, the script run in this
process) on the largest sample: the server time of a rerun after a move of budget_chars (its
two default loops replayed anew, drift over every anchor; the anchors are found once per
conversation), median of a few moves. Target: <= 0.5 s.

    python -m bench.replay [--no-page]    # from the project root
"""

from __future__ import annotations

import statistics
import sys
import time

from compactor import compact, validate
from compactor.analyses.replay._strategies import replay_request
from compactor.samples import load_sample

ROUNDS = 15
TARGET, GOAL = 3.0, 1.5


def main() -> None:
    request = load_sample("largest").request
    tasks = {
        "replay": lambda: replay_request(validate(request), "memory-compact", policy="always"),
        "compact": lambda: compact(request),
    }
    result = tasks["replay"]()
    tasks["compact"]()  # warm up
    times: dict[str, list[float]] = {name: [] for name in tasks}
    cpu: dict[str, list[float]] = {name: [] for name in tasks}
    ratios, cpu_ratios = [], []
    for k in range(ROUNDS):
        order = list(tasks) if k % 2 == 0 else list(reversed(tasks))
        for name in order:
            start, start_cpu = time.perf_counter(), time.process_time()
            tasks[name]()
            times[name].append(time.perf_counter() - start)
            cpu[name].append(time.process_time() - start_cpu)
        ratios.append(times["replay"][-1] / times["compact"][-1])
        cpu_ratios.append(cpu["replay"][-1] / cpu["compact"][-1])
    compacted = sum(t.compacted for t in result.turns)
    chars = sum(len(m["content"]) for m in request["messages"])
    print(f"largest sample: {len(request['messages'])} messages, {chars:,} characters")
    print(f"  {len(result.turns)} turns, {compacted} compacted; {ROUNDS} interleaved rounds")
    for name, spent in times.items():
        print(
            f"  {name} median: {statistics.median(spent) * 1000:9.1f} ms wall, "
            f"{statistics.median(cpu[name]) * 1000:9.1f} ms CPU"
        )
    print("  each round's ratio (wall): " + " ".join(f"{r:.2f}" for r in ratios))
    print("  each round's ratio (CPU):  " + " ".join(f"{r:.2f}" for r in cpu_ratios))
    ratio = statistics.median(ratios)
    print(
        f"  ratio replay/compact (median of rounds): {ratio:.2f} wall, "
        f"{statistics.median(cpu_ratios):.2f} CPU  (target <= {TARGET}, goal {GOAL})"
    )
    if "--no-page" not in sys.argv:
        page_figure()


PAGE_TARGET = 0.5
BUDGETS = (110_000, 100_000, 90_000, 80_000, 70_000)


def page_figure() -> None:
    from harness.apptest import assert_clean, goto, set_param, start

    at = goto(start({"sample": "largest"}), "pages/replay.py")  # anchors found, first replays
    assert_clean(at)
    spent = []
    for budget in BUDGETS:
        begin = time.perf_counter()
        set_param(at, "budget_chars", budget)
        spent.append(time.perf_counter() - begin)
        assert_clean(at)
    print(
        f"Replay page, largest sample, rerun after a budget_chars move (median of {len(BUDGETS)}): "
        f"{statistics.median(spent):.2f} s  (target <= {PAGE_TARGET} s)"
    )


if __name__ == "__main__":
    main()
