"""The command line, ``python -m compactor COMMAND``: the parser over the command list
(:mod:`compactor.cli._commands`). Only the command that runs is imported, with the layers it
needs: ``compact`` loads no analysis, and ``--help`` no command at all."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import import_module

from compactor.cli._commands import COMMANDS, command_named

DESCRIPTION = """\
memory-compact from the command line: the same engine as the explorer and the HTTP service.
The commands that take FILE read JSON from it, or from standard input when FILE is '-'. Results
go to standard output as UTF-8 JSON; problems go to standard error, one line each ('path: reason',
or 'line L, column C: reason' for a file that is not JSON), with exit code 2."""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command; with ``only`` (a command's name), that command's arguments in
    full and every other command by its name and help alone, so that only ``only``'s module is
    imported. ``--help`` lists the same commands either way."""
    parser = argparse.ArgumentParser(
        prog="python -m compactor",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        if only is None or command.name == only:
            import_module(command.module).register(sub)
        else:
            sub.add_parser(command.name, help=command.help)
    return parser


def command_of(argv: Sequence[str]) -> str:
    """The command ``argv`` names: its first argument that is not an option (the parser before
    the command has no option that takes a value), or '' when that is no command's name."""
    first = next((arg for arg in argv if not arg.startswith("-")), "")
    return first if command_named(first) is not None else ""


def main(argv: Sequence[str] | None = None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(only=command_of(given)).parse_args(given)
    try:
        return args.run(args)
    except BrokenPipeError:  # e.g. piped into `head`
        return 0
