"""The real explorer: ``streamlit run app.py`` on a free loopback port, healthy, then stopped,
with a workspace folder and a log of its own (per pytest-xdist worker)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from harness.service import free_port

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts"
#: Seconds a fresh server may take to answer its health check.
START_SECONDS = 60


@dataclass(frozen=True)
class Server:
    url: str
    process: subprocess.Popen
    log: Path


def _tail(log: Path, lines: int = 30) -> str:
    try:
        return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def _wait_healthy(url: str, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(
                f"streamlit run app.py exited with code {process.returncode}:\n{_tail(log)}"
            )
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                if reply.read().strip() == b"ok":
                    return
        except OSError:
            pass
        time.sleep(0.1)  # the polling interval of the health check
    raise RuntimeError(f"{url}/_stcore/health did not answer in {START_SECONDS} s:\n{_tail(log)}")


def stop(process: subprocess.Popen) -> None:
    """Terminate the server, then kill it if it does not exit; never leave it running."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


@contextmanager
def running_app(
    log: Path, options: Sequence[str] = (), workspace: Path | None = None
) -> Iterator[Server]:
    """A fresh ``streamlit run app.py`` server on a free loopback port, healthy, then stopped.

    ``options`` are more of Streamlit's command-line settings (``--theme.base dark``);
    ``workspace`` is the folder of its workspace (default: a new empty folder of its own).
    """
    port = free_port()
    command = [
        sys.executable, "-m", "streamlit", "run", "app.py",
        "--server.headless", "true",
        "--server.port", str(port),
        "--server.address", "127.0.0.1",
        "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
        *options,
    ]  # fmt: skip
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:  # each test worker has servers of its own, and so logs of its own
        log = log.with_name(f"{log.stem}-{worker}{log.suffix}")
    log.parent.mkdir(parents=True, exist_ok=True)
    # the server's workspace (explorer.session.workspace) is a folder of its own, never the user's
    data = tempfile.TemporaryDirectory(prefix="explorer-workspace-")
    env = {**os.environ, "COMPACTOR_EXPLORER_DATA": str(workspace or data.name)}
    with data, log.open("w") as out:
        process = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env=env)
        try:
            url = f"http://127.0.0.1:{port}"
            _wait_healthy(url, process, log)
            yield Server(url, process, log)
        finally:
            stop(process)
