"""The amplification figures of issue 11: what the hostile 4 MiB body costs the service.

Starts ``python -m compactor serve`` (2 workers by default, each with its compute processes) on
a free loopback port and sends issue 11's body (4,160,048 bytes that break the schema 3,120,002
times, harness/hostile_cases.py): first alone, a few times (answer time, body size), then four at
once while /healthz is probed every 10 ms (its latency under that load). The peak RSS is the
largest resident size any server process reached (VmHWM, Linux), which includes the compute
processes that parse and check the body. The engine's own cost (parse and check, in this
process) is printed first.

Then the engine's cost for every case of the corpus over 100 KB (what the tests no longer time:
they assert sizes and counts, which a loaded machine cannot change).

Targets (issue 11): the answer in < 1 s with a body < 64 KiB; /healthz < 50 ms meanwhile.

    python -m bench.hostile [--workers 2] [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from compactor.engine._pipeline import compact
from compactor.service._handling import handle
from compactor.strategies._context_trim import trim_context
from harness.hostile_cases import BY_NAME, CASES, COMPACT
from harness.service import serving

TARGET_SECONDS = 1.0
TARGET_BYTES = 64 * 1024
TARGET_HEALTHZ_MS = 50.0


def post(base: str, body: bytes) -> tuple[float, int, int]:
    """(seconds, status, body bytes) of one POST on a fresh connection."""
    request = urllib.request.Request(f"{base}{COMPACT}", body, {"Content-Type": "application/json"})
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            data, status = response.read(), response.status
    except urllib.error.HTTPError as error:
        data, status = error.read(), error.code
    return time.perf_counter() - start, status, len(data)


def tree_peak_rss_mb(root: int) -> float:
    """The largest VmHWM (peak resident set) among ``root`` and all its descendants, in MB."""
    peak = 0
    pending = [root]
    while pending:
        pid = pending.pop()
        try:
            status = Path(f"/proc/{pid}/status").read_text()
            children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                peak = max(peak, int(line.split()[1]))
        pending += [int(child) for child in children]
    return peak / 1024


def engine_costs() -> None:
    """The engine's CPU (parse, check, write the answer) for each case over 100 KB: best of 3."""
    print("engine in-process, each case over 100 KB (best of 3, ms CPU):")
    for case in CASES:
        body = case.body()
        if len(body) <= 100_000:
            continue
        engine = compact if case.route == COMPACT else trim_context
        seconds = []
        for _ in range(3):
            start = time.process_time()
            status, answer = handle(engine, body)
            seconds.append(time.process_time() - start)
        print(
            f"  {case.name:30} {len(body):>10,} bytes  {min(seconds) * 1000:6.0f} ms  "
            f"status {status}  answer {len(answer):,} bytes"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=5, help="answers timed one at a time")
    args = parser.parse_args()
    body = BY_NAME["amplification"].body()

    seconds = []
    for _ in range(3):
        start = time.process_time()
        status, answer = handle(compact, body)
        seconds.append(time.process_time() - start)
    print(f"cpus: {os.cpu_count()}; body: {len(body):,} bytes")
    print(
        f"engine in-process (parse + check + write the 422): {min(seconds) * 1000:.0f} ms CPU, "
        f"status {status}, {len(answer):,} bytes"
    )

    failed = False
    options = ("--workers", str(args.workers), "--no-access-log", "--log-level", "warning")
    with serving(*options) as server:
        base = server.url
        post(base, body)  # warm up
        alone = [post(base, body) for _ in range(args.rounds)]
        times = [s for s, _, _ in alone]
        size = max(n for _, _, n in alone)
        statuses = {st for _, st, _ in alone}
        print(
            f"alone, {args.rounds} rounds: median {statistics.median(times) * 1000:.0f} ms, "
            f"max {max(times) * 1000:.0f} ms; status {sorted(statuses)}; body {size:,} bytes"
        )
        met = statistics.median(times) < TARGET_SECONDS and size < TARGET_BYTES
        met = met and statuses == {422}
        verdict = "met" if met else "NOT met"
        print(f"  target < {TARGET_SECONDS:.0f} s (median) and < 64 KiB: {verdict}")
        failed |= not met

        latencies: list[float] = []
        done = threading.Event()

        def probe() -> None:
            while not done.is_set():
                start = time.perf_counter()
                with urllib.request.urlopen(f"{base}/healthz", timeout=30):
                    pass
                latencies.append(time.perf_counter() - start)
                time.sleep(0.01)

        prober = threading.Thread(target=probe)
        prober.start()
        time.sleep(0.1)
        results: list[tuple[float, int, int]] = []
        attackers = [
            threading.Thread(target=lambda: results.append(post(base, body))) for _ in range(4)
        ]
        start = time.perf_counter()
        for attacker in attackers:
            attacker.start()
        for attacker in attackers:
            attacker.join()
        wall = time.perf_counter() - start
        done.set()
        prober.join()
        ordered = sorted(latencies)
        p50 = ordered[len(ordered) // 2] * 1000
        p90 = ordered[len(ordered) * 9 // 10] * 1000
        print(
            f"four at once: all answered in {wall * 1000:.0f} ms (slowest "
            f"{max(s for s, _, _ in results) * 1000:.0f} ms); /healthz during them: "
            f"{len(ordered)} probes, p50 {p50:.1f} ms, p90 {p90:.1f} ms, "
            f"max {ordered[-1] * 1000:.1f} ms"
        )
        met = p90 < TARGET_HEALTHZ_MS
        print(
            f"  target /healthz < {TARGET_HEALTHZ_MS:.0f} ms (p90): {'met' if met else 'NOT met'}"
        )
        failed |= not met
        print(f"peak RSS of the server's processes: {tree_peak_rss_mb(server.process.pid):.0f} MB")
    engine_costs()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
