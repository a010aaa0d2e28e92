"""``evaluate --fail-under FIGURE=VALUE``: the regression gate's options and its verdict, which
follows the summary on standard output and decides the exit code (1 when a figure falls short)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from compactor.errors import Problem, ProblemError
from compactor.evaluation import (
    ALIASES,
    OUTCOME_FIGURES,
    Group,
    Threshold,
    check,
    parse_threshold,
)
from compactor.wording import plural

HELP = f"""\
The regression gate: --fail-under FIGURE=VALUE (repeatable) exits 1 when a setting's figure is
below VALUE, --fail-over FIGURE=VALUE when it is above (tool_pairs_broken=0, output_chars_p90=...).
FIGURE is any figure of the summary: budget_met_rate, anchor_retention_median (_p10, _p90),
needed_recall (pooled), needed_recall_median, needed_lift, probes_strict (_partial, _answer),
output_chars_median (_p10, _p90), output_chars, output_tokens, anchors_kept, needs_met,
tool_pairs_broken; or {", ".join(f"{a} (= {f})" for a, f in ALIASES.items())}. A share is
0 to 1 or a percentage (60%). Each setting evaluated is checked at its budget (so give one:
--setting FILE, --budgets or --grid budget_chars=...); a failing figure is named with its value,
its threshold and the conversations worst on it. A figure the run could not measure fails."""


def add_gate_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("the regression gate (exit 1 when a figure falls short)")
    group.add_argument(
        "--fail-under",
        action="append",
        default=[],
        metavar="FIGURE=VALUE",
        help="fail when a setting's FIGURE is below VALUE (repeatable), e.g. needed_later=0.6",
    )
    group.add_argument(
        "--fail-over",
        action="append",
        default=[],
        metavar="FIGURE=VALUE",
        help="fail when a setting's FIGURE is above VALUE (repeatable), e.g. tool_pairs_broken=0",
    )


def thresholds_of(args: argparse.Namespace) -> list[Threshold]:
    """The thresholds the command line gives; ProblemError names each bad one and where
    (``--fail-under[1]: ...``)."""
    found, problems = [], []
    for direction in ("under", "over"):
        for k, text in enumerate(getattr(args, f"fail_{direction}")):
            try:
                found.append(parse_threshold(text, direction, f"--fail-{direction}[{k}]"))
            except ProblemError as error:
                problems += error.problems
    if problems:
        raise ProblemError(problems)
    return found


def check_measurable(
    thresholds: Sequence[Threshold],
    *,
    outcomes: bool,
    strategy: str | None,
    swept: bool,
    tokens: bool = False,
) -> None:
    """Refuse, before any work, a gate the run cannot decide: a sweep (no budget to check at),
    needed-later figures without outcomes or for another strategy, tokens without an encoding."""
    if not thresholds:
        return
    problems = []
    if swept:
        problems.append(
            Problem(
                "the gate checks each setting at its budget: give --setting FILE, --budgets B "
                "or --grid budget_chars=B",
                path=thresholds[0].option,
            )
        )
    for t in thresholds:
        if strategy and (t.figure in OUTCOME_FIGURES or t.figure.startswith("probes_")):
            problems.append(
                Problem(f"{t.figure} is measured for memory-compact only, not {strategy}", t.option)
            )
        elif strategy and t.figure == "output_tokens":
            problems.append(Problem(f"output_tokens is not measured for {strategy}", t.option))
        elif t.figure in OUTCOME_FIGURES and not outcomes:
            problems.append(Problem(f"{t.figure} needs the outcomes: drop --no-outcomes", t.option))
        elif t.figure == "output_tokens" and not tokens:
            problems.append(Problem("output_tokens needs --encoding E", t.option))
    if problems:
        raise ProblemError(problems)


def report(groups: Sequence[Group], thresholds: Sequence[Threshold]) -> int:
    """Write the gate's verdict after the summary; 1 when a threshold fails, else 0. In a
    GitHub Actions job, each failure is also an error annotation on the run."""
    if not thresholds:
        return 0
    verdicts = check(groups, thresholds)
    failed = [v for v in verdicts if not v.holds]
    out = [""]
    for group in groups:
        out.append(f"gate, {group.label}:")
        out += [line for v in verdicts if v.setting == group.label for line in v.lines()]
    checked = f"{plural(len(thresholds), 'threshold')} on {plural(len(groups), 'setting')}"
    if not groups:
        out.append("gate: FAIL: no setting was evaluated (is the corpus empty?)")
    elif failed:
        short = f"{len(failed):,} of {plural(len(verdicts), 'check')}"
        out.append(f"gate: FAIL, {short} fell short ({checked})")
    else:
        out.append(f"gate: ok, every check holds ({checked})")
    sys.stdout.write("\n".join(out) + "\n")
    sys.stdout.flush()
    if os.environ.get("GITHUB_ACTIONS") == "true":
        for v in failed:
            sys.stderr.write(f"::error title=compaction gate::{v.setting}: {v.lines()[0]}\n")
        sys.stderr.flush()
    return 1 if failed or not groups else 0
