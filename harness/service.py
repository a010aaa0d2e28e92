"""Running the HTTP service as an operator does, for the tests and the benchmarks.

``python -m compactor serve`` on a free loopback port, waited for on ``/healthz``, then stopped
with Ctrl-C (SIGINT) as a person stops it, and killed only if it does not stop::

    with serving("--workers", "2", log=tmp / "server.log") as service:
        httpx.get(f"{service.url}/healthz")
    assert service.process.returncode == 0 and "Traceback" not in service.log_text()
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Seconds the server may take to answer ``/healthz`` (workers and compute processes start).
START_SECONDS = 60
#: Seconds it may take to stop after Ctrl-C (workers finish what they are answering).
STOP_SECONDS = 60


@dataclass(frozen=True)
class Service:
    url: str
    process: subprocess.Popen
    log: Path | None

    def log_text(self) -> str:
        """What the server printed so far (empty when its output went to the caller's)."""
        return self.log.read_text("utf-8", errors="replace") if self.log else ""

    def stop(self) -> int:
        """Ctrl-C, as a person stops it; killed if it does not exit. Its exit code."""
        process = self.process
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=STOP_SECONDS)
        return process.returncode


def free_port() -> int:
    """A port on the loopback interface that nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_healthy(service: Service) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        code = service.process.poll()
        if code is not None:
            raise RuntimeError(f"the server exited with code {code}:\n{service.log_text()[-5000:]}")
        try:
            with urllib.request.urlopen(f"{service.url}/healthz", timeout=1) as reply:
                if reply.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.1)
    tail = service.log_text()[-5000:]
    raise RuntimeError(f"the server did not answer /healthz within {START_SECONDS} s:\n{tail}")


@contextmanager
def serving(*options: str, log: Path | None = None) -> Iterator[Service]:
    """``python -m compactor serve OPTIONS`` on a free loopback port, healthy, then stopped.

    Its output goes to ``log`` (a file, so that a long run never blocks on a full pipe), or to
    the caller's own output when ``log`` is None.
    """
    port = free_port()
    command = [sys.executable, "-m", "compactor", "serve", "--port", str(port), *options]
    with ExitStack() as stack:
        out = None
        if log is not None:
            log.parent.mkdir(parents=True, exist_ok=True)
            out = stack.enter_context(log.open("wb"))
        stderr = subprocess.STDOUT if out is not None else None
        process = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=stderr)
        service = Service(f"http://127.0.0.1:{port}", process, log)
        try:
            _wait_healthy(service)
            yield service
        finally:
            service.stop()
