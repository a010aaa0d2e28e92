"""Tool-call ids as ``shrink`` sends them (issue 34, items 12 and 13), over thousands of random
histories whose calls lack ids or share them (:mod:`harness.call_id_cases`, the cases the property
test draws from).

For each format (OpenAI Chat Completions, Anthropic Messages) it prints how many histories held
a shared or a missing id as given, how many outputs the report said met their budget, and of
those how many the export sends over it (measured as the budget counts: the export read back by
the import); then how many outputs send two calls of one id, or a call without one. Both last
columns must be 0.

    python -m bench.call_ids [--histories 3000] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from compactor import shrink_with_report
from harness.call_id_cases import FORMATS, call_ids, case, check


def run(histories: int, seed: int) -> dict[str, Counter[str]]:
    counts: dict[str, Counter[str]] = {f: Counter() for f in FORMATS}
    for n in range(histories):
        format = FORMATS[n % len(FORMATS)]
        data, setting = case(random.Random(seed + n), format)
        given = call_ids(data, format)
        named = [i for i in given if i is not None]
        tally = counts[format]
        tally["histories"] += 1
        tally["shared in"] += len(named) != len(set(named))
        tally["missing in"] += len(named) != len(given)
        shrunk = shrink_with_report(data, setting)
        found = check(shrunk.messages, format, shrunk.report)
        tally["met"] += shrunk.report.budget_met
        tally["over while met"] += found.over_while_met
        tally["shared out"] += bool(found.shared_ids)
        tally["missing out"] += bool(found.missing_ids)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--histories", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    counts = run(args.histories, args.seed)
    columns = ["histories", "shared in", "missing in", "met", "over while met"]
    columns += ["shared out", "missing out"]
    print(f"{'format':<10}" + "".join(f"{c:>16}" for c in columns))
    total: Counter[str] = Counter()
    for format, tally in counts.items():
        total.update(tally)
        print(f"{format:<10}" + "".join(f"{tally[c]:>16,}" for c in columns))
    print(f"{'all':<10}" + "".join(f"{total[c]:>16,}" for c in columns))
    print(f"{time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
