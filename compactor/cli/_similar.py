"""``python -m compactor similar FILE``: same-role messages close in meaning, not in words."""

from __future__ import annotations

import argparse

from compactor.analyses import semantic_pairs
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
from compactor.cli._params import add_parameter_arguments
from compactor.engine import run as run_pipeline
from compactor.text import SEMANTIC_HINT, SEMANTIC_THRESHOLD, semantic_available
from compactor.wording import install_command


def _cosine(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"the threshold must be a number, not {text!r}") from None
    if not -1.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"the threshold is a cosine, -1 to 1, not {value}")
    return value


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "similar",
        help=help_of("similar"),
        description=(
            "Embed every message with WordLlama's small static model (shipped in its wheel, "
            "offline) and print the pairs of messages of the same role whose cosine reaches "
            "--threshold while their word overlap (Jaccard, as dedupe computes it) is under "
            'duplicate_threshold: [{"a", "b", "semantic", "word_overlap"}], most similar first. '
            f"{FILE_HELP} Needs the semantic extra: {install_command('semantic')}. Exit 0 on "
            "success; 2 when the input cannot be used or the extra is missing."
        ),
    )
    add_input_argument(parser)
    add_conversation_arguments(parser)
    parser.add_argument(
        "--threshold",
        type=_cosine,
        default=SEMANTIC_THRESHOLD,
        metavar="X",
        help=f"the cosine from which a pair is printed (default {SEMANTIC_THRESHOLD})",
    )
    add_parameter_arguments(parser)
    add_indent_argument(parser)
    parser.set_defaults(run=run)


@reports_bad_input
def run(args: argparse.Namespace) -> int:
    if not semantic_available():
        raise MissingExtra(SEMANTIC_HINT)
    pairs = semantic_pairs(run_pipeline(read_request(args)), args.threshold)
    return emit([p.to_dict() for p in pairs], indent_of(args))
