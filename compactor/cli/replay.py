"""``python -m compactor replay FILE``: compaction on every turn of an agent loop, replayed."""

from __future__ import annotations

import argparse
from typing import Any

from compactor.analyses.anchors import find_anchors
from compactor.analyses.replay import POLICIES
from compactor.analyses.replay_strategies import STRATEGIES, replay_request
from compactor.cli.io import (
    add_indent_argument,
    add_input_argument,
    emit,
    indent_of,
    read_json,
    reports_bad_input,
)
from compactor.model import Request
from compactor.validation import validate

#: The request's parameters a flag can override: (flag, field, type).
OVERRIDES = (
    ("--budget-chars", "budget_chars", int),
    ("--keep-last-n", "keep_last_n", int),
    ("--keep-roles", "keep_roles", str),
    ("--duplicate-threshold", "duplicate_threshold", float),
    ("--max-message-chars", "max_message_chars", int),
)


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "replay",
        help="replay a conversation through a loop that compacts it on every turn",
        description=(
            "Read a memory-compact request and replay its messages as an agent loop would send "
            "them (SPEC part C, Replay): the history starts as the first message; each turn "
            "adds the next one and, when the policy says so, the strategy shrinks the history, "
            "which is what the model is sent. Prints "
            '{"turns": [{"turn", "messages_in", "chars_in", "messages_out", "chars_out", '
            '"compacted", "stable_prefix_messages", "stable_prefix_chars", "anchors_lost"}], '
            '"final": [messages]}: the stable prefix is what a prompt cache can reuse from the '
            "turn before, anchors_lost how many anchors of the messages so far (ids, numbers, "
            "dates, paths, ...; and the phrases of --watch) no longer appear whole. "
            "Exit 0 on success; 2 when the input is not JSON or breaks the schema."
        ),
    )
    add_input_argument(parser)
    parser.add_argument(
        "--policy",
        choices=POLICIES,
        default="always",
        help="compact on every turn, or only when the history is over budget_chars "
        "(default: always)",
    )
    parser.add_argument(
        "--strategy",
        choices=STRATEGIES,
        default="memory-compact",
        help="memory-compact with the request's parameters, keep-last (the last messages "
        "that fit budget_chars) or the seeds/003 trim (default: memory-compact)",
    )
    group = parser.add_argument_group("parameters (override the request's)")
    for flag, field, kind in OVERRIDES:
        hint = "comma-separated roles, empty for none" if field == "keep_roles" else field
        group.add_argument(flag, dest=field, type=kind, metavar="VALUE", help=hint)
    trim = parser.add_argument_group("the trim strategy's own parameters")
    trim.add_argument("--keep-last-messages", type=int, metavar="N", help="keepLastMessages")
    trim.add_argument("--drop-tool-parts", action="store_true", help="dropToolParts")
    trim.add_argument("--max-tokens-estimate", type=int, metavar="N", help="maxTokensEstimate")
    parser.add_argument(
        "--watch",
        action="append",
        default=[],
        metavar="PHRASE",
        help="a phrase to count in anchors_lost beside the anchors (repeat for more)",
    )
    add_indent_argument(parser)
    parser.set_defaults(run=run)


def with_overrides(request: Any, args: argparse.Namespace) -> Any:
    """The request with every parameter given on the command line replaced."""
    if not isinstance(request, dict):
        return request  # validation reports it
    changed = dict(request)
    for _, field, _ in OVERRIDES:
        value = getattr(args, field)
        if value is not None:
            if field == "keep_roles":
                value = [role.strip() for role in value.split(",") if role.strip()]
            changed[field] = value
    return changed


def replay_facts(request: Request, watched: list[str]) -> list[tuple[str, tuple]]:
    """What ``anchors_lost`` counts: the conversation's anchors, the watched phrases among
    them (SPEC part C, Anchors)."""
    return [(a.text, a.occurrences) for a in find_anchors(request.contents, watched)]


@reports_bad_input
def run(args: argparse.Namespace) -> int:
    request = validate(with_overrides(read_json(args.file), args))
    options = {}
    if args.strategy == "trim":
        options = {
            "keep_last_messages": args.keep_last_messages,
            "drop_tool_parts": args.drop_tool_parts,
            "max_tokens_estimate": args.max_tokens_estimate,
        }
    result = replay_request(
        request,
        args.strategy,
        policy=args.policy,
        facts=replay_facts(request, args.watch),
        **options,
    )
    return emit(result.to_dict(), indent_of(args))
