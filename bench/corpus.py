"""Corpus evaluation speed: rows per second on 1 and 2 workers, Ray against the process pool.

The corpus (at least 200 conversations): every real conversation (``../shared/corpus`` and
``tests/fixtures/real``), prefixes of them (the first k messages, as an agent's history grows),
and generated ones (the property tests' vocabulary: repeats, CJK, emoji, long runs, 2 to 200
messages). Grid: 4 settings, every budget point of each conversation's sweep.

The machine is shared, and the speed of one core drifts by a fifth from minute to minute, so the
figures are ratios measured side by side: in each of ``ROUNDS`` rounds, 1 worker, 2 workers and
(as the machine's own ceiling) two plain processes each evaluating the whole corpus at once, in
alternating order; each round gives its ratios, and the median round's are the figures. Scaling
efficiency = rate with 2 workers / twice the rate with 1 (target >= 0.8); the machine's ceiling =
the time of one plain run / the time of two at once (what two cores give this work, with no pool;
1 when two at once take no longer than one). Ray runs after a warm-up (Ray's task registration)
in ``RAY_ROUNDS`` rounds beside the pool of 2 workers, alternating; the median round's rate ratio
is the figure (target >= 0.7).

``python -m bench.corpus --outcomes``: the same corpus and grid on one worker with and without
the outcome columns and baselines' rows (SPEC part D), in ``OUTCOME_ROUNDS`` alternating rounds;
rows per second of each, their ratio (target >= 0.6), and the ratio of wall times per
conversation (the rows differ: with outcomes a sweep lists the budgets where a need starts to be
met, and the baselines add rows of their own).

    python -m bench.corpus    # from the project root
"""

from __future__ import annotations

import multiprocessing
import os
import random
import resource
import statistics
import sys
import time
from pathlib import Path

from compactor.evaluation import (
    CorpusItem,
    RunOptions,
    evaluate,
    grid_points,
    load_corpus,
)
from compactor.input._jsonio import dumps
from harness.pieces import PIECES

ROOT = Path(__file__).resolve().parent.parent

ROUNDS = 5
OUTCOME_ROUNDS = 5
OUTCOME_TARGET = 0.6
RAY_ROUNDS = 3
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


def _plain(items, chosen) -> None:
    list(evaluate(items, chosen, options=RunOptions(workers=1)))


def two_at_once(items, chosen) -> float:
    """Wall time of two plain processes (forked, no pool) each evaluating the whole corpus."""
    context = multiprocessing.get_context("fork")
    runs = [context.Process(target=_plain, args=(items, chosen)) for _ in range(2)]
    start = time.perf_counter()
    for run in runs:
        run.start()
    for run in runs:
        run.join()
    return time.perf_counter() - start


def side_by_side(items, chosen) -> list[dict[str, float]]:
    """Per round: wall and CPU seconds of 1 worker and of 2 workers, and the wall time of two
    plain runs at once, in alternating order."""
    list(evaluate(items[:20], chosen, options=RunOptions(workers=2)))  # warm up
    list(evaluate(items[:20], chosen, options=RunOptions(workers=1)))
    tasks = {
        "one": lambda: list(evaluate(items, chosen, options=RunOptions(workers=1))),
        "two": lambda: list(evaluate(items, chosen, options=RunOptions(workers=2))),
        "machine": lambda: two_at_once(items, chosen),
    }
    rounds = []
    for k in range(ROUNDS):
        spent: dict[str, float] = {}
        for name in list(tasks) if k % 2 == 0 else list(reversed(tasks)):
            before, start = _cpu(), time.perf_counter()
            tasks[name]()
            spent[name] = time.perf_counter() - start
            spent[f"{name}_cpu"] = _cpu() - before
        rounds.append(spent)
    return rounds


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def peak_mb(who: int) -> float:
    return resource.getrusage(who).ru_maxrss / 1024  # kilobytes on Linux


def outcomes_ratio(items, chosen) -> None:
    """Rows per second with and without outcomes, side by side in alternating rounds."""
    runs = {
        "without": RunOptions(workers=1, future=None),
        "with": RunOptions(workers=1),
    }
    for options in runs.values():  # warm up
        list(evaluate(items[:20], chosen, options=options))
    rounds = []
    for k in range(OUTCOME_ROUNDS):
        spent: dict[str, tuple[int, float]] = {}
        for name in list(runs) if k % 2 == 0 else list(reversed(runs)):
            start = time.perf_counter()
            count = len(list(evaluate(items, chosen, options=runs[name])))
            spent[name] = (count, time.perf_counter() - start)
        rate = {name: count / seconds for name, (count, seconds) in spent.items()}
        rounds.append((rate["with"] / rate["without"], rate, spent))
        print(
            f"    without {rate['without']:7,.0f} rows/s, with {rate['with']:7,.0f} rows/s: "
            f"ratio {rate['with'] / rate['without']:.2f}; time per conversation "
            f"{spent['with'][1] / spent['without'][1]:.2f}x"
        )
    ratio, rate, spent = sorted(rounds, key=lambda r: r[0])[len(rounds) // 2]
    print(
        f"  outcomes, median of {OUTCOME_ROUNDS} rounds (1 worker): without {rate['without']:,.0f}"
        f" rows/s ({spent['without'][0]:,} rows), with {rate['with']:,.0f} rows/s "
        f"({spent['with'][0]:,} rows); ratio {ratio:.2f} (target >= {OUTCOME_TARGET}); wall time "
        f"with / without {spent['with'][1] / spent['without'][1]:.2f}"
    )


def main() -> None:
    items = corpus()
    if "--outcomes" in sys.argv[1:]:
        chosen = grid_points({}, GRID)
        print(f"corpus: {len(items)} conversations; {len(chosen)} settings, every sweep point")
        outcomes_ratio(items, chosen)
        return
    chosen = grid_points({}, GRID)
    messages = sum(len(i.request["messages"]) for i in items)
    chars = sum(len(m["content"]) for i in items for m in i.request["messages"])
    print(
        f"corpus: {len(items)} conversations, {messages:,} messages, {chars:,} characters; "
        f"{len(chosen)} settings, every sweep point; "
        f"{os.cpu_count()} cores (shared machine: figures vary with its load)"
    )
    rows = list(evaluate(items, chosen, options=RunOptions(workers=1)))
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
    rounds = side_by_side(items, chosen)
    for r in rounds:
        r["scaling"] = r["one"] / (2 * r["two"])
        r["ceiling"] = r["one"] / r["machine"]  # 1: two runs at once as fast as one alone
        r["work"] = r["one_cpu"] / r["two_cpu"]
    middle = sorted(rounds, key=lambda r: r["scaling"])[len(rounds) // 2]
    for name in ("scaling", "ceiling", "work"):
        middle[name] = statistics.median(r[name] for r in rounds)
    rate1, rate2 = count / middle["one"], count / middle["two"]
    print(f"  {ROUNDS} rounds side by side (1 worker, 2 workers, two plain runs at once):")
    for r in rounds:
        print(
            f"    1 worker {count / r['one']:7,.0f} rows/s, 2 workers {count / r['two']:7,.0f} "
            f"rows/s: scaling {r['scaling']:.2f}, machine ceiling {r['ceiling']:.2f}"
        )
    print(
        f"  1 worker (this process), median round: {rate1:9,.0f} rows/s, "
        f"{middle['one'] / len(items) * 1000:.2f} ms wall per conversation ({len(chosen)} settings)"
    )
    print(
        f"  2 workers (process pool), median round: {rate2:8,.0f} rows/s; scaling efficiency "
        f"{middle['scaling']:.2f} (target >= {SCALING_TARGET}, median of rounds)"
    )
    print(
        f"  what two cores give this work with no pool (two plain runs at once): "
        f"{middle['ceiling']:.2f} (1 when two at once take no longer than one); the pool reaches "
        f"{middle['scaling'] / middle['ceiling']:.2f} of that"
    )
    print(
        f"  CPU seconds, 1 worker against 2 workers (work efficiency, median): {middle['work']:.2f}"
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
    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        logging_level="ERROR",
    )
    started = time.perf_counter() - start
    try:
        list(
            evaluate(items[:20], chosen, options=RunOptions(backend="ray"))
        )  # warm up: task registration
        ratios, ray_rows = [], []
        for k in range(RAY_ROUNDS):
            spent = {}
            for name in ("pool", "ray") if k % 2 == 0 else ("ray", "pool"):
                begin = time.perf_counter()
                if name == "ray":
                    ray_rows = list(evaluate(items, chosen, options=RunOptions(backend="ray")))
                else:
                    list(evaluate(items, chosen, options=RunOptions(workers=2)))
                spent[name] = time.perf_counter() - begin
            ratios.append((spent["pool"] / spent["ray"], spent["ray"]))
    finally:
        ray.shutdown()
    ratio, three = sorted(ratios)[len(ratios) // 2]
    print(
        f"  ray (local, 2 CPUs), median of {RAY_ROUNDS} rounds beside the pool: "
        f"{count / three:,.0f} rows/s; ray / process pool {ratio:.2f} (target >= {RAY_TARGET}); "
        f"start {started:.1f} s (not counted); rows equal: {ray_rows == rows}"
    )


if __name__ == "__main__":
    main()
