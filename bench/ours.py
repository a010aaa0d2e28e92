"""Needed-later recall of anchor-keep beside memory-compact, keep-last and random (SPEC part D).

For each conversation and budget (10, 20, 30 and 50 percent of the conversation's characters,
as ``bench.outcomes --table``), the last 5 messages are the future and the rest the past; the
past is compacted by anchor-keep (judged by its kept spans), by memory-compact with the schema's
defaults, by keep-last and by 20 seeded random draws (mean and 2.5th..97.5th percentile), and
each is scored by the future needs it meets. Pooled over conversations (met needs / needs), with
anchor-keep's lift over keep-last and its 95% bootstrap interval (conversations resampled).

    python -m bench.ours                      # the shared corpus and tests/fixtures/real
    python -m bench.ours --extra DIR_OR_FILE  # and more conversations (any importable format)
    python -m bench.ours --params '{"unit_chars": 120}' --quiet --protection bare

Both anchor-keep and memory-compact run under each protection of PROTECTIONS: the schema's
defaults (system messages and the last 5 kept whole, as memory-compact protects them) and
bare (no role protected, the last message kept whole), keep-last's and random's own rules.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass

from bench.recall_corpus import FOLDERS, SHARES, conversations
from bench.recall_corpus import lift_interval as pooled_lift
from compactor import InvalidRequest, validate
from compactor.analyses.outcomes import (
    DEFAULT_FUTURE,
    continuation_check,
    find_needs,
    judge_spans,
    past_request,
)
from compactor.strategies import _anchor_keep as anchor_keep
from compactor.wording import percent, points

#: The protection both anchor-keep and memory-compact run with: the schema's defaults (system
#: messages and the last 5 protected), and bare (nothing protected by role, the last message),
#: the rules keep-last and random play by (they protect nothing).
PROTECTIONS = {
    "defaults": {},
    "bare": {"keep_roles": [], "keep_last_n": 1},
}
STRATEGIES = ("ours", "memory-compact", "keep-last", "random")


@dataclass
class Row:
    """One conversation at one budget share: needs and met needs per strategy."""

    name: str
    share: float
    needs: int
    met: dict[str, float]  # random: the mean over draws of met needs
    random_low: float
    random_high: float
    budget_met: bool


def measure(name: str, messages: list[dict], params: dict, protection: dict) -> list[Row]:
    future = min(DEFAULT_FUTURE, len(messages) - 2)
    chars = sum(len(m["content"]) for m in messages)
    rows = []
    for share in SHARES:
        budget = max(100, int(share * chars))
        request = validate({"messages": messages, "budget_chars": budget, **protection})
        try:
            past = past_request(request, future)
        except InvalidRequest:
            continue
        check = continuation_check(request, future=future)
        needs = find_needs(request.contents, request.roles)
        ours = anchor_keep.apply(past, None, params)
        judged = judge_spans(needs, [m.spans for m in ours.messages])
        n = judged.needs
        assert (
            check.setting is not None and check.keep_last is not None and n == check.setting.needs
        )
        r = check.random
        met = {
            "ours": judged.met,
            "memory-compact": check.setting.met,
            "keep-last": check.keep_last.met,
            "random": (r.mean or 0.0) * n,
        }
        low, high = (r.low or 0.0) * n, (r.high or 0.0) * n
        budget_met = ours.budget_met or ours.protected_exceeds_budget
        rows.append(Row(name, share, n, met, low, high, budget_met))
    return rows


def lift_interval(rows: list[Row], seed: int = 0) -> tuple[float, float, float]:
    """anchor-keep's pooled recall minus keep-last's, and its 95% bootstrap interval over
    conversations (each resample draws conversations with replacement and pools their needs)."""
    rows = [r for r in rows if r.needs]
    diff = [r.met["ours"] - r.met["keep-last"] for r in rows]
    return pooled_lift([r.needs for r in rows], diff, seed)


def _share(met: float, needs: int) -> str:
    return percent(met / needs) if needs else "  - "


def table(rows: list[Row], quiet: bool, protection: str) -> None:
    head = "ours / memory-compact / keep-last / random mean [2.5%, 97.5%]"
    print(f"Needed-later recall (future = last {DEFAULT_FUTURE} messages; budget = share of the")
    print(f"conversation's characters; protection {protection} {PROTECTIONS[protection]}): {head}")
    if not quiet:
        names = list(dict.fromkeys(r.name for r in rows))
        print(
            f"{'conversation':46} {'needs':>5}" + "".join(f" | {int(s * 100):>3}%" for s in SHARES)
        )
        for name in names:
            mine = {r.share: r for r in rows if r.name == name}
            needs = max((r.needs for r in mine.values()), default=0)
            if not needs:
                continue
            cells = []
            for s in SHARES:
                r = mine.get(s)
                if r is None or not r.needs:
                    cells.append(" | -")
                    continue
                fig = " / ".join(_share(r.met[k], r.needs) for k in STRATEGIES)
                band = f"[{_share(r.random_low, r.needs)}, {_share(r.random_high, r.needs)}]"
                cells.append(f" | {fig} {band}")
            print(f"{name[:46]:46} {needs:5}" + "".join(cells))
    print()
    print(f"{'pooled':8} {'convs':>5} {'needs':>6}  " + "  ".join(f"{k:>14}" for k in STRATEGIES))
    print(f"{'':8} {'':5} {'':6}  {'lift over keep-last [95% bootstrap]':>40}")
    for share in SHARES:
        mine = [r for r in rows if r.share == share and r.needs]
        needs = sum(r.needs for r in mine)
        if not needs:
            continue
        shares = [sum(r.met[k] for r in mine) / needs for k in STRATEGIES]
        figures = "  ".join(f"{percent(share):>14}" for share in shares)
        lift, low, high = lift_interval(mine)
        broken = sum(not r.budget_met for r in rows if r.share == share)
        print(
            f"{int(share * 100):>6}%  {len(mine):5} {needs:6}  {figures}   "
            f"lift {points(lift)} [{points(low)}, {points(high)}]"
            + (f"  ({broken} over budget)" if broken else "")
        )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.ours", description=__doc__)
    parser.add_argument("--extra", action="append", default=[], help="more conversations")
    parser.add_argument("--params", default="{}", help="anchor-keep's parameters as JSON")
    parser.add_argument("--quiet", action="store_true", help="print the pooled figures only")
    parser.add_argument("--protection", choices=[*PROTECTIONS, "both"], default="both")
    parser.add_argument("--no-defaults", action="store_true", help="only the --extra files")
    args = parser.parse_args()
    params = json.loads(args.params)
    chosen = list(PROTECTIONS) if args.protection == "both" else [args.protection]
    folders = [] if args.no_defaults else list(FOLDERS)
    found = conversations(folders + args.extra)
    for protection in chosen:
        rules = PROTECTIONS[protection]
        rows = [row for name, ms in found for row in measure(name, ms, params, rules)]
        table(rows, args.quiet, protection)
        print()


if __name__ == "__main__":
    main()
