"""The agent mode at the size of real coding-agent sessions (issue 35, item 5).

For histories of 250,000, 1,000,000 and 2,000,000 characters (250, 1,000 and 2,000 messages of
about 1,000 characters: prose, code and tool output mixed, as ``bench.engine`` builds them),
the median of interleaved rounds of ``compact(request, limits="agent")`` against one plain
tokenization pass over the same text (the engine bench's bar: at most 1.5 x), and the median of
each round's ratio, so that the machine's noise is seen; the ratio should not grow with size.
The same for 20,000 tiny messages (a few words each, many repeated: "ok", "exit 0", a line of
a log), whose pairs are many while the text is short. Then, on the 1,000,000-character history:
the strategy lineup (every registered strategy at the same budget) against one compact (goal at
most 3 x) with each strategy's seconds, and peak memory of a compact in a fresh process
(tracemalloc; goal at most 50 MB per million characters). Last, the import of the largest
shared Claude Code session (about 4 MB; goal at most 1 s).

    python -m bench.agent_scale    # from the project root
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench.engine import tokenize
from bench.prose import largest_request
from compactor import compact

REAL_COMPACTIONS = Path(__file__).resolve().parent.parent.parent / "shared" / "real-compactions"
SIZES = (250_000, 1_000_000, 2_000_000)
ROUNDS = 5


def history(chars: int, seed: int = 7) -> dict:
    """About ``chars`` characters in messages of about 1,000, from the engine bench's prose."""
    rng = random.Random(seed)
    pieces = [m["content"] for m in largest_request()["messages"]]
    roles = ("user", "assistant", "tool", "assistant")
    messages, total = [], 0
    while total < chars:
        text = rng.choice(pieces)
        start = rng.randrange(max(1, len(text) - 1000))
        content = text[start : start + 1000].strip() or "ok"
        messages.append({"role": roles[len(messages) % 4], "content": content})
        total += len(content)
    return {"messages": messages, "budget_chars": chars // 4}


TINY = 20_000
_SHORT = ("ok", "Ok.", "yes", "continue", "exit 0", "Done.", "thanks!", "[]", "{}", "", "y")


def tiny_history(count: int = TINY, seed: int = 11) -> dict:
    """``count`` tiny messages: half short replies that repeat, half a few words of the engine
    bench's prose (up to about 60 characters)."""
    rng = random.Random(seed)
    pieces = [m["content"] for m in largest_request()["messages"]]
    roles = ("user", "assistant", "tool", "assistant")
    messages = []
    for k in range(count):
        if rng.random() < 0.5:
            content = rng.choice(_SHORT) or "ok"
        else:
            text = rng.choice(pieces)
            start = rng.randrange(max(1, len(text) - 60))
            content = text[start : start + rng.randint(5, 60)].strip() or "ok"
        messages.append({"role": roles[k % 4], "content": content})
    total = sum(len(m["content"]) for m in messages)
    return {"messages": messages, "budget_chars": total // 4}


def ratio_rounds(request: dict) -> tuple[float, float, float]:
    """Median compact seconds, median tokenization seconds, median per-round ratio."""
    contents = [m["content"] for m in request["messages"]]
    compact(request, limits="agent")  # warm-up
    tokenize(contents)
    times, passes, ratios = [], [], []
    for k in range(ROUNDS):
        pair = []
        for task in (lambda: compact(request, limits="agent"), lambda: tokenize(contents))[
            :: 1 if k % 2 else -1
        ]:
            start = time.perf_counter()
            task()
            pair.append(time.perf_counter() - start)
        spent, passed = pair if k % 2 else pair[::-1]
        times.append(spent)
        passes.append(passed)
        ratios.append(spent / passed)
    return statistics.median(times), statistics.median(passes), statistics.median(ratios)


def lineup_ratio(request: dict) -> tuple[float, float, dict[str, float]]:
    """Seconds of the whole lineup, of one compact, and of each strategy alone; after one
    lineup on a small history, so that no figure holds an import (langchain-core, bm25s)."""
    from compactor.input import validate
    from compactor.strategies import compare_strategies

    warm = compare_strategies(validate(history(20_000), limits="agent"))  # imports, first calls
    typed = validate(request, limits="agent")
    start = time.perf_counter()
    compact(request, limits="agent")
    one = time.perf_counter() - start
    start = time.perf_counter()
    compare_strategies(typed)
    whole = time.perf_counter() - start
    each = {}
    for name in (result.key for result in warm.results):
        start = time.perf_counter()
        compare_strategies(typed, strategies=[name])
        each[name] = time.perf_counter() - start
    return whole, one, each


PEAK = """
import json, sys, tracemalloc
from bench.agent_scale import history, tiny_history
from compactor import compact
size = int(sys.argv[1])
request = history(size) if size else tiny_history()
compact(history(1000), limits="agent")  # imports and first-call allocations
tracemalloc.start()
compact(request, limits="agent")
print(json.dumps(tracemalloc.get_traced_memory()[1] / 2**20))
"""


def peak_mb(chars: int) -> float:
    """Peak memory allocated during one compact (tracemalloc, which numpy reports to), in a
    fresh process; ``chars`` 0 for the tiny messages."""
    done = subprocess.run(
        [sys.executable, "-c", PEAK, str(chars)], capture_output=True, text=True, check=True
    )
    return float(json.loads(done.stdout))


def import_seconds() -> tuple[str, float]:
    from compactor.formats import convert_text

    path = max(REAL_COMPACTIONS.glob("*.jsonl"), key=lambda p: p.stat().st_size)
    data = path.read_bytes()
    times = []
    for _ in range(3):
        start = time.perf_counter()
        convert_text(data)
        times.append(time.perf_counter() - start)
    return f"{path.name} ({len(data) / 1e6:.1f} MB)", statistics.median(times)


def main() -> None:
    print(f"compact (agent mode) / one tokenization pass, median of {ROUNDS} interleaved rounds")
    for chars in SIZES:
        request = history(chars)
        spent, passed, ratio = ratio_rounds(request)
        print(
            f"  {chars:>9,} chars, {len(request['messages']):>5} messages: compact {spent:.3f} s,"
            f" pass {passed:.3f} s, ratio {ratio:.2f} (target <= 1.5)"
        )
    request = tiny_history()
    chars = sum(len(m["content"]) for m in request["messages"])
    spent, passed, ratio = ratio_rounds(request)
    print(
        f"  {chars:>9,} chars, {TINY:,} tiny messages: compact {spent:.3f} s,"
        f" pass {passed:.3f} s, ratio {ratio:.2f} (target <= 1.5)"
    )
    peak = peak_mb(0)
    print(
        f"peak memory allocated by compact, {TINY:,} tiny messages ({chars:,} chars): {peak:.0f}"
        f" MB ({peak / (chars / 1e6):.0f} MB per million chars, goal <= 50)"
    )
    request = history(1_000_000)
    lineup, one, each = lineup_ratio(request)
    print(f"lineup on 1,000,000 chars: {lineup:.2f} s = {lineup / one:.1f} x one compact (goal 3)")
    print("  " + ", ".join(f"{name} {seconds:.2f} s" for name, seconds in each.items()))
    for chars in SIZES:
        peak = peak_mb(chars)
        print(
            f"peak memory allocated by compact, {chars:,} chars: {peak:.0f} MB"
            f" ({peak / (chars / 1e6):.0f} MB per million chars, goal <= 50)"
        )
    name, seconds = import_seconds()
    print(f"import of {name}: {seconds:.2f} s (goal <= 1)")


if __name__ == "__main__":
    main()
