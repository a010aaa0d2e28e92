"""``python -m compactor evaluate CORPUS``: a grid of settings over a whole corpus."""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from compactor.analyses import BUDGET_RANGE, REREAD_JUDGE
from compactor.analyses.outcomes import DEFAULT_FUTURE
from compactor.cli import _fail_under as fail_under
from compactor.cli import _probe_report as probe_report
from compactor.cli import _set_aside as set_aside
from compactor.cli._commands import help_of
from compactor.cli._evaluate_strategy import add_arguments, run_strategy
from compactor.cli._io import fail
from compactor.cli._params import add_setting_argument, setting_of
from compactor.cli._pricing import add_price_arguments, price_row, priced_model
from compactor.cli._progress import ProgressBar
from compactor.cli._records import add_verbose_argument
from compactor.cli._reports import write_lines
from compactor.cli._resuming import written_before
from compactor.errors import Problem, ProblemError
from compactor.evaluation import (
    BACKENDS,
    KNEE_SHARES,
    MEMORY_COMPACT,
    STRATEGY,
    SUMMARY_BUDGETS,
    BackendUnavailable,
    CorpusStream,
    QuestionSet,
    RowWriter,
    RunOptions,
    SummaryFeed,
    check_out,
    evaluate,
    grid_points,
    parse_grid_option,
    read_questions,
    setting_groups,
)
from compactor.formats import FORMATS
from compactor.text import ENCODINGS, TokenizerUnavailable
from compactor.wording import floor_percent, percent

DESCRIPTION = f"""\
Evaluate settings over a corpus: one row per (conversation, setting, budget), each equal to what
compacting that one request gives, then a summary per setting and the frontier.

CORPUS is a file holding many conversations (a JSON list of ShareGPT or evaluation records with
messages, conversations or traj, as tau-bench's trajectories; JSONL of requests or conversations,
one a line; the lines 'import --all' prints), a file of one conversation, or a folder of .json
and .jsonl files (conversations named "PATH" or "PATH#i", PATH relative to the folder). The
requests' own parameters are not used: the grid's values (else the defaults) are.

--grid NAME=V1,V2,... gives a parameter's values (repeat it for more parameters; every
combination is run): keep_last_n, duplicate_threshold, max_message_chars, budget_chars, and
keep_roles with roles joined by '+' ('none' for no role), e.g. --grid keep_roles=system,system+user.
--budgets B1,B2,... evaluates every setting at those budget_chars; without it, at every budget
point of each conversation's exact sweep (a row holds from its budget to the next row's), and
the summary then reads every conversation at the budgets
{", ".join(f"{b:,}" for b in SUMMARY_BUDGETS)}, and its last line names the
budgets from which 10, 25, 50, 75 and 90% of the conversations meet their budget (where that
share rises, which those steps can pass over).

Rows: conversation, budget_chars, keep_last_n, keep_roles, duplicate_threshold,
max_message_chars, output_chars, output_messages, budget_met, anchors, anchors_kept,
tool_pairs_broken (and output_tokens with --encoding; cost_model and cost_usd with --model or
--prices: the next call writing the kept context to the cache, docs/cost.md), then the
outcomes: strategy, needs and
needs_met (the continuation check: the last --future K messages, default {DEFAULT_FUTURE}, are the
future, the rest the past, compacted with the row's setting at its budget; needs counts the
future's needs of an anchor the past holds, needs_met those with a past source kept; both null
when the conversation is too short for that future), and probes, probes_strict, probes_partial,
probes_answer when the corpus's records carry probes; a conversation that recorded compactions
(a Claude Code or Codex log) adds rereads, rereads_held and reread_chars (judge: re-read, the
files the agent read again after each compaction; each compaction's history compacted at the
row's budget), and the summary re-read recall beside keep-last's and random's with the count
each rests on. Keep-last and random (the mean of 20
seeded draws) come as rows of their own (strategy keep-last or random, no parameter) at the
listed budgets or the summary's; --no-outcomes leaves all of that out. --out FILE.jsonl
appends the rows as they finish, flushed row by row; --out FILE.parquet writes Parquet at the
end (rows go to
FILE.parquet.rows.jsonl meanwhile). An interrupted run (Ctrl-C, a kill, a full disk) keeps the
rows it wrote whole: run it again with --resume to go on, skipping every row already there; a
resume with another grid, budgets or columns is refused (more values are added, and named). One
run at a time writes a rows file (it is locked). The corpus is read one conversation at a time;
a record that cannot be used (a JSON Lines line that is not JSON, a file of a folder that is
not JSON, one content over 8,000 characters, more than 200 messages, not a conversation) is set
aside, named on standard error with what and where and the option that fixes it (--cut-long,
--keep-last), and the others go on: their rows and summary are written.
Progress goes to standard error; the summary to standard output. Exit codes: 0 done (and every
threshold of the gate holds); 1 when a threshold of the gate fails (below); 2 for an unreadable
corpus (or one that is a device or a pipe), a bad grid, budget or threshold, a rows file that
exists without --resume or cannot be written, each problem with where it is, or every record
set aside (nothing is evaluated); {set_aside.SET_ASIDE} when the run finished with records set
aside (listed).

--questions FILE judges the settings by a team's labelled evidence: a question set (a JSON list,
{{"questions": [...]}}, or JSON Lines, one question a line), each question naming its conversation
by record (the rows' conversation: N, "PATH" or "PATH#i") or record_id (the record's own id),
with id, evidence (message ids or 0-based indices), answer and question. The rows then carry
probes, probes_strict, probes_partial, probes_answer, probes_answerable and probes_failed (the
ids failed per recall; null for random's draws); the summary adds probe recall per setting,
pooled over the questions with its counts, beside keep-last and random at its budget, and the
questions each setting fails. A question that cannot be used (a line that is not JSON, a wrong
type, an unknown conversation, an evidence ref naming no message) is set aside with its line or
JSON path, listed on standard error, and the run goes on (exit {set_aside.SET_ASIDE}).

--strategy NAME evaluates another strategy of the registry at --budgets (default: each
request's own budget_chars), with --strategy-param KEY=VALUE and --strategy-grid KEY=V1,V2,...
in its own parameter names; its rows hold conversation, strategy, strategy_params,
budget_chars, output_chars, output_messages, budget_met, replaced_messages, anchors,
anchors_kept and tool_pairs_broken, then needs and needs_met (the continuation check with the
past compacted by the strategy at the row's budget, judged by the spans it returns verbatim: a
placeholder holds nothing; not with --no-outcomes), one conversation per task on --workers
processes.

{fail_under.HELP}"""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "evaluate",
        help=help_of("evaluate"),
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("corpus", metavar="CORPUS", help="a file or folder of conversations")
    parser.add_argument(
        "--format", choices=list(FORMATS), metavar="NAME", help="read every file as this format"
    )
    add_verbose_argument(parser)
    parser.add_argument(
        "--grid",
        action="append",
        default=[],
        metavar="NAME=V1,V2,...",
        help="a parameter's values (repeatable)",
    )
    parser.add_argument(
        "--budgets",
        metavar="B1,B2,...",
        help="budget_chars to evaluate at (default: every point of the exact sweep)",
    )
    parser.add_argument(
        "--workers", type=int, metavar="N", help="processes (or Ray CPUs); default one per core"
    )
    parser.add_argument("--backend", choices=BACKENDS, default="local", help="default: local")
    parser.add_argument(
        "--address",
        metavar="A",
        help="the Ray cluster: 'auto' or ray://HOST:PORT (default: a new local instance)",
    )
    parser.add_argument(
        "--encoding",
        choices=ENCODINGS,
        metavar="E",
        help=f"add output_tokens in this encoding ({', '.join(ENCODINGS)}; the tokens extra)",
    )
    parser.add_argument(
        "--future",
        type=int,
        default=DEFAULT_FUTURE,
        metavar="K",
        help=f"the continuation check's future: the last K messages (default {DEFAULT_FUTURE})",
    )
    parser.add_argument(
        "--no-outcomes",
        action="store_true",
        help="leave out the outcome columns and the baselines' rows",
    )
    parser.add_argument(
        "--questions",
        metavar="FILE",
        help="a question set (JSON or JSON Lines): labelled evidence over the corpus's "
        "conversations, judged as probes beside needed-later recall",
    )
    parser.add_argument("--out", metavar="FILE", help="write the rows to FILE.jsonl or .parquet")
    parser.add_argument(
        "--resume", action="store_true", help="continue the run whose rows are in --out"
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
    add_setting_argument(
        parser,
        "a compaction.toml: evaluate its strategy with its parameters at its budget (--grid, "
        "--strategy-param and --budgets override them)",
    )
    add_arguments(parser)
    fail_under.add_gate_arguments(parser)
    add_price_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if hasattr(signal, "SIGXFSZ"):
        # Over a file size limit, a write fails (and is said) instead of killing the process.
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    try:
        return _run(args)
    except (ProblemError, TokenizerUnavailable, BackendUnavailable) as error:
        problems = getattr(error, "problems", None) or [str(error)]
        return fail(problems)
    except KeyboardInterrupt:
        written = f": the rows so far are in {args.out}; add --resume to go on" if args.out else ""
        return fail([f"interrupted{written}"])


def _run(args: argparse.Namespace) -> int:
    thresholds = fail_under.thresholds_of(args)
    model = priced_model(args)  # a bad price file is said before any work
    base, budget = _from_setting(args)
    if args.strategy != MEMORY_COMPACT or args.strategy_param or args.strategy_grid:
        budgets = _budgets(args.budgets) or budget
        fail_under.check_measurable(
            thresholds, outcomes=False, strategy=args.strategy, swept=budgets is None
        )
        return run_strategy(args, budgets, thresholds, base, _questions(args))
    plan = _plan(args)
    fail_under.check_measurable(
        thresholds,
        outcomes=not args.no_outcomes,
        strategy=None,
        swept=plan.sweep,
        tokens=args.encoding is not None,
    )
    _check_out(args)
    questions = _questions(args)
    corpus = CorpusStream(
        args.corpus,
        args.format,
        keep_last=args.keep_last,
        cut_long=args.cut_long,
        questions=questions,
    )
    write_lines(f"skipped {line}" for line in corpus.skipped)
    options = RunOptions(
        args.workers,
        args.backend,
        args.address,
        args.encoding,
        None if args.no_outcomes else args.future,
    )
    feed = _Feed(SummaryFeed(SUMMARY_BUDGETS if plan.sweep else None), bool(thresholds))
    writer = RowWriter(args.out, args.resume) if args.out else None
    try:
        earlier = written_before(args.out if args.resume else None, plan, options, feed)
        bar = ProgressBar(sys.stderr)
        rows = evaluate(
            corpus,
            plan.settings,
            plan.budgets,
            options,
            progress=bar.update,
            skip=earlier,
            whole=earlier.whole(plan.settings, plan.budgets),
        )
        for row in rows:
            if model is not None:
                price_row(row, model, args.cache_lifetime)
            if writer:
                writer.write(row)
            feed.add(row)
            bar.rows += 1
        bar.close()
        if writer:
            writer.finish()
    finally:
        if writer:
            writer.close()
    sys.stdout.write(summary_text(feed.summaries(), corpus.read, plan.sweep))
    if plan.sweep:
        sys.stdout.write(knee_text(feed.met_at_shares()))
    summaries = feed.summaries()
    if questions is not None:
        sys.stdout.write(probe_report.questions_text(summaries, questions))
    sys.stdout.flush()
    verdict = fail_under.report(setting_groups(summaries, feed.rows), thresholds)
    if questions is not None and probe_report.report_set_aside(questions) and not verdict:
        verdict = set_aside.SET_ASIDE
    if corpus.unusable:
        return set_aside.report(corpus, args.out, verdict, verbose=args.verbose)
    return verdict


def _questions(args: argparse.Namespace) -> QuestionSet | None:
    """The question set of ``--questions`` (None without it); raises for an unreadable file."""
    if args.questions is None:
        return None
    if args.no_outcomes:
        raise ProblemError([Problem("--questions is judged with the outcomes: drop --no-outcomes")])
    return read_questions(args.questions)


class _Feed:
    """The summary's feed, and the rows the gate names its worst conversations from (kept only
    when there is a gate: a gate runs at listed budgets, never on a sweep's many rows)."""

    def __init__(self, feed: SummaryFeed, keep: bool) -> None:
        self._feed = feed
        self.rows: list[dict[str, Any]] = []
        self._keep = keep

    def add(self, row: dict[str, Any]) -> None:
        self._feed.add(row)
        if self._keep:
            self.rows.append(row)

    def summaries(self) -> list[dict[str, Any]]:
        return self._feed.summaries()

    def met_at_shares(self) -> list[int]:
        return self._feed.met_at_shares()


@dataclass(frozen=True)
class _Plan:
    """What the command line asks to evaluate: the settings, the listed budgets (None: each
    conversation's sweep) and whether the summary reads sweep rows at its own budgets."""

    settings: list[dict[str, Any]]
    budgets: list[int] | None
    sweep: bool


def _plan(args: argparse.Namespace) -> _Plan:
    grid = dict(parse_grid_option(option) for option in args.grid)
    base, budget = _from_setting(args)
    settings = grid_points(base, grid)
    budgets = _budgets(args.budgets)
    if budgets is not None and "budget_chars" in grid:
        raise ProblemError([Problem("give budget_chars once: in --grid or in --budgets")])
    if budgets is None and "budget_chars" not in grid:
        budgets = budget
    return _Plan(settings, budgets, sweep=budgets is None and "budget_chars" not in grid)


def _from_setting(args: argparse.Namespace) -> tuple[dict[str, Any], list[int] | None]:
    """What ``--setting FILE`` gives: its parameters when it names the strategy evaluated (the
    grid and --strategy-param override them) and its budget (--budgets overrides it); ({}, None)
    without one. ``--strategy`` defaults to the setting's."""
    setting = setting_of(args)
    if args.strategy is None:
        args.strategy = setting.strategy if setting else MEMORY_COMPACT
    if setting is None:
        return {}, None
    params = {k: list(v) if isinstance(v, tuple) else v for k, v in setting.params.items()}
    params = params if setting.strategy == args.strategy else {}
    if setting.budget_tokens is None:
        return params, [setting.budget_chars]
    grid = (option.partition("=")[0].strip() for option in args.grid)
    if args.budgets is None and "budget_chars" not in grid:
        why = "evaluate takes a budget in characters (the same for every conversation): give "
        why += "--budgets B1,... beside this setting's budget_tokens"
        raise ProblemError([Problem(why, path=f"{args.setting}: budget_tokens")])
    return params, None  # the budgets given take its place


def _check_out(args: argparse.Namespace) -> None:
    if args.resume and not args.out:
        raise ProblemError([Problem("--resume continues the rows of --out: give --out FILE")])
    if args.out:
        check_out(args.out, args.resume)


def _budgets(text: str | None) -> list[int] | None:
    if text is None:
        return None
    low, high = BUDGET_RANGE
    values = []
    for k, part in enumerate(text.split(",")):
        try:
            values.append(int(part.strip().replace("_", "")))
        except ValueError:
            raise ProblemError(
                [
                    Problem(
                        f"{part.strip()!r} is not a whole number ({low:,} to {high:,})",
                        path=f"--budgets[{k}]",
                    )
                ]
            ) from None
    return values


def summary_text(summary: Sequence[dict[str, Any]], conversations: int, sweep: bool) -> str:
    """The summary as a table, the frontier marked with ``*`` (and ``+`` on the frontier read
    by needed-later recall); the baselines' figures beside each setting, not as settings."""
    how = "each conversation read at these budgets from its sweep" if sweep else "listed budgets"
    settings = [s for s in summary if s.get(STRATEGY, MEMORY_COMPACT) == MEMORY_COMPACT]
    needed = any("needed_recall" in s for s in settings)
    reread = any(s.get("rereads") for s in settings)
    lines = [
        f"{conversations:,} conversations, {len(settings):,} settings ({how}); * = on the "
        "frontier (no other setting keeps more anchors with fewer output characters)"
        + ("; + = on it by needed-later recall" if needed else ""),
        f"{'':2} {'budget':>7} {'last_n':>6} {'keep_roles':<22} {'dup':>5} {'max':>5} "
        f"{'met':>6} {'chars p10/median/p90':>26} {'anchors p10/median/p90':>24} {'broken':>6}"
        + (f" {'needed: setting/keep-last/random':>33}" if needed else "")
        + (f" {'re-read: setting/keep-last/random (of N)':>42}" if reread else ""),
    ]
    for s in settings:
        roles = "+".join(s["keep_roles"]) or "none"
        chars = "/".join(f"{s[f'output_chars_{p}']:,.0f}" for p in ("p10", "median", "p90"))
        kept = "/".join(
            "-" if s[f"anchor_retention_{p}"] is None else percent(s[f"anchor_retention_{p}"])
            for p in ("p10", "median", "p90")
        )
        marks = ("*" if s["frontier"] else " ") + ("+" if s.get("frontier_needed") else " ")
        line = (
            f"{marks} {s['budget_chars']:>7,} {s['keep_last_n']:>6} "
            f"{roles:<22} {s['duplicate_threshold']:>5.3g} {s['max_message_chars']:>5} "
            f"{floor_percent(s['budget_met_rate']):>6} {chars:>26} {kept:>24} "
            f"{s['tool_pairs_broken']:>6,}"
        )
        if needed:
            figures = "/".join(
                "-" if s.get(k) is None else percent(s[k])
                for k in ("needed_recall", "needed_recall_keep_last", "needed_recall_random")
            )
            line += f" {figures:>33}"
        if reread:
            figures = "/".join(
                "-" if s.get(k) is None else percent(s[k])
                for k in ("reread_recall", "reread_recall_keep_last", "reread_recall_random")
            )
            figures += f" (of {s.get('rereads') or 0:,})"
            line += f" {figures:>42}"
        lines.append(line)
    frontier = sum(s["frontier"] for s in settings)
    lines.append(f"frontier: {frontier:,} of {len(settings):,} settings")
    if needed:
        by_needs = sum(bool(s.get("frontier_needed")) for s in settings)
        lines.append(f"frontier by needed-later recall: {by_needs:,} of {len(settings):,}")
    if reread:
        most = max(settings, key=lambda s: s.get("rereads") or 0)
        lines.append(
            f"re-read: judge {REREAD_JUDGE}; {most['rereads']:,} re-reads "
            f"({most['reread_chars']:,} characters) after the recorded compactions of "
            f"{most['reread_conversations']:,} conversations; each strategy compacts the history "
            "before each compaction at the row's budget"
        )
    return "\n".join(lines) + "\n"


def knee_text(budgets: Sequence[int]) -> str:
    """Where the share of conversations meeting their budget rises, which the summary's fixed
    budgets can step over: the budgets (``met_at_shares``) from which 10, 25, 50, 75 and 90%
    of the conversations (of those that meet it at all) meet it."""
    if not budgets:
        return "budget met: by no conversation at any budget of the range\n"
    shares = "/".join(f"{share:.0%}" for share in KNEE_SHARES)
    at = "/".join(f"{b:,}" for b in budgets)
    listed = ",".join(str(b) for b in sorted(set(budgets)))
    return (
        f"budget met, over every setting, by {shares} of the conversations from {at} characters "
        f"(--budgets {listed} gives every figure there)\n"
    )
