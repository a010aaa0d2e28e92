"""What each strategy costs per task at one model's prices, beside its recall (issue 37's
closing note; docs/cost.md says how a call is priced).

    python -m bench.cost                          # at claude-sonnet-5-5, the shipped table
    python -m bench.cost --model gpt-6-2-sol      # another entry
    python -m bench.cost --prices FILE --model M  # your own table
    python -m bench.cost --skip-real              # the tau-bench records only (fast)

Two tables:

- the shared real sessions (``../shared/real-compactions``): at each compaction Claude Code
  recorded, the recorded summary (its call: the history read from the cache, the summary
  written as output, then written to the cache by the next call) and every strategy of the
  lineup at the summary's size (no model call: the next call writes what it kept, reading what
  it left unchanged at the start); the cost summed over the compactions, and needed-later
  recall pooled over them (met needs over needs), as ``graded`` judges it. keep-last is in the
  lineup; random is not (graded compactions have no random draw);
- the project's tau-bench records (``tau_*`` in the shared corpus and tests/fixtures/real):
  every strategy replayed over the whole conversation (compacting on every turn at 30% of its
  characters, the lineup's parameters), each call priced; the task's cost (the mean over
  records) and the replay's needs met (SPEC part D: a need is missed when the history sent
  before its message no longer held its source), pooled. A random baseline is not replayed.

Tokens: o200k_base with the tokens extra (approximate for Anthropic's and Google's models),
else characters / 4; calls are assumed within the cache lifetime (the import keeps no
timestamps).
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from pathlib import Path

from compactor.analyses import grade
from compactor.analyses.outcomes import find_needs, replay_misses
from compactor.analyses.pricing import TokenCounter, graded_costs, load_prices, price_histories
from compactor.analyses.replay import replay_request
from compactor.contract import AUTO_LIMITS
from compactor.evaluation import load_corpus
from compactor.formats import apply_fixes, convert_text
from compactor.input import validate
from compactor.strategies import strategy_available, strategy_names

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT.parent / "shared" / "real-compactions"
TAU = (ROOT.parent / "shared" / "corpus", ROOT / "tests" / "fixtures" / "real")
SHARE = 0.3


def _pct(met: int, needs: int) -> str:
    return f"{100 * met / needs:.1f}%" if needs else "—"


def real_sessions(model, counter) -> None:
    cost: dict[str, float] = defaultdict(float)
    met: dict[str, int] = defaultdict(int)
    needs: dict[str, int] = defaultdict(int)
    at_size: dict[str, int] = defaultdict(int)
    names: dict[str, str] = {}
    count = 0
    for path in sorted(REAL.glob("*.jsonl")):
        conversion = apply_fixes(convert_text(path.read_bytes()))
        request = validate(conversion.request, limits=AUTO_LIMITS)
        for g in grade(request, conversion.compactions).compactions:
            if not g.valid:
                continue
            count += 1
            costs = graded_costs(g, model, counter=counter)
            for row in g.rows:
                if row.key not in costs or row.recall is None:
                    continue
                names[row.key] = row.name
                cost[row.key] += costs[row.key].cost.total if costs[row.key].cost else 0.0
                met[row.key] += row.recall.met
                needs[row.key] += row.recall.needs
                at_size[row.key] += g.at_size(row)
    print(f"\nReal sessions: {count} graded compactions at {model.name}'s prices")
    print(f"{'row':<34}{'cost, all':>12}{'per compaction':>16}{'recall':>9}{'at size':>9}")
    for key in sorted(cost, key=cost.get):
        print(
            f"{names[key]:<34}{cost[key]:>12.4f}{cost[key] / count:>16.4f}"
            f"{_pct(met[key], needs[key]):>9}{at_size[key]:>6}/{count}"
        )


def tau_records(model, counter) -> None:
    records = [
        item
        for folder in TAU
        for item in load_corpus(folder, keep_last=True, cut_long=True)
        if str(item.conversation).startswith("tau_")
    ]
    cost: dict[str, float] = defaultdict(float)
    met: dict[str, int] = defaultdict(int)
    needs: dict[str, int] = defaultdict(int)
    reads: dict[str, int] = defaultdict(int)
    sent: dict[str, int] = defaultdict(int)
    used = 0
    for item in records:
        messages = item.request["messages"]
        chars = sum(len(m["content"]) for m in messages)
        budget = max(100, int(chars * SHARE))
        request = validate({"messages": messages, "budget_chars": budget}, limits=AUTO_LIMITS)
        found = find_needs(request.contents, request.roles)
        used += 1
        for name in strategy_names():
            if not strategy_available(name):
                continue
            replayed = replay_request(request, name)
            priced = price_histories(replayed.histories, request.messages, model, counter=counter)
            missed = replay_misses(replayed, found)
            cost[name] += priced.cost.total if priced.cost else 0.0
            needs[name] += missed.needs
            met[name] += missed.needs - len(missed.misses)
            reads[name] += priced.split.reads
            sent[name] += priced.split.input
    print(f"\ntau-bench records: {used} conversations, replayed at {SHARE:.0%} of their characters")
    print(f"{'strategy':<28}{'cost per task':>14}{'needs met':>11}{'cache reads':>13}")
    for name in sorted(cost, key=cost.get):
        print(
            f"{name:<28}{cost[name] / used:>14.4f}{_pct(met[name], needs[name]):>11}"
            f"{_pct(reads[name], sent[name]):>13}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="claude-sonnet-5-5")
    parser.add_argument("--prices", default=None)
    parser.add_argument("--skip-real", action="store_true")
    args = parser.parse_args()
    model = load_prices(args.prices).get(args.model)
    counter = TokenCounter.best()
    print(f"{model.name}: {model.source} ({model.read}); tokens: {counter.method}")
    start = time.perf_counter()
    tau_records(model, counter)
    if not args.skip_real:
        real_sessions(model, counter)
    print(f"\n{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
