"""The command line's edges: reading FILE, writing JSON, and reporting bad input as exit 2."""

from __future__ import annotations

import argparse
import functools
import os
import sys
from collections.abc import Callable, Iterable
from typing import Any

from compactor.errors import IntegrationUnavailable, Problem, ProblemError, UnreadableJSON
from compactor.input import dumps, parse_json

#: The largest FILE a command reads: 64 MiB, the agent endpoint's body limit (a whole agent
#: session is 1-4 MB; its analyses hold several times the file in memory).
#: ``COMPACTOR_MAX_INPUT_BYTES`` changes it.
MAX_INPUT_BYTES = 64 * 1024 * 1024
MAX_INPUT_ENV = "COMPACTOR_MAX_INPUT_BYTES"


def max_input_bytes() -> int:
    given = os.environ.get(MAX_INPUT_ENV, "")
    return int(given) if given.isdigit() and int(given) > 0 else MAX_INPUT_BYTES


def _too_large(path: str, size: int | None, limit: int) -> UnreadableJSON:
    said = f"{size:,} bytes" if size is not None else "more than that"
    return UnreadableJSON(
        [
            Problem(
                f"{path}: the file is {said}, over the limit of {limit:,} bytes, and was not "
                f"read (set {MAX_INPUT_ENV} to read larger files)"
            )
        ]
    )


def read_bytes(path: str) -> bytes:
    """The bytes of FILE, or of standard input for '-'; raises :class:`UnreadableJSON`, also
    for a file over :func:`max_input_bytes`, refused before it is read whole."""
    limit = max_input_bytes()
    if path == "-":
        data = sys.stdin.buffer.read(limit + 1)
        if len(data) > limit:
            raise _too_large("standard input", None, limit)
        return data
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > limit:
                raise _too_large(path, size, limit)
            data = handle.read(limit + 1)
    except OSError as error:
        raise UnreadableJSON(
            [Problem(f"{path}: cannot read the file ({error.strerror})")]
        ) from None
    if len(data) > limit:  # a file that grew, or one whose size the system does not know
        raise _too_large(path, None, limit)
    return data


class MissingExtra(Exception):
    """An optional dependency is missing; the message is the one line saying how to install it."""


def reports_bad_input(
    command: Callable[[argparse.Namespace], int],
) -> Callable[[argparse.Namespace], int]:
    """Wrap a command so that bad input (unreadable JSON, not a conversation, an invalid request:
    any :class:`ProblemError`) exits 2 with one line per problem, and a missing extra with the
    one line saying how to install it."""

    @functools.wraps(command)
    def wrapper(args: argparse.Namespace) -> int:
        try:
            return command(args)
        except ProblemError as error:
            return fail(error.problems)
        except (MissingExtra, IntegrationUnavailable) as missing:
            return fail([str(missing)])

    return wrapper


def read_json(path: str) -> Any:
    """The JSON document in FILE (or standard input); raises :class:`UnreadableJSON`."""
    return parse_json(read_bytes(path))


def emit(value: Any, indent: int | None = 2) -> int:
    """Write ``value`` as UTF-8 JSON to standard output; exit code 0."""
    sys.stdout.buffer.write(dumps(value, indent).encode("utf-8") + b"\n")
    sys.stdout.buffer.flush()
    return 0


def fail(problems: Iterable[Any]) -> int:
    """Write one line per problem to standard error; exit code 2."""
    for problem in problems:
        line = str(problem).replace("\n", " ")
        sys.stderr.buffer.write(line.encode("utf-8", "backslashreplace") + b"\n")
    sys.stderr.buffer.flush()
    return 2


def add_input_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a JSON file, or '-' for standard input")


def add_indent_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--indent",
        type=int,
        default=2,
        metavar="N",
        help="indent the JSON output by N spaces (default 2; 0 prints it on one line)",
    )


def indent_of(args: argparse.Namespace) -> int | None:
    return args.indent if args.indent > 0 else None
