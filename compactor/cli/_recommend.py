"""``python -m compactor recommend CORPUS``: the best setting for a goal, proved on conversations
it did not tune on, written as a ``compaction.toml``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from compactor.analyses.outcomes import DEFAULT_FUTURE
from compactor.cli._commands import help_of
from compactor.cli._io import fail
from compactor.cli._progress import ProgressBar
from compactor.cli._reports import write_lines
from compactor.errors import Problem, ProblemError
from compactor.evaluation import BACKENDS, BackendUnavailable, CorpusStream
from compactor.formats import FORMATS
from compactor.recommend import (
    OBJECTIVES,
    SPACES,
    Goal,
    Options,
    Recommendation,
    Trial,
    recommend,
    usd,
)
from compactor.strategies import setting_toml
from compactor.text import ENCODINGS
from compactor.wording import percent

DESCRIPTION = f"""\
Search the strategies that keep to a budget ({", ".join(SPACES)}) and their parameters for the
best setting under a goal, with Optuna's seeded sampler (the recommend extra), trial after
trial: the same corpus, goal, --seed and --trials give the same recommendation (--timeout
stops earlier, after whichever trial ends past it).

CORPUS is a file or folder of conversations, as evaluate reads them. The conversations are split
by --seed into a tuning part and a check part (--check-share of them); every trial is judged on
the tuning part only, by the corpus evaluation (--workers processes, or --backend ray). The
winner is then reported on the check part alone beside the schema defaults (memory-compact at
the contract's defaults), keep-last and random at the same budget, each with a 95% interval
(a seeded bootstrap over conversations) and its lift over keep-last, the judge named. One
conversation is checked at cut points instead: prefixes of it, each with its own future, split
the same way. When no setting beats keep-last, it says so.

The goal: one budget (--budget characters, --budget-tokens, or --window less --reserve tokens
for the answer; a budget in tokens is judged at 4 characters a token, and the setting keeps it
in tokens), --objective ({", ".join(OBJECTIVES)}), and the constraints every candidate meets on
the tuning part: the budget met on at least --min-budget-met of the conversations,
--keep-tool-pairs (no call without its result or the reverse), --keep-system (every system
message kept), --floor (needed-later recall at least this share).

The objectives: needed (needed-later recall), probes (probe recall: the corpus carries probes),
reread (re-read recall: after each compaction a Claude Code or Codex log recorded, the files
read again, held when the setting keeps half of the earlier result), and cost (the cheapest
setting at --model's prices, from the price table or --prices FILE, whose needed-later recall
is at least --floor; when no trial reaches the floor it says so and the best it reached).

--out FILE writes the winner as a compaction.toml that shrink, the integrations
and evaluate --setting read as it is.
"""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "recommend",
        help=help_of("recommend"),
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("corpus", metavar="CORPUS", help="a file or folder of conversations")
    parser.add_argument(
        "--format", choices=list(FORMATS), metavar="NAME", help="read every file as this format"
    )
    budget = parser.add_mutually_exclusive_group(required=True)
    budget.add_argument("--budget", type=int, metavar="CHARS", help="the budget in characters")
    budget.add_argument("--budget-tokens", type=int, metavar="N", help="the budget in tokens")
    budget.add_argument(
        "--window", type=int, metavar="N", help="the model's window in tokens (with --reserve)"
    )
    parser.add_argument(
        "--reserve",
        type=int,
        default=0,
        metavar="M",
        help="tokens of --window kept for the answer (default 0)",
    )
    parser.add_argument(
        "--encoding", choices=ENCODINGS, metavar="E", help="the token budget's encoding"
    )
    parser.add_argument(
        "--objective", choices=list(OBJECTIVES), default="needed", help="default: needed"
    )
    parser.add_argument(
        "--floor",
        type=float,
        metavar="F",
        help="needed-later recall every candidate must reach (a share; required by cost)",
    )
    parser.add_argument(
        "--model",
        metavar="NAME",
        help="the price table's model the cost objective prices at (for example claude-sonnet-5-5)",
    )
    parser.add_argument(
        "--prices",
        metavar="FILE",
        help="a price table (TOML) replacing the shipped one (docs/cost.md)",
    )
    parser.add_argument("--trials", type=int, default=50, metavar="N", help="default 50")
    parser.add_argument("--timeout", type=float, metavar="S", help="start no trial after S seconds")
    parser.add_argument("--seed", type=int, default=0, metavar="N", help="default 0")
    parser.add_argument(
        "--check-share",
        type=float,
        default=0.3,
        metavar="F",
        help="the share held out for the check (default 0.3)",
    )
    parser.add_argument(
        "--strategies",
        metavar="A,B",
        help=f"search only these ({', '.join(SPACES)}; default: every one that runs here)",
    )
    parser.add_argument(
        "--min-budget-met",
        type=float,
        default=0.95,
        metavar="F",
        help="the share of conversations whose budget must be met (default 0.95)",
    )
    parser.add_argument(
        "--keep-tool-pairs", action="store_true", help="never split a tool call from its result"
    )
    parser.add_argument("--keep-system", action="store_true", help="keep every system message")
    parser.add_argument(
        "--workers", type=int, metavar="N", help="processes (or Ray CPUs); default one per core"
    )
    parser.add_argument("--backend", choices=BACKENDS, default="local", help="default: local")
    parser.add_argument(
        "--future",
        type=int,
        default=DEFAULT_FUTURE,
        metavar="K",
        help=f"the continuation check's future: the last K messages (default {DEFAULT_FUTURE})",
    )
    parser.add_argument(
        "--keep-last",
        action="store_true",
        help="keep the last 200 messages of a longer conversation (else it is an error)",
    )
    parser.add_argument(
        "--cut-long",
        action="store_true",
        help="cut contents over 8,000 characters (else they are an error)",
    )
    parser.add_argument("--out", metavar="FILE", help="write the winner to FILE (compaction.toml)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except (ProblemError, BackendUnavailable) as error:
        return fail(getattr(error, "problems", None) or [str(error)])
    except KeyboardInterrupt:
        return fail(["interrupted: nothing was written"])


def _run(args: argparse.Namespace) -> int:
    goal = Goal(
        budget_chars=args.budget,
        budget_tokens=args.budget_tokens,
        window=args.window,
        reserve=args.reserve,
        encoding=args.encoding,
        objective=args.objective,
        min_budget_met=args.min_budget_met,
        keep_tool_pairs=args.keep_tool_pairs,
        keep_system=args.keep_system,
        floor=args.floor,
        model=args.model,
        prices=args.prices,
    )
    goal.check()
    if args.trials < 1:
        raise ProblemError([Problem(f"must be 1 or more, not {args.trials}", "--trials")])
    strategies = None
    if args.strategies:
        strategies = tuple(s.strip() for s in args.strategies.split(",") if s.strip())
        unknown = [s for s in strategies if s not in SPACES]
        if unknown:
            raise ProblemError(
                [
                    Problem(
                        f"{', '.join(unknown)}: no search space; choose from {', '.join(SPACES)}",
                        "--strategies",
                    )
                ]
            )
    if args.out and Path(args.out).is_dir():
        raise ProblemError([Problem("is a folder; give a file name", args.out)])
    corpus = CorpusStream(
        args.corpus, args.format, keep_last=args.keep_last, cut_long=args.cut_long
    )
    write_lines(f"skipped {line}" for line in corpus.skipped)
    items = list(corpus)
    options = Options(
        trials=args.trials,
        timeout=args.timeout,
        seed=args.seed,
        check_share=args.check_share,
        strategies=strategies,
        workers=args.workers,
        backend=args.backend,
        future=args.future,
    )
    bar = ProgressBar(sys.stderr, unit="trials", counted=None)
    found = recommend(items, goal, options, progress=lambda done, total, _: bar.update(done, total))
    bar.close()
    if args.out:
        Path(args.out).write_text(setting_toml(found.winner), encoding="utf-8")
    if args.json:
        sys.stdout.write(json.dumps(found.to_dict(), indent=2) + "\n")
    else:
        sys.stdout.write(report_text(found, args.out))
    sys.stdout.flush()
    return 0


def report_text(found: Recommendation, out: str | None = None) -> str:
    """The recommendation as a person reads it: the winner, the runners-up, then the check."""
    trial = found.winner_trial
    params = json.dumps(dict(trial.params), separators=(",", ":"))
    kind, amount = found.winner.budget
    lines = [
        f"{len(found.trials):,} trials in {found.seconds:.1f} s over {len(found.tuning):,} "
        f"tuning {'cut points' if found.one_conversation else 'conversations'}; objective: "
        f"{found.objective.label}",
        f"recommended: {trial.strategy} {params} at {amount:,} {kind}: "
        f"{_figure(found, trial)} on the tuning part, budget met {percent(trial.budget_met)}",
    ]
    for other in found.runners_up:
        shown = json.dumps(dict(other.params), separators=(",", ":"))
        lines.append(f"  runner-up: {other.strategy} {shown}: {_figure(found, other)}")
    lines += found.check.lines()
    if out:
        lines.append(f"wrote {out}")
    return "\n".join(lines) + "\n"


def _figure(found: Recommendation, trial: Trial) -> str:
    """A trial's figure on the tuning part: its recall, or for cost its cost and recall."""
    if found.objective.minimise:
        return (
            f"{usd(trial.cost)} per 1,000 conversations at needed-later recall "
            f"{percent(trial.recall)}"
        )
    return percent(trial.recall)
