"""Replay speed: the memory-compact replay of the largest sample, against one `compact` of it.

The replay (``python -m compactor replay``'s work: validate, then 199 turns, each compacting the
carried history plus the next message, policy ``always``) runs back to back with one `compact`
of the full request, in alternating order, for several rounds; the median of the rounds'
ratios is the figure, so machine noise hits both alike. Target: ratio <= 3; goal 1.5.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from compactor import compact, validate  # noqa: E402
from compactor.analyses.replay_strategies import replay_request  # noqa: E402
from compactor.samples import load_sample  # noqa: E402

ROUNDS = 9
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
    ratios = []
    for k in range(ROUNDS):
        order = list(tasks) if k % 2 == 0 else list(reversed(tasks))
        for name in order:
            start = time.perf_counter()
            tasks[name]()
            times[name].append(time.perf_counter() - start)
        ratios.append(times["replay"][-1] / times["compact"][-1])
    compacted = sum(t.compacted for t in result.turns)
    chars = sum(len(m["content"]) for m in request["messages"])
    print(f"largest sample: {len(request['messages'])} messages, {chars:,} characters")
    print(f"  {len(result.turns)} turns, {compacted} compacted; {ROUNDS} interleaved rounds")
    for name, spent in times.items():
        print(f"  {name} median: {statistics.median(spent) * 1000:9.1f} ms")
    ratio = statistics.median(ratios)
    print(
        f"  ratio replay/compact (median of rounds): {ratio:.2f}  (target <= {TARGET}, goal {GOAL})"
    )


if __name__ == "__main__":
    main()
