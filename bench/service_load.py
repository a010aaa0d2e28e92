"""The load clients of bench/service.py: ``wrk`` with a Lua script, or a pure-Python asyncio
client, each sending one body over keep-alive connections until ``count`` answers came back and
counting every answer that is not the expected 200 body.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

PATH = "/v1/memory-compact"

WRK_SCRIPT = """\
-- POST one body until `limit` responses came back; count every response that is not the
-- expected 200 body, and report the figures as one JSON line.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local threads = {}
local has_ffi, ffi = pcall(require, "ffi")
if has_ffi then
  ffi.cdef[[
    typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
    int clock_gettime(int clock, bench_timespec *now);
  ]]
end

local function now()  -- monotonic seconds (LuaJIT); nil without the FFI
  if not has_ffi then return nil end
  local t = ffi.new("bench_timespec")
  ffi.C.clock_gettime(1, t)
  return tonumber(t.tv_sec) + tonumber(t.tv_nsec) / 1e9
end

local function slurp(path)
  local file = assert(io.open(path, "rb"))
  local text = file:read("*a")
  file:close()
  return text
end

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  wrk.body = slurp(args[1])
  expected = slurp(args[2])
  limit = tonumber(args[3])
  seen = 0
  bad = 0
  started = now()
end

function response(status, headers, body)
  seen = seen + 1
  if status ~= 200 or body ~= expected then
    bad = bad + 1
  end
  if seen == limit then
    finished = now()
    wrk.thread:stop()
    -- wrk otherwise waits out its whole -d duration; SIGINT ends the run now ($PPID is wrk).
    os.execute("(sleep 0.05; kill -INT $PPID) &")
  end
end

function done(summary, latency, requests)
  local wrong, first, last = 0, nil, nil
  for _, thread in ipairs(threads) do
    wrong = wrong + thread:get("bad")
    local started, finished = thread:get("started"), thread:get("finished")
    if started and finished then
      first = first and math.min(first, started) or started
      last = last and math.max(last, finished) or finished
    end
  end
  local seconds = (first and last) and (last - first) or summary.duration / 1e6
  local e = summary.errors
  io.write(string.format(
    'RESULT {"requests": %d, "seconds": %f, "wrong": %d, "socket": %d, "p50_ms": %f, '
    .. '"p99_ms": %f}\\n',
    summary.requests, seconds, wrong, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
"""


@dataclass
class Figures:
    requests: int
    seconds: float
    errors: int
    p50_ms: float
    p99_ms: float

    @property
    def rate(self) -> float:
        return self.requests / self.seconds


def run_wrk(port: int, body: bytes, expected: bytes, count: int, connections: int) -> Figures:
    with tempfile.TemporaryDirectory() as folder:
        files = {name: Path(folder, name) for name in ("script.lua", "body", "expected")}
        files["script.lua"].write_text(WRK_SCRIPT)
        files["body"].write_bytes(body)
        files["expected"].write_bytes(expected)
        # One thread: the C client needs little CPU, and the server needs both cores.
        command = ["wrk", "-t1", f"-c{connections}", "-d600s", "--timeout", "60s"]
        command += ["-s", str(files["script.lua"]), f"http://127.0.0.1:{port}{PATH}", "--"]
        command += [str(files["body"]), str(files["expected"]), str(count)]
        done = subprocess.run(command, capture_output=True, text=True, check=True)
    line = next(x for x in done.stdout.splitlines() if x.startswith("RESULT "))
    result = json.loads(line.removeprefix("RESULT "))
    # wrk counts requests it had to cut off when stopping as socket errors; none are expected.
    errors = result["wrong"] + result["socket"]
    return Figures(
        result["requests"], result["seconds"], errors, result["p50_ms"], result["p99_ms"]
    )


async def _python_client(
    port: int, body: bytes, expected: bytes, count: int, connections: int
) -> Figures:
    head = (
        f"POST {PATH} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode()
    latencies: list[float] = []
    errors = 0
    remaining = count

    async def connection() -> None:
        nonlocal remaining, errors
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            while remaining > 0:
                remaining -= 1
                start = time.perf_counter()
                writer.write(head + body)
                status_line = await reader.readline()
                length = 0
                while (line := await reader.readline()) not in (b"\r\n", b""):
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                content = await reader.readexactly(length)
                latencies.append(time.perf_counter() - start)
                if not status_line.startswith(b"HTTP/1.1 200 ") or content != expected:
                    errors += 1
        except (OSError, asyncio.IncompleteReadError, ValueError):
            errors += 1
        finally:
            writer.close()

    start = time.perf_counter()
    await asyncio.gather(*(connection() for _ in range(connections)))
    seconds = time.perf_counter() - start
    ordered = sorted(latencies) or [float("nan")]
    p50 = ordered[len(ordered) // 2]
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return Figures(len(latencies), seconds, errors, p50 * 1000, p99 * 1000)


def run_python(port: int, body: bytes, expected: bytes, count: int, connections: int) -> Figures:
    try:
        import uvloop

        return uvloop.run(_python_client(port, body, expected, count, connections))
    except ImportError:
        return asyncio.run(_python_client(port, body, expected, count, connections))


def report(label: str, figures: Figures, connections: int) -> None:
    print(
        f"  {label}: {figures.requests:,} requests from {connections} connections in "
        f"{figures.seconds:.2f} s: {figures.rate:,.0f} req/s, p50 {figures.p50_ms:.2f} ms, "
        f"p99 {figures.p99_ms:.2f} ms, errors {figures.errors}"
    )
