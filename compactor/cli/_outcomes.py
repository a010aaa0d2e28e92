"""``python -m compactor outcomes FILE``: did the setting keep what the conversation needed
later (SPEC part D), beside keep-last and random at the same budget."""

from __future__ import annotations

import argparse

from compactor.analyses.outcomes import (
    DEFAULT_DRAWS,
    DEFAULT_FUTURE,
    FORMS,
    PROTECTED,
    outcomes,
    parse_probes,
)
from compactor.cli._anchors import FILE_HELP, add_conversation_arguments, read_request
from compactor.cli._commands import help_of
from compactor.cli._io import (
    add_indent_argument,
    add_input_argument,
    emit,
    indent_of,
    read_json,
    reports_bad_input,
)
from compactor.cli._params import add_parameter_arguments, add_watch_argument
from compactor.errors import Problem, ProblemError

DESCRIPTION = f"""\
Judge a setting by what the conversation needed later (SPEC part D), and compare it with what a
team would do without it: keep the most recent whole messages that fit (keep-last), or remove
messages at random until the rest fits (seeded draws 0..R-1; mean and 2.5th/97.5th percentiles).

A later message *needs* an anchor (an id, amount, date, path, ...; see `anchors`) that an earlier
message holds. The continuation check compacts all but the last K messages with the parameters
and asks which needs of those K it kept: needed-later recall (overall and by role), every unmet
need with where each source was lost (dedupe, trim or drop), the past's anchor retention, the
lift over keep-last, and the recall curve over every budget (exact, from one run). Also the role
balance (each role's share of the input and output characters) and, with --probes, the recall
of labelled evidence.

The baselines are protected by default: they keep first, whole, what the setting protects
(messages of keep_roles, pinned messages) and apply recency or random to the rest, so a setting
that keeps a long system prompt is not compared with a keep-last that dropped it. `baselines`
names the form and its labels ("keep-last, system prompt kept"); the other form's figures are
under its name (`bare` or `protected`). --baselines bare puts the bare ones first.

Prints {{"parameters", "continuation", "role_balance", "probes"?}} as JSON. {FILE_HELP}
Exit 0 on success; 2 when the input or the probes file cannot be used, one line per problem."""


def _at_least_one(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"at least 1, not {value}")
    return value


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "outcomes",
        help=help_of("outcomes"),
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_input_argument(parser)
    add_conversation_arguments(parser)
    parser.add_argument(
        "--future",
        type=_at_least_one,
        default=DEFAULT_FUTURE,
        metavar="K",
        help=f"the last K messages are the future; the rest is compacted (default {DEFAULT_FUTURE}"
        "; at most the number of messages minus 2)",
    )
    parser.add_argument(
        "--probes",
        metavar="FILE",
        help='a JSON file {"probes": [{"id", "evidence": [message id or 0-based index, ...], '
        '"answer"?}]}: strict, partial and answer recall under the setting and the baselines',
    )
    parser.add_argument(
        "--draws",
        type=_at_least_one,
        default=DEFAULT_DRAWS,
        metavar="R",
        help=f"random draws for the random baseline (default {DEFAULT_DRAWS})",
    )
    parser.add_argument(
        "--baselines",
        choices=FORMS,
        default=PROTECTED,
        help="the form of keep-last and random the figures and the lift are of: protected "
        "(default: they keep first what the setting protects by keep_roles and pins) or bare; "
        "the other form is reported too",
    )
    add_watch_argument(parser)
    add_parameter_arguments(parser)
    add_indent_argument(parser)
    parser.set_defaults(run=run)


@reports_bad_input
def run(args: argparse.Namespace) -> int:
    request = read_request(args)
    probes = None
    if args.probes is not None:
        data = read_json(args.probes)
        try:
            probes = parse_probes(data, request.messages)
        except ProblemError as error:  # name the file: the paths are inside it
            raise ProblemError(
                Problem(f"{args.probes}: {p.where}: {p.message}") for p in error.problems
            ) from None
    found = outcomes(
        request,
        args.future,
        draws=args.draws,
        probes=probes,
        watched=args.watch,
        form=args.baselines,
    )
    return emit(found.to_dict(), indent_of(args))
