"""Outcome speed, and the needed-later recall table (SPEC part D).

Speed: on the largest sample, the outcome figures after a parameter change (the continuation
check with 20 random draws and the recall curve over every budget: what the explorer recomputes
when a slider moves) against one ``compact`` of the full request. Each round changes a
parameter, so the stages run again; the parameter-free parts (the needs, the past's text
analysis and anchors) are remembered per conversation. Target: at most 0.5 times one
``compact``. Medians over interleaved rounds, so machine noise hits both alike.

``python -m bench.outcomes --table``: needed-later recall of the setting (schema defaults) beside
keep-last and random (mean and 2.5th..97.5th percentile over 20 draws) at budgets of 10, 20, 30
and 50 percent of each conversation's characters, over the shared corpus and the real fixtures.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from bench.recall_corpus import FOLDERS, SHARES
from bench.timing import medians
from compactor import compact, validate
from compactor.analyses.outcomes import DEFAULT_FUTURE, continuation_check
from compactor.evaluation import load_corpus
from compactor.samples import load_samples
from compactor.wording import percent, points

ROUNDS = 9
TARGET = 0.5


def chars_of(request: dict) -> int:
    return sum(len(m["content"]) for m in request["messages"])


def largest_sample() -> tuple[str, dict]:
    sample = max(load_samples(), key=lambda s: chars_of(s.request))
    return sample.slug, sample.request


def speed() -> None:
    slug, request = largest_sample()
    changes = [
        {"budget_chars": 120_000, "max_message_chars": 4000},
        {"budget_chars": 60_000, "max_message_chars": 1200},
        {"budget_chars": 200_000, "max_message_chars": 400},
        {"budget_chars": 90_000, "max_message_chars": 2500},
    ]
    turn = iter(range(10**9))

    def figures() -> object:  # a new setting each call: nothing of the stages is reused
        change = changes[next(turn) % len(changes)]
        return continuation_check(validate({**request, **change}), future=DEFAULT_FUTURE, draws=20)

    tasks: dict[str, Callable[[], object]] = {
        "compact (full request)": lambda: compact(request),
        "outcomes after a change": figures,
    }
    # the warm-up call finds the parameter-free parts once, as the explorer does
    t = medians(tasks, ROUNDS)
    print(
        f"largest sample {slug!r}: {len(request['messages'])} messages, "
        f"{chars_of(request):,} characters; {ROUNDS} rounds"
    )
    for name, seconds in t.items():
        print(f"  {name + ' median:':34}{seconds * 1000:9.1f} ms")
    ratio = t["outcomes after a change"] / t["compact (full request)"]
    verdict = "meets" if ratio <= TARGET else "misses"
    print(f"  outcomes after a change / compact: {ratio:6.3f}  (target <= {TARGET}: {verdict})")
    check = continuation_check(validate(request), future=DEFAULT_FUTURE, draws=20)
    nlr = check.to_dict()["needed_later_recall"]
    print(
        f"  figures at its own parameters (future {check.future}): needs {check.setting.needs}, "
        f"setting {percent(nlr['setting']['recall'])}, "
        f"keep-last {percent(nlr['keep_last']['recall'])}, "
        f"random {percent(nlr['random']['mean'])} [{percent(nlr['random']['low'])}, "
        f"{percent(nlr['random']['high'])}], lift {points(nlr['lift'])}; "
        f"curve {len(check.curve)} steps; anchor retention {percent(check.retention.setting)} "
        f"vs keep-last {percent(check.retention.keep_last)}"
    )


def _cell(value: float | None) -> str:
    """A recall as the house prints it (a percentage with one decimal), padded for the table."""
    return f"{percent(value):>6}"


def table(form: str = "protected") -> None:
    print(
        "Needed-later recall (future = last 5 messages; schema defaults; budget = share of the "
        "conversation's characters): setting / keep-last / random mean [2.5%, 97.5%]; "
        f"baselines {form}"
    )
    header = f"{'conversation':52} {'msgs':>4} {'chars':>7} {'needs':>5}"
    print(header + "".join(f" | {f'{int(s * 100)}%':^41}" for s in SHARES))
    pooled = {s: [0, 0.0, 0.0, 0.0] for s in SHARES}  # needs, setting, keep-last, random met
    for folder in FOLDERS:
        for item in load_corpus(folder, keep_last=True, cut_long=True):
            messages = item.request["messages"]
            if len(messages) < 4:
                continue
            future = min(DEFAULT_FUTURE, len(messages) - 2)
            chars = chars_of(item.request)
            row, needs = [], None
            for share in SHARES:
                data = {"messages": messages, "budget_chars": max(100, int(share * chars))}
                check = continuation_check(validate(data), future=future).in_form(form)
                needs = check.setting.needs
                if not needs:
                    row.append(f" | {'no needs':^41}")
                    continue
                r = check.random
                row.append(
                    f" | {_cell(check.recall)} / {_cell(check.keep_last.recall)} / "
                    f"{_cell(r.mean)} [{_cell(r.low)}, {_cell(r.high)}]"
                )
                tally = pooled[share]
                tally[0] += needs
                tally[1] += check.setting.met
                tally[2] += check.keep_last.met
                tally[3] += r.mean * needs
            name = f"{folder.name}/{item.conversation}"
            print(f"{name[:52]:52} {len(messages):4} {chars:7,} {needs:5}" + "".join(row))
    line = f"{'pooled (met needs / needs, all conversations)':52} {'':4} {'':7} {'':5}"
    for share in SHARES:
        n, s, k, r = pooled[share]
        line += f" | {_cell(s / n)} / {_cell(k / n)} / {_cell(r / n)}{'':17}" if n else " | -"
    print(line)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m bench.outcomes", description=__doc__)
    parser.add_argument("--table", action="store_true", help="print the recall table instead")
    parser.add_argument(
        "--baselines",
        choices=("protected", "bare"),
        default="protected",
        help="the baselines' form in the table (protected: the setting's keep_roles and pins "
        "kept first)",
    )
    args = parser.parse_args()
    table(args.baselines) if args.table else speed()
