"""Loading a corpus at scale: linear in records, streamed, and a resume read one row at a time.

Every corpus is generated in a temporary folder: JSONL of tiny conversations, one a line,
``{"messages": [{"role": "user", "content": "q{i}"}, {"role": "assistant", "content": "a{i}"}]}``
(the shape issue 25 measured: 526,511 of them are 50 MB).

- Linear loading: ``load_corpus`` (the whole list, as the Corpus page and ``import --all``
  read), ``CorpusStream`` (what ``evaluate`` reads) and ``import --all`` on N and 10 N records;
  the time ratio (target <= 12; quadratic reading gave about 100). Best of ``ROUNDS`` each.
- ``evaluate`` end to end, in a process of its own, on N and 10 N records at one budget.
- Resume: a rows file of tens of MB read back as a resumed run reads it, in a process of its
  own: the rows in a list (what ``evaluate --resume`` did) against the row keys and the
  summary's figures (what it does now); peak RSS of each.
- ``--full``: ``evaluate`` on 526,511 records at ``--budgets 2000`` with ``--out``: seconds to
  the first row written (target <= 30), the whole time, and the peak RSS of the command's
  process and of its largest worker.

    python -m bench.loading            # from the project root; --full for the 526,511 run
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from compactor.cli._main import main as cli_main
from compactor.evaluation import CorpusStream, load_corpus

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = 3
SMALL, EVALUATED, FULL = 5_000, 1_000, 526_511
LINEAR_TARGET, FIRST_ROW_TARGET = 12.0, 30.0
#: Rows of the resumed file (about 330 bytes each: some 50 MB).
RESUMED_ROWS = 150_000


def write_tiny(path: Path, count: int) -> Path:
    with path.open("w") as handle:
        for i in range(count):
            line = {
                "messages": [
                    {"role": "user", "content": f"q{i}"},
                    {"role": "assistant", "content": f"a{i}"},
                ]
            }
            handle.write(json.dumps(line) + "\n")
    return path


def timed(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def import_all(path: Path) -> None:
    with open(os.devnull, "w") as out, open(os.devnull, "w") as err:
        saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = out, err
        try:
            cli_main(["import", "--all", str(path)])
        finally:
            sys.stdout, sys.stderr = saved


def linear(folder: Path) -> None:
    small = write_tiny(folder / "small.jsonl", SMALL)
    large = write_tiny(folder / "large.jsonl", 10 * SMALL)
    print(
        f"Linear loading: {SMALL:,} and {10 * SMALL:,} tiny conversations; the median of "
        f"{ROUNDS} rounds, each timing both side by side (the machine is shared)"
    )
    readers = {
        "load_corpus": lambda p: load_corpus(p),
        "CorpusStream": lambda p: sum(1 for _ in CorpusStream(p)),
        "import --all": import_all,
    }
    for name, read in readers.items():
        read(small)  # warm up: imports, caches
        rounds = []
        for k in range(ROUNDS):
            order = (small, large) if k % 2 == 0 else (large, small)
            spent = {path: timed(lambda r=read, p=path: r(p)) for path in order}
            rounds.append((spent[large] / spent[small], spent[small], spent[large]))
        ratio, few, many = sorted(rounds)[len(rounds) // 2]
        print(
            f"  {name:<13} {few:6.2f} s and {many:6.2f} s ({many * 1e6 / (10 * SMALL):.0f} us a "
            f"record): 10 x the records in {ratio:4.1f} x the time (target <= {LINEAR_TARGET:g})"
        )


def evaluate_command(corpus: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "compactor", "evaluate", str(corpus), "--budgets", "2000", *args]


def end_to_end(folder: Path) -> None:
    print(f"evaluate end to end (--budgets 2000, one process each), {EVALUATED:,} and 10 x")
    spent = []
    for count in (EVALUATED, 10 * EVALUATED):
        corpus = write_tiny(folder / f"e{count}.jsonl", count)
        start = time.perf_counter()
        subprocess.run(evaluate_command(corpus), cwd=ROOT, capture_output=True, check=True)
        spent.append(time.perf_counter() - start)
    print(
        f"  {spent[0]:.1f} s and {spent[1]:.1f} s: 10 x the records in "
        f"{spent[1] / spent[0]:.1f} x the time (target <= {LINEAR_TARGET:g}; each includes "
        "the start of Python and of the pool)"
    )


#: The peak resident set of this process (VmHWM: ru_maxrss would count the parent's, from fork).
PEAK = "[int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM')][0]"
#: What a resume held before: the rows in a list, their keys, and the summary's rows, as
#: ``evaluate --resume`` read them (its _earlier and written_whole, as they were).
RESUME_BEFORE = f"""
import sys
from compactor.evaluation import row_key
from compactor.evaluation._grid import grid_point_key
from compactor.evaluation._output import read_rows
rows = read_rows(sys.argv[1])
kept = [r for r in rows]  # at listed budgets the summary read every row
skip = {{row_key(r) for r in rows}}
last, seen, keys = {{}}, {{}}, set()
for k, row in enumerate(rows):
    last[row["conversation"]] = k
    seen.setdefault(row["conversation"], set()).add(grid_point_key(row))
    keys.add(row_key(row))
print(len(rows), {PEAK})
"""
RESUME_AFTER = f"""
import sys, argparse
from compactor.cli._evaluate import _earlier, _plan, register
from compactor.evaluation import RunOptions
from compactor.evaluation._summary import SummaryFeed
parser = argparse.ArgumentParser()
register(parser.add_subparsers())
args = parser.parse_args(["evaluate", "corpus.jsonl", "--budgets", "2000"])
written = _earlier(sys.argv[1], _plan(args), RunOptions(), SummaryFeed())
print(len(written), {PEAK})
"""
BASELINE = f"""
import compactor.cli._evaluate
print(0, {PEAK})
"""


def resume(folder: Path) -> None:
    corpus = write_tiny(folder / "resume-corpus.jsonl", RESUMED_ROWS // 3)
    out = folder / "rows.jsonl"
    subprocess.run(
        evaluate_command(corpus, "--out", str(out)), cwd=ROOT, capture_output=True, check=True
    )
    size = out.stat().st_size
    print(f"Resume: reading back a rows file of {size / 1e6:.0f} MB ({RESUMED_ROWS:,} rows)")
    found = {}
    for name, code in (("imports", BASELINE), ("before", RESUME_BEFORE), ("after", RESUME_AFTER)):
        done = subprocess.run(
            [sys.executable, "-c", code, str(out)], cwd=ROOT, capture_output=True, check=True
        )
        rows, peak = done.stdout.split()
        found[name] = (int(rows), int(peak) / 1024)
    base = found["imports"][1]
    for name, text in (("before", "the rows in a list"), ("after", "row keys and figures")):
        rows, peak = found[name]
        print(
            f"  {name:<6} ({text}): peak RSS {peak:6.0f} MB, {peak - base:5.0f} MB over the "
            f"imports ({(peak - base) * 1e6 / size:.1f} x the file), {rows:,} rows"
        )


def full(folder: Path) -> None:
    corpus = write_tiny(folder / "full.jsonl", FULL)
    out = folder / "full-rows.jsonl"
    print(f"evaluate on {FULL:,} tiny conversations ({corpus.stat().st_size / 1e6:.0f} MB)")
    start = time.perf_counter()
    process = subprocess.Popen(
        evaluate_command(corpus, "--out", str(out)),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    first, peak_main, peak_worker = None, 0, 0
    while process.poll() is None:
        if first is None and out.exists() and out.stat().st_size:
            first = time.perf_counter() - start
        peak_main = max(peak_main, _rss(process.pid))
        peak_worker = max([peak_worker, *(_rss(pid) for pid in _children(process.pid))])
        time.sleep(0.2)
    took = time.perf_counter() - start
    rows = sum(1 for _ in out.open("rb"))
    print(
        f"  first row after {first:.1f} s (target <= {FIRST_ROW_TARGET:g}); {rows:,} rows in "
        f"{took / 60:.1f} min ({rows / took:,.0f} rows/s); exit {process.returncode}\n"
        f"  peak RSS: the command {peak_main / 1024:.0f} MB, its largest worker "
        f"{peak_worker / 1024:.0f} MB"
    )


def _rss(pid: int) -> int:
    """The peak resident set of a process so far, in KiB (0 when it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                text = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(text[text.rindex(")") + 2 :].split()[1]) == pid:
                found.append(int(entry))
    return found


def main() -> None:
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        if "--full" in sys.argv[1:]:
            full(folder)
            return
        linear(folder)
        end_to_end(folder)
        resume(folder)


if __name__ == "__main__":
    main()
