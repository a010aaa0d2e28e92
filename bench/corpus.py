"""Corpus evaluation speed: rows per second on 1 and 2 workers, Ray against the process pool.

The corpus (at least 200 conversations): every real conversation (``../shared/corpus`` and
``tests/fixtures/real``), prefixes of them (the first k messages, as an agent's history grows),
and generated ones (the property tests' vocabulary: repeats, CJK, emoji, long runs, 2 to 200
messages). Grid: 4 settings, every budget point of each conversation's sweep. Each backend runs
once to warm up (worker start, Ray's task registration), then ``ROUNDS`` times; the best round
counts, since the machine is shared and noise only slows. Targets: scaling efficiency (rate with
2 workers / twice the rate with 1) >= 0.8; Ray's rate / the process pool's (same 2 CPUs) >= 0.7.
"""

from __future__ import annotations

import os
import random
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from compactor.evaluation import (  # noqa: E402
    CorpusItem,
    evaluate,
    load_corpus,
    settings_grid,
)
from compactor.jsonio import dumps  # noqa: E402
from tests.generate import PIECES  # noqa: E402

ROUNDS = 3
GENERATED = 150
SCALING_TARGET, RAY_TARGET = 0.8, 0.7
GRID = {"keep_last_n": [2, 6], "max_message_chars": [200, 800]}


def corpus() -> list[CorpusItem]:
    real = load_corpus(ROOT.parent / "shared" / "corpus") + load_corpus(
        ROOT / "tests" / "fixtures" / "real"
    )
    items = list(real)
    for item in real:
        messages = item.request["messages"]
        for k in range(2, len(messages), 4):
            request = {**item.request, "messages": messages[:k]}
            items.append(CorpusItem(f"{item.conversation}[:{k}]", request))
    rnd = random.Random(15)
    roles = ("user", "assistant", "tool", "assistant")
    for g in range(GENERATED):
        n = rnd.choice((2, 5, 10, 20, 40, 80, 200))
        messages = [{"role": "system", "content": "You are a careful agent. Order DE-4471."}]
        for k in range(n - 1):
            if k > 2 and rnd.random() < 0.2:  # a repeat, so dedupe has work
                messages.append(dict(rnd.choice(messages[1:])))
                continue
            text = "".join(rnd.choices(PIECES, k=rnd.randint(5, 400)))[:8000].strip() or "ok"
            messages.append({"role": roles[k % len(roles)], "content": text})
        items.append(CorpusItem(f"generated-{g}", {"messages": messages, "budget_chars": 2000}))
    return items


def timed(items, chosen, **options) -> tuple[float, float, list]:
    """Best wall time of the rounds, the CPU seconds (this process and its pool workers) of
    that round, and the rows."""
    best, cpu, rows = float("inf"), 0.0, []
    list(evaluate(items[:20], chosen, **options))  # warm up
    for _ in range(ROUNDS):
        before, start = _cpu(), time.perf_counter()
        rows = list(evaluate(items, chosen, **options))
        wall = time.perf_counter() - start
        if wall < best:
            best, cpu = wall, _cpu() - before
    return best, cpu, rows


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def peak_mb(who: int) -> float:
    return resource.getrusage(who).ru_maxrss / 1024  # kilobytes on Linux


def main() -> None:
    items = corpus()
    chosen = settings_grid({}, GRID)
    messages = sum(len(i.request["messages"]) for i in items)
    chars = sum(len(m["content"]) for i in items for m in i.request["messages"])
    print(
        f"corpus: {len(items)} conversations, {messages:,} messages, {chars:,} characters; "
        f"{len(chosen)} settings, every sweep point; best of {ROUNDS} rounds; "
        f"{os.cpu_count()} cores (shared machine: figures vary with its load)"
    )
    one, cpu1, rows = timed(items, chosen, workers=1)
    count = len(rows)
    print(
        f"  rows: {count:,} ({count / len(items) / len(chosen):.1f} per conversation and setting)"
    )
    size = sum(len(dumps(r, None)) + 1 for r in rows)
    print(f"  JSONL output: {size:,} bytes, {size / count:.0f} bytes per row", end="")
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq

        sink = pa.BufferOutputStream()
        pq.write_table(pa.Table.from_pylist(rows), sink)
        packed = sink.getvalue().size
        print(f"; Parquet {packed:,} bytes, {packed / count:.1f} bytes per row")
    except ImportError:
        print()
    rate1 = count / one
    print(
        f"  1 worker (this process): {rate1:9,.0f} rows/s, {one / len(items) * 1000:.2f} ms "
        f"wall and {cpu1 / len(items) * 1000:.2f} ms CPU per conversation ({len(chosen)} settings)"
    )
    two, cpu2, _ = timed(items, chosen, workers=2)
    rate2 = count / two
    print(
        f"  2 workers (process pool): {rate2:8,.0f} rows/s; scaling efficiency "
        f"{rate2 / (2 * rate1):.2f} (target >= {SCALING_TARGET}); CPU seconds {cpu2:.1f} against "
        f"{cpu1:.1f} on 1 worker (work efficiency {cpu1 / cpu2:.2f})"
    )
    print(
        f"  CPU share this run had: {cpu1 / one:.2f} of a core on 1 worker, {cpu2 / two:.2f} "
        "cores on 2 (a saturated machine gives less than 1 and 2)"
    )
    print(
        f"  peak memory: this process {peak_mb(resource.RUSAGE_SELF):.0f} MB, "
        f"largest pool worker {peak_mb(resource.RUSAGE_CHILDREN):.0f} MB"
    )
    try:
        import ray
    except ImportError:
        print('  ray: not installed (pip install -e ".[ray]")')
        return
    start = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    started = time.perf_counter() - start
    try:
        three, _, ray_rows = timed(items, chosen, backend="ray")
    finally:
        ray.shutdown()
    rate3 = count / three
    print(
        f"  ray (local, 2 CPUs): {rate3:13,.0f} rows/s; ray / process pool {rate3 / rate2:.2f} "
        f"(target >= {RAY_TARGET}); start {started:.1f} s (not counted); rows equal: "
        f"{ray_rows == rows}"
    )


if __name__ == "__main__":
    main()
