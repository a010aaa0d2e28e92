"""``python -m compactor tokens FILE``: real token counts per message beside the estimate."""

from __future__ import annotations

import argparse

from compactor.analyses import message_counts
from compactor.cli._anchors import FILE_HELP, add_conversation_arguments, read_request
from compactor.cli._commands import help_of
from compactor.cli._io import (
    MissingExtra,
    add_indent_argument,
    add_input_argument,
    emit,
    indent_of,
    reports_bad_input,
)
from compactor.text import DEFAULT_ENCODING, ENCODINGS, TOKENS_HINT, tokens_available
from compactor.wording import install_command


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "tokens",
        help=help_of("tokens"),
        description=(
            "Count the tokens of every message's content with OpenAI's o200k_base or cl100k_base "
            "vocabulary (bpe-openai, offline) and print them beside the characters and the "
            'ceil(characters / 4) estimate: {"encoding", "messages": [{"index", "chars", '
            '"tokens", "estimate"}], "total": {"chars", "tokens", "estimate"}}. '
            f"{FILE_HELP} Needs the tokens extra: {install_command('tokens')}. Exit 0 on "
            "success; 2 when the input cannot be used or the extra is missing."
        ),
    )
    add_input_argument(parser)
    add_conversation_arguments(parser)
    parser.add_argument(
        "--encoding",
        choices=ENCODINGS,
        default=DEFAULT_ENCODING,
        help=f"the vocabulary (default {DEFAULT_ENCODING}: GPT-4o; cl100k_base: GPT-4)",
    )
    add_indent_argument(parser)
    parser.set_defaults(run=run)


@reports_bad_input
def run(args: argparse.Namespace) -> int:
    if not tokens_available():
        raise MissingExtra(TOKENS_HINT)
    request = read_request(args)
    counts = message_counts(request.contents, args.encoding)
    rows = [
        {"index": i, "chars": chars, "tokens": count, "estimate": estimate}
        for i, (chars, count, estimate) in enumerate(counts)
    ]
    total = {key: sum(row[key] for row in rows) for key in ("chars", "tokens", "estimate")}
    return emit({"encoding": args.encoding, "messages": rows, "total": total}, indent_of(args))
