"""LLM compact under providers that hold calls open: the real service on loopback, two test
providers (harness/llm_server.py), a bounded number of calls.

Starts ``python -m compactor serve`` (one worker, no compute processes) with two providers: a
healthy one that answers at once and a trickling one that sends one byte every 2 s (issue 25:
such calls starved the service for ten minutes). It prints:

1. the latency of healthy calls (p50, p99) alone, then while 100 trickling calls are in flight
   (their deadline 120 s, so all 100 stay open while the healthy calls are measured);
2. the deadline held: 100 trickling calls at once with a 5 s deadline, the time each took to be
   answered (504) and the most any took.

Target: healthy p99 with 100 trickling calls in flight within 2x its p99 alone, plus 50 ms;
every trickling call answered within its deadline + 1 s.

    python -m bench.providers [--healthy 200] [--trickling 100]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

import httpx

from harness.llm_server import FakeLLM, running
from harness.service import serving

PATH = "/v1/context/compact"
KEY_ENV = "BENCH_PROVIDER_KEY"
TRICKLE_SECONDS = 2.0
CHAT = [
    {"role": "user" if i % 2 == 0 else "assistant", "content": f"turn {i}: " + "lorem " * 30}
    for i in range(8)
]


def body(provider: str) -> bytes:
    return json.dumps({"providerID": provider, "model": "m", "messages": CHAT}).encode()


def providers_file(folder: Path, fakes: dict[str, tuple[FakeLLM, float]]) -> Path:
    lines = []
    for name, (fake, deadline) in fakes.items():
        lines += [f"[providers.{name}]", 'kind = "openai"', f'base_url = "{fake.openai_url}"']
        lines += [f'api_key_env = "{KEY_ENV}"', f"timeout_seconds = {deadline}", "max_retries = 0"]
        lines.append("")
    path = folder / "providers.toml"
    path.write_text("\n".join(lines), "utf-8")
    return path


def hold(url: str, data: bytes) -> socket.socket:
    """A request sent on a connection of its own (its answer read later, or never)."""
    host, port = url.removeprefix("http://").split(":")
    connection = socket.create_connection((host, int(port)))
    head = (
        f"POST {PATH} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n"
    )
    connection.sendall(head.encode() + data)
    return connection


def wait_for(condition, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while not condition() and time.monotonic() < end:
        time.sleep(0.02)
    return condition()


def healthy_latencies(url: str, count: int) -> list[float]:
    """Seconds per healthy call, four clients at a time."""

    async def run() -> list[float]:
        found: list[float] = []
        limit = asyncio.Semaphore(4)
        headers = {"Content-Type": "application/json"}
        async with httpx.AsyncClient(base_url=url, timeout=60) as client:

            async def one() -> None:
                async with limit:
                    start = time.perf_counter()
                    answer = await client.post(PATH, content=body("healthy"), headers=headers)
                    found.append(time.perf_counter() - start)
                    assert answer.status_code == 200, answer.text

            await asyncio.gather(*(one() for _ in range(count)))
        return found

    return asyncio.run(run())


def percentiles(seconds: list[float]) -> str:
    cuts = statistics.quantiles(seconds, n=100)
    return f"p50 {cuts[49] * 1000:7.1f} ms   p99 {cuts[98] * 1000:7.1f} ms   ({len(seconds)} calls)"


def deadline_times(url: str, count: int, deadline: float) -> list[tuple[int, float]]:
    """Status and seconds of ``count`` trickling calls sent at once."""
    started = time.monotonic()
    connections = [hold(url, body("deadline")) for _ in range(count)]
    out = []
    for connection in connections:
        connection.settimeout(deadline + 30)
        with connection:
            first = connection.recv(64)
            out.append((int(first.split()[1]), time.monotonic() - started))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--healthy", type=int, default=200, help="healthy calls per phase")
    parser.add_argument("--trickling", type=int, default=100, help="trickling calls in flight")
    args = parser.parse_args()
    os.environ[KEY_ENV] = "sk-bench"
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        healthy, slow, deadline = (stack.enter_context(running()) for _ in range(3))
        slow.behaviour.trickle = deadline.behaviour.trickle = TRICKLE_SECONDS
        fakes = {"healthy": (healthy, 60), "slow": (slow, 120), "deadline": (deadline, 5)}
        os.environ["COMPACTOR_PROVIDERS"] = str(providers_file(folder, fakes))
        options = ("--processes", "0", "--no-access-log", "--log-level", "warning")
        service = stack.enter_context(serving(*options, log=folder / "server.log"))

        healthy_latencies(service.url, 20)  # warm up
        alone = healthy_latencies(service.url, args.healthy)
        held = [hold(service.url, body("slow")) for _ in range(args.trickling)]
        if not wait_for(lambda: len(slow.calls) == args.trickling, 60):
            raise SystemExit(f"only {len(slow.calls)} trickling calls reached the provider")
        beside = healthy_latencies(service.url, args.healthy)
        still = sum(c.gone is None for c in slow.calls)
        for connection in held:
            connection.close()

        print(f"healthy calls alone:                       {percentiles(alone)}")
        print(f"healthy calls, {args.trickling} trickling calls in flight: {percentiles(beside)}")
        print(f"trickling calls still in flight after the second phase: {still}")
        target = 2 * statistics.quantiles(alone, n=100)[98] + 0.05
        met = statistics.quantiles(beside, n=100)[98] <= target
        print(f"target p99 <= {target * 1000:.1f} ms: {'met' if met else 'MISSED'}")

        times = deadline_times(service.url, args.trickling, 5.0)
        statuses = sorted({status for status, _ in times})
        longest = max(seconds for _, seconds in times)
        print(
            f"{len(times)} trickling calls with a 5 s deadline: statuses {statuses}, the longest "
            f"answered after {longest:.2f} s ({'met' if longest <= 6.0 else 'MISSED'}: <= 6 s)"
        )


if __name__ == "__main__":
    main()
