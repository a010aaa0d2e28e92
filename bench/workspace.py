"""The workspace's cost per page run, with 20 large conversations stored (issue 25).

Stores 20 conversations the size of the largest sample (200 messages of about 8,000
characters, 1.6 MB each; each made distinct) in a fresh workspace folder, then prints the
median milliseconds and the bytes read (``/proc/self/io``) of:

- listing them, as every page run's sidebar does (``workspace.recent``, from the entries);
- reading and parsing every body, as the listing did before (for reference);
- opening one (``workspace.get``), as a link or the picker does;
- listing them while another process holds the database's lock: the first call waits at most
  0.5 s, the calls after it not at all.

Target: listing reads no body (well under 1 MB read) and takes a few milliseconds.

    python -m bench.workspace [--conversations 20] [--rounds 30]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench.prose import largest_request
from explorer.session import database, workspace
from explorer.session.conversation import Conversation, params_from

_HOLDER = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("begin exclusive")
print("locked", flush=True)
sys.stdin.read()
"""


def bytes_read() -> int:
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("rchar:"):
            return int(line.split()[1])
    return 0


def measure(what: Callable[[], object], rounds: int) -> tuple[float, int]:
    """Median milliseconds of ``what``, and the bytes one call read."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        what()
        times.append(time.perf_counter() - start)
    before = bytes_read()
    what()
    return statistics.median(times) * 1000, bytes_read() - before


def stored(count: int) -> list[Conversation]:
    request = largest_request()
    out = []
    for n in range(count):
        messages = [dict(m) for m in request["messages"]]
        messages[0]["content"] = f"[{n}] " + messages[0]["content"][: -len(f"[{n}] ")]
        conv = Conversation(
            tuple(messages), params_from(request, {}), f"Large conversation {n}", "pasted"
        )
        assert workspace.save(conv)
        out.append(conv)
    return out


def every_body(path: Path) -> int:
    """What listing cost before: every body read and parsed."""
    with sqlite3.connect(path) as db:
        rows = db.execute("select body from conversations order by used desc").fetchall()
    return sum(len(json.loads(body)["messages"]) for (body,) in rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    logging.getLogger("explorer").setLevel(logging.ERROR)  # the lock's notices, said below
    with tempfile.TemporaryDirectory() as folder:
        os.environ[database.DATA_ENV] = folder
        convs = stored(args.conversations)
        path = Path(folder) / database.DATABASE
        size = path.stat().st_size
        print(f"{len(convs)} conversations stored, {size / 1e6:.1f} MB of database")
        rows = [
            ("list (every page run)", lambda: workspace.recent()),
            ("read and parse every body (before)", lambda: every_body(path)),
            ("open one", lambda: workspace.get(convs[7].key)),
        ]
        for label, what in rows:
            ms, read = measure(what, args.rounds)
            print(f"{label:36} {ms:8.1f} ms   {read / 1e6:7.2f} MB read")
        holder = subprocess.Popen(
            [sys.executable, "-c", _HOLDER, str(path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        try:
            assert holder.stdout is not None and holder.stdout.readline() == b"locked\n"
            waits = []
            for _ in range(5):
                start = time.perf_counter()
                workspace.recent()
                waits.append((time.perf_counter() - start) * 1000)
        finally:
            holder.kill()
            holder.wait()
        shown = ", ".join(f"{w:.0f}" for w in waits)
        print(f"{'list with the lock held elsewhere':36} {shown} ms (first call, then the rest)")


if __name__ == "__main__":
    main()
