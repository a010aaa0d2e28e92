"""HTTP service load: the real server on loopback, a bounded number of requests, concurrent clients.

Starts ``python -m compactor serve`` (2 workers by default) on a free loopback port, then sends
10,000 dispatcher requests and 200 maximum-size requests (bench.prose.largest_request()) over
concurrent keep-alive connections, and prints for each: requests per second, p50 and p99
latency, and the errors (a transport error, a status other than 200, or a body that is not
byte for byte the engine's response). The maximum-size figure against the engine-alone bound
is then taken in interleaved rounds (--rounds): each round runs the engine alone, without HTTP,
in as many processes at once as the service has compute processes, then the service with as
many requests; each round's ratio and their median are printed, so the machine's noise shows
(goal: the median at least 0.8, no round under 0.7). The client is ``wrk`` when it is
installed (Debian package wrk) and a pure-Python asyncio client otherwise; the output says
which. The engine's own cost per request is measured in-process first, so the HTTP overhead is
visible. The two load clients are in bench/service_load.py.

Target on the 2-core development machine: >= 1,000 dispatcher requests per second, 0 errors.

    python -m bench.service [--workers 2] [--client auto|wrk|python] [--requests 10000]
        [--rounds 7] [--round-requests 60]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import shutil
import statistics
import sys
import time
import urllib.request
from pathlib import Path

from bench.prose import largest_request
from bench.service_load import PATH, report, run_python, run_wrk
from compactor import compact
from compactor.contract import REQUEST_EXAMPLE
from compactor.input._jsonio import dumps, parse_json
from compactor.service import create_app
from compactor.service._compute import ComputePool
from compactor.service._handling import handle
from harness.service import serving

TARGET_RPS = 1000
#: Issue 17: the maximum-size throughput against the engine-alone bound of the same run.
TARGET_RATIO = 0.8


def engine_cost(request: dict, rounds: int) -> tuple[float, float, float]:
    """Median milliseconds of compact() alone and of parse + compact + serialise, and the
    median CPU milliseconds of the latter (other work on the machine does not change it)."""
    body = json.dumps(request).encode()
    compact(request)
    alone, whole, cpu = [], [], []
    for _ in range(rounds):
        start = time.perf_counter()
        compact(request)
        middle, middle_cpu = time.perf_counter(), time.process_time()
        dumps(compact(parse_json(body)), None).encode()
        end, end_cpu = time.perf_counter(), time.process_time()
        alone.append(middle - start)
        whole.append(end - middle)
        cpu.append(end_cpu - middle_cpu)
    return tuple(statistics.median(x) * 1000 for x in (alone, whole, cpu))  # type: ignore[return-value]


def asgi_cost(body: bytes, rounds: int) -> float:
    """Median ms of one request through the real ASGI app in this process (no sockets, no
    compute process): the engine plus reading the body in 64 KiB chunks, routing and the
    response object, i.e. what the framework adds."""
    app = create_app()
    chunks = [body[i : i + 65536] for i in range(0, len(body), 65536)]
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": PATH,
        "raw_path": PATH.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8080),
    }

    async def one() -> None:
        pending = list(chunks)

        async def receive() -> dict:
            if pending:
                chunk = pending.pop(0)
                return {"type": "http.request", "body": chunk, "more_body": bool(pending)}
            return {"type": "http.disconnect"}

        async def send(message: dict) -> None:
            pass

        await app(scope, receive, send)

    async def timed() -> list[float]:
        await one()
        times = []
        for _ in range(rounds):
            start = time.perf_counter()
            await one()
            times.append(time.perf_counter() - start)
        return times

    return statistics.median(asyncio.run(timed())) * 1000


def handover_cost(body: bytes, rounds: int) -> float:
    """Median ms that handing one request to a compute process adds (the body there and the
    answer back through a pipe), over running the same work in place."""
    pool = ComputePool(1)
    pool.start()
    try:

        async def timed() -> list[float]:
            await pool.run(handle, compact, body)
            times = []
            for _ in range(rounds):
                start = time.perf_counter()
                await pool.run(handle, compact, body)
                middle = time.perf_counter()
                handle(compact, body)
                times.append((middle - start) - (time.perf_counter() - middle))
            return times

        return statistics.median(asyncio.run(timed())) * 1000
    finally:
        pool.stop()


def process_cpu(root: int) -> dict[int, tuple[float, str]]:
    """CPU seconds so far of ``root`` and every descendant, with its role (Linux /proc)."""
    out: dict[int, tuple[float, str]] = {}
    pending = [root]
    while pending:
        pid = pending.pop()
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
            children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        except OSError:
            continue
        seconds = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        out[pid] = (seconds, "spawn_main" if b"spawn_main" in command else "other")
        pending += [int(child) for child in children]
    return out


def _children(pid: int) -> set[int]:
    try:
        return {int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()}
    except OSError:
        return set()


def cpu_split(before: dict, after: dict, workers: set[int]) -> dict[str, float]:
    """CPU seconds spent between two snapshots, by role: workers, compute processes, rest."""
    split = {"workers": 0.0, "compute": 0.0, "other": 0.0}
    for pid, (seconds, role) in after.items():
        spent = seconds - before.get(pid, (0.0, role))[0]
        key = "workers" if pid in workers else "compute" if role == "spawn_main" else "other"
        split[key] += spent
    return split


_BODY = b""


def _engine_body(body: bytes) -> None:
    """A bound process's one body (sent once, as each compute process gets each request's)."""
    global _BODY
    _BODY = body


def _engine_one(_: int) -> None:
    """What a compute process does per request: parse, compact, serialise."""
    dumps(compact(parse_json(_BODY)), None).encode()


def interleaved_ratios(
    run, port: int, body: bytes, expected: bytes, args, connections: int, first
) -> list[float]:
    """The maximum-size throughput against the engine-alone bound, in ``args.rounds`` rounds
    that each measure the bound (the engine alone, no HTTP, in as many processes running at
    once as the service has compute processes, ``args.round_requests`` requests in all, the
    server idle: on a shared machine each process gets its share of the cores, the service's
    as the bound's) and then the service
    (as many requests): a drift of the machine's speed, or other work on its cores, touches
    both alike, and each round's ratio shows the noise."""
    ratios = []
    engines = args.workers * (args.processes or os.cpu_count() or 1)
    context = multiprocessing.get_context("spawn")
    with context.Pool(engines, initializer=_engine_body, initargs=(body,)) as pool:
        pool.map(_engine_one, range(engines), chunksize=1)  # warm up
        for _ in range(args.rounds):
            # one request per task, as the service hands them out: no process waits idle for
            # a slow one's share
            start = time.perf_counter()
            pool.map(_engine_one, range(args.round_requests), chunksize=1)
            bound = args.round_requests / (time.perf_counter() - start)
            figures = run(port, body, expected, args.round_requests, connections)
            first.errors += figures.errors
            ratios.append(figures.rate / bound)
    print(
        f"  {args.rounds} interleaved rounds (the engine alone in {engines} processes at "
        f"once, then the service; {args.round_requests} requests each), each round's ratio: "
        + " ".join(f"{r:.2f}" for r in ratios)
    )
    print(f"  median of the rounds: {statistics.median(ratios):.2f} of the engine-alone bound")
    return ratios


def post_once(port: int, body: bytes) -> bytes:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{PATH}", body, {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.read()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--client", choices=["auto", "wrk", "python"], default="auto")
    parser.add_argument("--requests", type=int, default=10_000, help="dispatcher requests")
    parser.add_argument("--large-requests", type=int, default=200, help="maximum-size requests")
    parser.add_argument("--connections", type=int, default=32, help="for the dispatcher")
    parser.add_argument("--large-connections", type=int, default=4)
    parser.add_argument(
        "--rounds",
        type=int,
        default=7,
        help="interleaved rounds of the maximum-size ratio (bound, then the requests)",
    )
    parser.add_argument("--round-requests", type=int, default=60, help="maximum-size, per round")
    parser.add_argument(
        "--processes",
        type=int,
        default=None,
        help="compute processes per worker (serve --processes; default one per core)",
    )
    args = parser.parse_args()
    client = args.client
    if client == "auto":
        client = "wrk" if shutil.which("wrk") else "python"
    run = run_wrk if client == "wrk" else run_python

    dispatcher, largest = dict(REQUEST_EXAMPLE), largest_request()
    cases = [
        ("dispatcher", dispatcher, args.requests, args.connections),
        ("maximum-size", largest, args.large_requests, args.large_connections),
    ]
    processes = "one per core" if args.processes is None else args.processes
    print(
        f"cpus: {os.cpu_count()}; server workers: {args.workers}, compute processes per "
        f"worker: {processes}; client: {client}"
    )
    print("engine in-process (median; compact alone / parse + compact + serialise):")
    ceilings = {}
    for label, request, _, _ in cases:
        alone, whole, whole_cpu = engine_cost(request, 2000 if request is dispatcher else 11)
        size = len(json.dumps(request).encode())
        ceilings[label] = (args.workers * 1000 / whole, whole, whole_cpu)
        print(
            f"  {label} ({size:,} bytes): {alone:.3f} ms / {whole:.3f} ms "
            f"(at most {ceilings[label][0]:,.0f} req/s on {args.workers} busy cores "
            "without HTTP)"
        )
    body = json.dumps(largest).encode()
    framework = asgi_cost(body, 11) - ceilings["maximum-size"][1]  # wall ms of each
    handover = handover_cost(body, 11)
    print(
        f"  maximum-size, what the service adds per request: the framework (body read in "
        f"64 KiB chunks, routing, response) {framework:.1f} ms; the hand-over to a compute "
        f"process and back {handover:.1f} ms"
    )

    options = ["--workers", str(args.workers), "--no-access-log", "--log-level", "warning"]
    if args.processes is not None:
        options += ["--processes", str(args.processes)]
    failed = False
    with serving(*options) as service:
        server, port = service.process, int(service.url.rsplit(":", 1)[1])
        print(f"HTTP on 127.0.0.1:{port} (POST {PATH}):")
        for label, request, count, connections in cases:
            body = json.dumps(request).encode()
            expected = dumps(compact(request), None).encode("utf-8")
            if post_once(port, body) != expected:
                print(f"  {label}: the service's response differs from compact()")
                failed = True
            run(port, body, expected, min(count, 200), connections)  # warm up every worker
            before, client_before = process_cpu(server.pid), os.times()
            figures = run(port, body, expected, count, connections)
            after, client_after = process_cpu(server.pid), os.times()
            report(label, figures, connections)
            # The uvicorn workers are the server's own children; compute processes are theirs.
            workers = {pid for pid, (_, role) in after.items() if pid in _children(server.pid)}
            split = cpu_split(before, after, workers)
            client_cpu = sum(client_after[:2]) - sum(client_before[:2])
            per = {k: v * 1000 / figures.requests for k, v in split.items()}
            print(
                f"  CPU per request: uvicorn workers {per['workers']:.2f} ms, compute processes "
                f"{per['compute']:.2f} ms, this client {client_cpu * 1000 / figures.requests:.2f} "
                f"ms; by worker: "
                + ", ".join(
                    f"{(after[pid][0] - before.get(pid, (0.0,))[0]) * 1000 / figures.requests:.1f}"
                    for pid in sorted(workers)
                )
            )
            if label == "dispatcher":
                met = figures.rate >= TARGET_RPS and figures.errors == 0
                verdict = "met" if met else "NOT met"
                print(f"  target >= {TARGET_RPS:,} req/s with 0 errors: {verdict}")
            else:
                ceiling, whole, whole_cpu = ceilings[label]
                ratio = figures.rate / ceiling
                spent = args.workers * 1000 / figures.rate  # core-ms per request, measured
                rest = spent - whole - max(framework, 0)
                print(
                    f"  {ratio:.2f} of the engine-alone bound ({ceiling:,.1f} req/s): per "
                    f"request {spent:.1f} core-ms, of which the engine {whole:.1f}, the "
                    f"framework {max(framework, 0):.1f}, and {rest:.1f} for the rest (sockets, "
                    f"hand-over {handover:.1f}, the client on the same cores, scheduling)"
                )
                spent_cpu = sum(per.values()) + client_cpu * 1000 / figures.requests
                print(
                    f"  in CPU (what other work on the machine does not change): the engine "
                    f"alone {whole_cpu:.1f} ms of the {spent_cpu:.1f} ms the service and this "
                    f"client spent per request, a share of {whole_cpu / spent_cpu:.2f}"
                )
                ratios = interleaved_ratios(run, port, body, expected, args, connections, figures)
                median = statistics.median(ratios)
                met = median >= TARGET_RATIO and min(ratios) >= TARGET_RATIO - 0.1
                met = met and figures.errors == 0
                verdict = "met" if met else "NOT met"
                print(
                    f"  target >= {TARGET_RATIO} of the bound (the median of the rounds; no "
                    f"round under {TARGET_RATIO - 0.1:.1f}) with 0 errors: {verdict}"
                )
            failed = failed or figures.errors > 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
