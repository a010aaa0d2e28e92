"""The amplification figures of issue 11: what the hostile 4 MiB body costs the service.

Starts ``python -m compactor serve`` (2 workers by default, each with its compute processes) on
a free loopback port and sends issue 11's body (4,160,048 bytes that break the schema 3,120,002
times, tests/hostile/cases.py): first alone, a few times (answer time, body size), then four at
once while /healthz is probed every 10 ms (its latency under that load). The peak RSS is the
largest resident size any server process reached (VmHWM, Linux), which includes the compute
processes that parse and check the body. The engine's own cost (parse and check, in this
process) is printed first.

Targets (issue 11): the answer in < 1 s with a body < 64 KiB; /healthz < 50 ms meanwhile.

    python bench/hostile.py [--workers 2] [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from compactor.pipeline import compact  # noqa: E402
from compactor.service.handling import handle  # noqa: E402
from tests.hostile.cases import BY_NAME, COMPACT  # noqa: E402

TARGET_SECONDS = 1.0
TARGET_BYTES = 64 * 1024
TARGET_HEALTHZ_MS = 50.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(port: int, workers: int) -> subprocess.Popen:
    command = [sys.executable, "-m", "compactor", "serve", "--port", str(port)]
    command += ["--workers", str(workers), "--no-access-log", "--log-level", "warning"]
    process = subprocess.Popen(command, cwd=ROOT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server exited with code {process.returncode}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("the server did not answer /healthz within 60 s")


def post(port: int, body: bytes) -> tuple[float, int, int]:
    """(seconds, status, body bytes) of one POST on a fresh connection."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{COMPACT}", body, {"Content-Type": "application/json"}
    )
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

    port = free_port()
    server = start_server(port, args.workers)
    failed = False
    try:
        post(port, body)  # warm up
        alone = [post(port, body) for _ in range(args.rounds)]
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
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=30):
                    pass
                latencies.append(time.perf_counter() - start)
                time.sleep(0.01)

        prober = threading.Thread(target=probe)
        prober.start()
        time.sleep(0.1)
        results: list[tuple[float, int, int]] = []
        attackers = [
            threading.Thread(target=lambda: results.append(post(port, body))) for _ in range(4)
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
        print(f"peak RSS of the server's processes: {tree_peak_rss_mb(server.pid):.0f} MB")
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=60)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
