"""The command line, ``python -m compactor COMMAND``: the parser over an explicit command list."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from compactor.cli import (
    _anchors as anchors,
)
from compactor.cli import (
    _compact as compact,
)
from compactor.cli import (
    _evaluate as evaluate,
)
from compactor.cli import (
    _graded as graded,
)
from compactor.cli import (
    _import as import_,
)
from compactor.cli import (
    _outcomes as outcomes,
)
from compactor.cli import (
    _replay as replay,
)
from compactor.cli import (
    _serve as serve,
)
from compactor.cli import (
    _shrink as shrink,
)
from compactor.cli import (
    _similar as similar,
)
from compactor.cli import (
    _summarize as summarize,
)
from compactor.cli import (
    _sweep as sweep,
)
from compactor.cli import (
    _tokens as tokens,
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
