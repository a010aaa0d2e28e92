"""The command line, ``python -m compactor COMMAND``: the parser over an explicit command list."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from compactor.cli import (
    anchors,
    compact,
    evaluate,
    graded,
    import_,
    outcomes,
    replay,
    serve,
    shrink,
    similar,
    summarize,
    sweep,
    tokens,
)

#: Every subcommand, in the order ``--help`` lists them; each module has ``register(sub)``.
COMMANDS = (
    compact,
    shrink,
    import_,
    sweep,
    replay,
    anchors,
    outcomes,
    graded,
    tokens,
    similar,
    summarize,
    evaluate,
    serve,
)

DESCRIPTION = """\
memory-compact from the command line: the same engine as the explorer and the HTTP service.
The commands that take FILE read JSON from it, or from standard input when FILE is '-'. Results
go to standard output as UTF-8 JSON; problems go to standard error, one line each ('path: reason',
or 'line L, column C: reason' for a file that is not JSON), with exit code 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m compactor",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        command.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except BrokenPipeError:  # e.g. piped into `head`
        return 0
