"""Engine speed: one `compact` call on the largest valid request, against one tokenization pass.

Prints the median time of each over the same runs (interleaved, so machine noise hits both) and
their ratio. Target: ratio <= 2.0; goal 1.3.
"""

from __future__ import annotations

import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.prose import largest_request  # noqa: E402
from compactor import compact  # noqa: E402

ROUNDS = 21


def tokenize(contents: list[str]) -> list[list[str]]:
    return [re.findall(r"[^\W_]+", m.lower()) for m in contents]


def non_ascii(request: dict) -> dict:
    """The same request with typographic quotes and accents, as real model output has."""
    swaps = {" the ": " the “", ". ": "” café. ", "was ": "wasn’t "}
    messages = []
    for m in request["messages"]:
        content = m["content"]
        for old, new in swaps.items():
            content = content.replace(old, new, 40)
        messages.append({**m, "content": content[:8000]})
    return {**request, "messages": messages}


def measure(label: str, request: dict) -> None:
    contents = [m["content"] for m in request["messages"]]
    compact(request), tokenize(contents)  # warm up caches and imports
    engine, baseline = [], []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        compact(request)
        engine.append(time.perf_counter() - start)
        start = time.perf_counter()
        tokenize(contents)
        baseline.append(time.perf_counter() - start)
    t_engine, t_base = statistics.median(engine), statistics.median(baseline)
    chars = sum(map(len, contents))
    print(f"{label}: {len(contents)} messages, {chars:,} characters; {ROUNDS} rounds")
    print(f"  compact median:       {t_engine * 1000:8.2f} ms")
    print(f"  tokenization median:  {t_base * 1000:8.2f} ms")
    print(f"  ratio compact/tokenization: {t_engine / t_base:.2f}  (target <= 2.0, goal 1.3)")


def main() -> None:
    request = largest_request()
    measure("largest request, ASCII prose", request)
    # ASCII text takes a faster word split; this shows the cost when every message has non-ASCII.
    measure("largest request, every message non-ASCII", non_ascii(request))


if __name__ == "__main__":
    main()
