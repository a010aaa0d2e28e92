"""The command line's start (issue 34, item 18): ``python -m compactor`` timed as processes.

Each case is one real process, ``sys.executable -m compactor ...``, run in interleaved rounds
(every case once per round, the order turning each round) so that a drift of the machine's
speed touches all of them alike; the figure is each case's median wall time, beside its median
CPU time (user + system of the child, which other work on a shared machine changes less) and
the bare interpreter's start (``python -c pass``) as the floor. Then the slowest imports of a
``compact``, from ``python -X importtime``. The processes write and read bytecode caches
(``PYTHONDONTWRITEBYTECODE`` is dropped from their environment), as an installed package has
them: without them each start compiles every module it imports.

Targets: ``compact`` on a 2-message request at most 0.25 s; ``--help`` at most 0.3 s.

    python -m bench.cli_start [--rounds 11] [--top 15]    # from the project root
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: A request of two messages: what an agent's smallest call is.
TINY = {
    "messages": [
        {"role": "user", "content": "Where is DE-4471?"},
        {"role": "assistant", "content": "In Hamburg."},
    ],
    "budget_chars": 100,
}
#: The cases with a target: median wall seconds at most.
TARGETS = {"compact": 0.25, "--help": 0.3}


def cases(request: str) -> dict[str, list[str]]:
    return {
        "python -c pass": ["-c", "pass"],
        "compact": ["-m", "compactor", "compact", request],
        "--help": ["-m", "compactor", "--help"],
        "compact --help": ["-m", "compactor", "compact", "--help"],
        "import --help": ["-m", "compactor", "import", "--help"],
    }


#: The processes' environment: bytecode cached, as an installed package's is.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_once(arguments: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one process (its exit code must be 0)."""
    before = os.times()
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, *arguments],
        cwd=ROOT,
        env=ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    wall = time.perf_counter() - start
    after = os.times()
    if done.returncode != 0:
        raise SystemExit(f"{arguments}: exit {done.returncode}\n{done.stderr.decode()}")
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return wall, cpu


def slowest_imports(arguments: list[str], top: int) -> list[tuple[int, int, str]]:
    """The ``top`` imports of the largest cumulative time (µs) among the top-level and
    ``compactor`` ones, and their own time: (cumulative, self, name)."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *arguments],
        cwd=ROOT,
        env=ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    rows = []
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        own, cumulative, name = (part.strip() for part in line[12:].split("|"))
        if own.isdigit():
            rows.append((int(cumulative), int(own), name))
    return sorted(rows, reverse=True)[:top]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--top", type=int, default=15, help="slowest imports shown (0: none)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        request = Path(folder) / "tiny.json"
        request.write_text(json.dumps(TINY), "utf-8")
        todo = cases(str(request))
        for arguments in todo.values():  # warm up: bytecode caches, the file system's
            run_once(arguments)
        walls: dict[str, list[float]] = {name: [] for name in todo}
        cpus: dict[str, list[float]] = {name: [] for name in todo}
        names = list(todo)
        for k in range(args.rounds):
            turn = names[k % len(names) :] + names[: k % len(names)]
            for name in turn:
                wall, cpu = run_once(todo[name])
                walls[name].append(wall)
                cpus[name].append(cpu)
        load = os.getloadavg()[0]
        print(
            f"python -m compactor as processes: {args.rounds} interleaved rounds, "
            f"{os.cpu_count()} cores, load average {load:.1f} at the end"
        )
        failed = False
        for name in todo:
            wall, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
            target = TARGETS.get(name)
            verdict = ""
            if target is not None:
                met = wall <= target
                failed = failed or not met
                verdict = f"  (target <= {target} s: {'met' if met else 'NOT met'})"
            rounds = " ".join(f"{w:.2f}" for w in walls[name])
            print(f"  {name:<15} median {wall:.3f} s wall, {cpu:.3f} s CPU{verdict}")
            print(f"  {'':<15} rounds: {rounds}")
        if args.top:
            print("slowest imports of `compact` (python -X importtime, one run; µs):")
            print(f"  {'cumulative':>10} {'self':>8}  module")
            for cumulative, own, name in slowest_imports(todo["compact"], args.top):
                print(f"  {cumulative:>10,} {own:>8,}  {name}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
