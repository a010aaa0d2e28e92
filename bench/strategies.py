"""Every registry strategy side by side (issue 27's closing table): needed-later recall,
characters and stable-prefix share at 10, 20, 30 and 50% budgets.

    python -m bench.strategies                  # the shared corpus and tests/fixtures/real
    python -m bench.strategies --extra PATH     # and more conversations (any importable format)
    python -m bench.strategies --max-replay 30  # shorter replays (default 60 messages)

For each conversation (4 messages or more) and each share, the budget is that share of the
conversation's characters (within the schema's 100..400,000). Every strategy of the registry
that needs no provider runs at its lineup parameters (the registry's example where the peer's
defaults do nothing; memory-compact with the schema's defaults), and anchor-keep also bare
(``keep_roles=[]``, ``keep_last_n=1``: keep-last protects nothing). Three figures:

- needed-later recall (k = 5): the last 5 messages are the future (fewer for a short
  conversation: at least 2 stay in the past), the past is compacted at the budget and judged by
  ``judge_outcome`` (kept spans; a placeholder holds nothing); met needs over needs, pooled
  over conversations; keep-last and 20 seeded random draws beside (random: the mean of the
  pooled figure over draws, and its 2.5th..97.5th percentiles);
- characters: the whole conversation compacted at the budget, output characters (placeholders
  counted) over input characters, the mean over conversations; and the share of conversations
  whose output meets the budget (protected messages alone may exceed it; a peer without a
  trigger ignores it);
- stable-prefix share: the conversation's first ``--max-replay`` messages replayed (compacted
  on every turn at that share of their characters): the characters a prompt cache could reuse
  over the characters sent (``compactor.analyses.replay.cache_reuse``), the mean over
  conversations.

Then anchor-keep's lift over keep-last (pooled recall minus keep-last's) with a 95% bootstrap
interval (2,000 resamples of the conversations, seed 0), at every share.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bench.recall_corpus import FOLDERS, SHARES, conversations
from bench.recall_corpus import lift_interval as pooled_lift
from compactor import InvalidRequest, validate
from compactor.analyses._sweeps import BUDGET_RANGE
from compactor.analyses.outcomes import (
    DEFAULT_DRAWS,
    DEFAULT_FUTURE,
    PERCENTILES,
    find_needs,
    judge_outcome,
    keep_last_lengths,
    met_needs,
    past_request,
    random_lengths,
)
from compactor.analyses.replay import MemoryCompact, cache_reuse, replay
from compactor.analyses.replay._strategies import Registered
from compactor.model import Request
from compactor.strategies import _registry as registry
from compactor.wording import floor_percent, percent, points

MAX_REPLAY = 60
OURS, BARE = "anchor-keep", "anchor-keep bare"
KEEP_LAST, RANDOM = "keep-last", "random"
#: anchor-keep with no protection, the rule keep-last plays by.
BARE_PARAMS = {"keep_roles": [], "keep_last_n": 1}


@dataclass(frozen=True)
class Variant:
    label: str
    name: str  # the registry name
    params: Mapping[str, Any]


def variants() -> list[Variant]:
    """Every registry strategy at its lineup parameters, then anchor-keep bare."""
    out = [Variant(n, n, dict(registry.get(n).lineup)) for n in registry.names()]
    return [*out, Variant(BARE, OURS, BARE_PARAMS)]


@dataclass
class Cell:
    """One conversation at one share: per variant its judged needs and met needs, characters
    share and stable-prefix share; keep-last's met needs and random's per draw."""

    conversation: str
    needs: int = 0
    met: dict[str, int] = field(default_factory=dict)
    chars: dict[str, float] = field(default_factory=dict)
    stable: dict[str, float] = field(default_factory=dict)
    within: dict[str, float] = field(default_factory=dict)  # 1.0 when the budget was met
    random_met: np.ndarray = field(default_factory=lambda: np.zeros(DEFAULT_DRAWS))


def budget_of(share: float, chars: int) -> int:
    low, high = BUDGET_RANGE
    return min(high, max(low, int(share * chars)))


def replay_share(messages: list[dict], share: float, variant: Variant) -> float:
    """The stable-prefix share of a replay of ``messages`` at ``share`` of their characters."""
    budget = budget_of(share, sum(len(m["content"]) for m in messages))
    request = validate({"messages": messages, "budget_chars": budget})
    if variant.name == "memory-compact" and not variant.params:
        strategy: Any = MemoryCompact(request.params)  # equal to the registry's, and faster
    else:
        strategy = Registered(variant.name, request.params, dict(variant.params))
    return cache_reuse(replay(request.messages, strategy, budget_chars=budget))


def measure(
    name: str, messages: list[dict], chosen: list[Variant], max_replay: int
) -> dict[float, Cell]:
    chars = sum(len(m["content"]) for m in messages)
    future = min(DEFAULT_FUTURE, len(messages) - 2)
    whole = validate({"messages": messages, "budget_chars": budget_of(0.5, chars)})
    needs = find_needs(whole.contents, whole.roles)
    try:
        past: Request | None = past_request(whole, future)
    except InvalidRequest:
        past = None
    lengths = None if past is None else [len(c) for c in past.contents]
    cells = {}
    for share in SHARES:
        budget = budget_of(share, chars)
        cell = Cell(name)
        if past is not None:
            found, met = met_needs(needs, keep_last_lengths(lengths, budget))
            cell.needs = len(found)
            cell.met[KEEP_LAST] = int(met.sum())
            _, drawn = met_needs(needs, random_lengths(lengths, budget, DEFAULT_DRAWS))
            cell.random_met = drawn.sum(axis=1).astype(np.float64)
        for v in chosen:
            outcome = registry.apply(v.name, whole, budget_chars=budget, params=v.params)
            if not outcome.available:
                continue
            cell.chars[v.label] = (outcome.output_chars or 0) / chars
            cell.within[v.label] = float(bool(outcome.budget_met))
            if past is not None:
                judged_outcome = judge_outcome(
                    needs, registry.apply(v.name, past, budget_chars=budget, params=v.params)
                )
                assert judged_outcome.needs == cell.needs
                cell.met[v.label] = judged_outcome.met
            cell.stable[v.label] = replay_share(messages[:max_replay], share, v)
        cells[share] = cell
    return cells


def pooled(cells: list[Cell], label: str) -> float | None:
    needs = sum(c.needs for c in cells if label in c.met)
    return sum(c.met[label] for c in cells if label in c.met) / needs if needs else None


def lift_interval(cells: list[Cell], label: str, seed: int = 0) -> tuple[float, float, float]:
    """``label``'s pooled recall minus keep-last's, and its 95% bootstrap interval over
    conversations (each resample draws conversations with replacement and pools their needs)."""
    cells = [c for c in cells if c.needs]
    diff = [c.met[label] - c.met[KEEP_LAST] for c in cells]
    return pooled_lift([c.needs for c in cells], diff, seed)


def _fig(value: float | None, promise: bool = False) -> str:
    """A share as the house prints it: a percentage with one decimal, rounded down when it is a
    promise kept (budget met)."""
    return (floor_percent if promise else percent)(value)


def table(by_share: dict[float, list[Cell]], chosen: list[Variant], max_replay: int) -> None:
    head = "".join(f"  {int(s * 100):>5}%" for s in SHARES)
    convs = len(by_share[SHARES[0]])
    needs = [sum(c.needs for c in by_share[s]) for s in SHARES]
    print(f"{convs} conversations; needs judged per share: {', '.join(map(str, needs))}")
    labels = [v.label for v in chosen if any(v.label in c.chars for c in by_share[SHARES[0]])]
    missing = [v.label for v in chosen if v.label not in labels]
    blocks = (
        (f"Needed-later recall (pooled, future = last {DEFAULT_FUTURE})", "met"),
        ("Output characters (mean share of the input)", "chars"),
        ("Budget met (share of conversations)", "within"),
        (f"Stable-prefix share (replay of the first {max_replay} messages)", "stable"),
    )
    for title, figure in blocks:
        print(f"\n{title:<44}{head}")
        for label in labels:
            cells = []
            for s in SHARES:
                if figure == "met":
                    cells.append(_fig(pooled(by_share[s], label)))
                else:
                    values = [getattr(c, figure)[label] for c in by_share[s]]
                    cells.append(_fig(float(np.mean(values)), figure == "within"))
            print(f"{label:<44}" + "".join(f"  {c:>6}" for c in cells))
        if figure == "met":
            row = [_fig(pooled(by_share[s], KEEP_LAST)) for s in SHARES]
            print(f"{'keep-last (baseline)':<44}" + "".join(f"  {c:>6}" for c in row))
            rand = []
            for s in SHARES:
                total = sum(c.needs for c in by_share[s])
                draws = sum(c.random_met for c in by_share[s]) / total
                low, high = np.percentile(draws, PERCENTILES)
                rand.append(f"{percent(draws.mean())} [{percent(low)}, {percent(high)}]")
            print(f"{'random, 20 draws: mean [2.5%, 97.5%]':<44}  " + "   ".join(rand))
    if missing:
        print(f"\nnot run (an optional package is missing): {', '.join(missing)}")
    print("\nLift over keep-last in needed-later recall [95% bootstrap over conversations]")
    for label in (OURS, BARE):
        parts = []
        for s in SHARES:
            lift, low, high = lift_interval(by_share[s], label)
            parts.append(f"{int(s * 100)}%: {points(lift)} [{points(low)}, {points(high)}]")
        print(f"{label:<18}" + "   ".join(parts))


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.strategies", description=__doc__)
    parser.add_argument("--extra", action="append", default=[], help="more conversations")
    parser.add_argument("--max-replay", type=int, default=MAX_REPLAY, metavar="N")
    parser.add_argument("--no-defaults", action="store_true", help="only the --extra files")
    args = parser.parse_args()
    folders = [] if args.no_defaults else list(FOLDERS)
    found = conversations(folders + args.extra)
    chosen = variants()
    started = time.perf_counter()
    by_share: dict[float, list[Cell]] = {s: [] for s in SHARES}
    for name, messages in found:
        for share, cell in measure(name, messages, chosen, args.max_replay).items():
            by_share[share].append(cell)
    table(by_share, chosen, args.max_replay)
    print(f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
