"""``evaluate CORPUS --strategy NAME``: a registry strategy's rows over a corpus (any strategy
but memory-compact, whose rows, sweep and ``--resume`` stay with :mod:`compactor.cli._evaluate`),
one conversation per task on the process pool (``--workers``), rows in corpus order."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from compactor.cli import _fail_under as fail_under
from compactor.cli import _probe_report as probe_report
from compactor.cli import _set_aside as set_aside
from compactor.cli._params import strategy_name
from compactor.cli._pricing import price_row, priced_model
from compactor.cli._reports import write_lines
from compactor.errors import Problem, ProblemError
from compactor.evaluation import (
    CorpusStream,
    QuestionSet,
    RowWriter,
    RunOptions,
    Threshold,
    check_out,
    evaluate_strategy,
    parse_strategy_grid,
    strategy_grid_points,
    strategy_groups,
)
from compactor.strategies import get_strategy, require_strategy_available, strategy_names
from compactor.wording import met_share, percent


def add_arguments(parser: argparse.ArgumentParser) -> None:
    names = ", ".join(strategy_names())
    parser.add_argument(
        "--strategy",
        metavar="NAME",
        type=strategy_name,
        default=None,
        help=f"the strategy to evaluate ({names}; default: the --setting file's, else "
        "memory-compact)",
    )
    parser.add_argument(
        "--strategy-param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a parameter of --strategy, by its own name (repeatable)",
    )
    parser.add_argument(
        "--strategy-grid",
        action="append",
        default=[],
        metavar="KEY=V1,V2,...",
        help="values of a parameter of --strategy; every combination is run (repeatable)",
    )


def run_strategy(
    args: argparse.Namespace,
    budgets: list[int] | None,
    thresholds: Sequence[Threshold] = (),
    base: Mapping[str, Any] | None = None,
    questions: QuestionSet | None = None,
) -> int:
    """The rows of ``args.strategy`` at ``budgets`` (default: each request's own budget), its
    parameters ``base`` (a setting's) under --strategy-param's; the gate's verdict decides the
    exit code."""
    strategy = get_strategy(args.strategy)
    require_strategy_available(strategy.name)  # before the corpus is read
    if args.grid:
        raise ProblemError(
            [Problem("--grid sets memory-compact's parameters; use --strategy-grid", path="--grid")]
        )
    if args.resume:
        raise ProblemError([Problem("--resume is for memory-compact's rows", path="--resume")])
    if args.backend != "local":
        raise ProblemError([Problem("--strategy runs on the local backend", path="--backend")])
    future = None if args.no_outcomes else args.future
    RunOptions(workers=args.workers, future=future).check()
    params = {**(base or {}), **strategy.parse(args.strategy_param)}
    grid = dict(parse_strategy_grid(strategy, option) for option in args.strategy_grid)
    settings = strategy_grid_points(strategy, params, grid)
    if args.out:
        check_out(args.out, False)
    corpus = CorpusStream(
        args.corpus,
        args.format,
        keep_last=args.keep_last,
        cut_long=args.cut_long,
        questions=questions,
    )
    write_lines(f"skipped {line}" for line in corpus.skipped)
    items = list(corpus)
    writer = RowWriter(args.out) if args.out else None
    rows: list[dict[str, Any]] = []
    found = evaluate_strategy(
        items, strategy.name, settings, budgets, workers=args.workers, future=future
    )
    model = priced_model(args)
    try:
        for row in found:
            if model is not None:
                price_row(row, model, args.cache_lifetime)
            if writer:
                writer.write(row)
            rows.append(row)
    finally:
        if writer:
            writer.close()
    if writer:
        writer.finish()
    sys.stdout.write(summary_text(strategy.name, settings, rows, len(items)))
    if questions is not None:
        sys.stdout.write(probe_report.strategy_questions_text(settings, rows, questions))
    sys.stdout.flush()
    verdict = fail_under.report(strategy_groups(rows), thresholds)
    if questions is not None and probe_report.report_set_aside(questions) and not verdict:
        verdict = set_aside.SET_ASIDE
    if corpus.unusable:
        return set_aside.report(corpus, args.out, verdict, verbose=args.verbose)
    return verdict


def summary_text(
    name: str, settings: list[dict[str, Any]], rows: list[dict[str, Any]], conversations: int
) -> str:
    """One line per parameter setting: budget met, median characters, anchors kept, pairs
    broken, and needed-later recall (met needs over needs, pooled) when the rows have it."""
    lines = [
        f"{conversations:,} conversations, strategy {name}, {len(settings):,} settings",
        f"{'parameters':<40} {'rows':>5} {'budget met':>22} {'chars median':>12} "
        f"{'anchors kept':>12} {'broken':>6} {'needed-later':>12}",
    ]
    for setting in settings:
        mine = [r for r in rows if r["strategy_params"] == setting]
        if not mine:
            continue
        met = met_share(sum(bool(r["budget_met"]) for r in mine), len(mine))
        chars = statistics.median(r["output_chars"] or 0 for r in mine)
        anchors = sum(r["anchors"] for r in mine)
        kept = sum(r["anchors_kept"] for r in mine) / anchors if anchors else None
        needs = sum(r.get("needs") or 0 for r in mine)
        recall = sum(r.get("needs_met") or 0 for r in mine) / needs if needs else None
        shown = json.dumps(setting, separators=(",", ":"))
        lines.append(
            f"{shown:<40} {len(mine):>5} {met:>22} {chars:>12,.0f} "
            f"{'-' if kept is None else percent(kept):>12} "
            f"{sum(r['tool_pairs_broken'] for r in mine):>6,} "
            f"{'-' if recall is None else percent(recall):>12}"
        )
    return "\n".join(lines) + "\n"
