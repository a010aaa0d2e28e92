"""``python -m compactor compact FILE``: the memory-compact response for a request."""

from __future__ import annotations

import argparse

from compactor.cli.io import (
    add_indent_argument,
    add_input_argument,
    emit,
    indent_of,
    read_json,
    reports_bad_input,
)
from compactor.pipeline import compact


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "compact",
        help="compact a request and print the response JSON",
        description=(
            "Read a memory-compact request (the catalog's input schema: messages, budget_chars "
            "and optional keep_last_n, keep_roles, duplicate_threshold, max_message_chars) and "
            "print the response: the surviving messages, what each stage did, the loss and "
            "budget accounting. Exit 0 on success; 2 when the input is not JSON or breaks the "
            "schema, with every problem on standard error and nothing on standard output."
        ),
    )
    add_input_argument(parser)
    add_indent_argument(parser)
    parser.set_defaults(run=run)


@reports_bad_input
def run(args: argparse.Namespace) -> int:
    return emit(compact(read_json(args.file)), indent_of(args))
