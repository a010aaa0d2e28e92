"""The full-size fuzz of issue 34: thousands of odd inputs per family, counted by outcome.

Each family of :mod:`harness.odd_inputs` (odd conversations through ``shrink``, odd
``compaction.toml`` files and setting dicts, odd parameters for every registered strategy) is
drawn ``--cases`` times by hypothesis; every call must return or raise one of the project's
errors. The outcomes are printed by kind per family, with each crash's first example; the exit
code is 1 when any case crashed. The suite runs the same families at a few hundred cases
(tests/compactor/test_odd_inputs.py).

    python -m bench.fuzz_inputs [--cases 3000] [--family messages|settings|params] [--seed N]
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
import traceback
import warnings

from hypothesis import HealthCheck, given, settings
from hypothesis import seed as hypothesis_seed

from harness.odd_inputs import CASES, FAMILIES, crashed, outcome


def run_family(
    family: str, cases: int, seed: int, examples: dict[str, str]
) -> collections.Counter[str]:
    """The outcomes of ``cases`` draws of ``family``; the first traceback of each kind of
    crash goes into ``examples``."""
    counts: collections.Counter[str] = collections.Counter()

    @hypothesis_seed(seed)
    @settings(
        max_examples=cases,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(CASES[family]())
    def each(call):
        result = outcome(call)
        counts[result] += 1
        if crashed(result) and result not in examples:
            try:
                call()
            except Exception:
                examples[result] = traceback.format_exc(limit=-6)

    each()
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=3000, help="cases per family")
    parser.add_argument("--family", choices=FAMILIES, action="append")
    parser.add_argument("--seed", type=int, default=34)
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")  # hypothesis's own notes on slow draws
    crashes = 0
    examples: dict[str, str] = {}
    for family in args.family or FAMILIES:
        start = time.perf_counter()
        counts = run_family(family, args.cases, args.seed, examples)
        seconds = time.perf_counter() - start
        total = sum(counts.values())
        print(f"{family}: {total:,} cases in {seconds:.1f} s")
        for kind, count in counts.most_common():
            print(f"  {count:>7,}  {kind}")
        crashes += sum(c for k, c in counts.items() if crashed(k))
    print(f"crashes: {crashes:,}")
    for kind, text in examples.items():
        print(f"\n{kind}, first seen:\n{text}")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
