"""``python -m compactor sweep FILE``: from which budget each message of a request survives."""

from __future__ import annotations

import argparse

from compactor.analyses import BUDGET_RANGE, survival_budgets
from compactor.cli._anchors import FILE_HELP, add_conversation_arguments
from compactor.cli._commands import help_of
from compactor.cli._io import (
    add_indent_argument,
    add_input_argument,
    emit,
    indent_of,
    reports_bad_input,
)
from compactor.cli._records import read_input
from compactor.contract import AGENT_MAX_BUDGET_CHARS, AUTO_LIMITS
from compactor.engine import run as run_pipeline
from compactor.input import validate


def register(sub: argparse._SubParsersAction) -> None:
    low, high = BUDGET_RANGE
    parser = sub.add_parser(
        "sweep",
        help=help_of("sweep"),
        description=(
            "Read a conversation and print, for every message, the smallest "
            f"budget_chars (in the schema's range, {low:,} to {high:,}; to "
            f"{AGENT_MAX_BUDGET_CHARS:,} for a session over the contract's limits, read in the "
            "agent mode) from which it is in the "
            "output, the other parameters as in the request: "
            '[{"index": 0, "survives_from_budget": 100}, ...]. The value is null for a message '
            "removed whatever the budget (a duplicate) and for one that no budget in range "
            "keeps. Computed from one run's drop order. "
            f"{FILE_HELP} Exit 0 on success; 2 when the input is "
            "not JSON, not a conversation, or breaks the schema, with every problem on "
            "standard error."
        ),
    )
    add_input_argument(parser)
    add_conversation_arguments(parser)
    add_indent_argument(parser)
    parser.set_defaults(run=run)


@reports_bad_input
def run(args: argparse.Namespace) -> int:
    result = run_pipeline(validate(read_input(args, limits=False).request, limits=AUTO_LIMITS))
    rows = [
        {"index": s.index, "survives_from_budget": s.survives_from_budget}
        for s in survival_budgets(result)
    ]
    return emit(rows, indent_of(args))
