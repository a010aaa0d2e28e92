"""``python -m compactor anchors FILE``: every anchor of a conversation, and whether it survives.

Also home of what ``anchors``, ``tokens`` and ``similar`` share: FILE may be a request or any
conversation the importer reads, and the parameters may be overridden as for ``compact``.
"""

from __future__ import annotations

import argparse

from compactor.analyses.anchors import anchor_report
from compactor.cli._commands import help_of
from compactor.cli._io import (
    add_indent_argument,
    add_input_argument,
    emit,
    indent_of,
    reports_bad_input,
)
from compactor.cli._params import (
    add_parameter_arguments,
    add_watch_argument,
    overrides,
    with_token_budget,
)
from compactor.cli._records import add_fix_arguments, add_source_arguments, read_input
from compactor.contract import AGENT_LIMITS, AUTO_LIMITS
from compactor.engine import run as run_pipeline
from compactor.input import validate
from compactor.model import Request

FILE_HELP = (
    "FILE is a memory-compact request, or a conversation in any format `import` reads (OpenAI, "
    "Anthropic, Vercel, ShareGPT, JSONL, a Claude Code session, a Codex rollout, a record of a "
    "collection with --record N), or '-' for standard input; the import's report goes to "
    "standard error. It is read whole, in the agent mode (any number of messages, contents of "
    "any length, a budget up to 2,000,000 characters); the fixes of `import` (--keep-last [M], "
    "--keep-first N, --range A:B, --cut-long) are options. Without budget_chars it is half the "
    "conversation's characters. Flags override the parameters."
)


def add_conversation_arguments(parser: argparse.ArgumentParser) -> None:
    """What every command that takes a conversation takes: ``--format``, ``--record`` and the
    fixes (:mod:`compactor.cli._records`)."""
    add_source_arguments(parser)
    add_fix_arguments(parser)


def read_request(args: argparse.Namespace, any_strategy: bool = False) -> Request:
    """The request in ``args.file`` (imported when it is another format), with the overrides
    (``any_strategy``: as :func:`~compactor.cli._params.overrides` takes it).

    Raises :class:`ProblemError` (unreadable, not a conversation, breaks the schema). It reads
    FILE as ``compact --agent`` does (:func:`~compactor.cli._records.read_input`): whole, in the
    agent mode.
    """
    given = overrides(args, any_strategy)  # a bad --setting is said before the file is read
    request = read_input(args, given, limits=False).request
    return validate(with_token_budget(args, request, limits=AGENT_LIMITS), limits=AUTO_LIMITS)


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "anchors",
        help=help_of("anchors"),
        description=(
            "Find the anchors of a conversation (identifiers, numbers with a unit or currency, "
            "times and dates, URLs, e-mail addresses, file paths, code identifiers; SPEC part C) "
            "and print, for each, where it occurs and whether the compacted output keeps it: "
            '[{"text", "kind", "occurrences": [{"index", "start", "end"}], "kept", '
            '"survives_from_budget"}]. survives_from_budget is the smallest budget_chars from '
            "which it is kept, the other parameters unchanged (null when none), from one run. "
            f"{FILE_HELP} Exit 0 on success; 2 when the input cannot be used, one line per problem."
        ),
    )
    add_input_argument(parser)
    add_conversation_arguments(parser)
    add_parameter_arguments(parser)
    add_watch_argument(
        parser,
        "also track PHRASE (case and spacing ignored) as a 'watched' anchor; repeatable",
    )
    add_indent_argument(parser)
    parser.set_defaults(run=run)


@reports_bad_input
def run(args: argparse.Namespace) -> int:
    report = anchor_report(run_pipeline(read_request(args)), args.watch)
    return emit([a.to_dict() for a in report.anchors], indent_of(args))
