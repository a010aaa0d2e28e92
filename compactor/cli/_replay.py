"""``python -m compactor replay FILE``: compaction on every turn of an agent loop, replayed."""

from __future__ import annotations

import argparse

from compactor.analyses.anchors import find_anchors
from compactor.analyses.outcomes import find_needs, replay_misses
from compactor.analyses.pricing import price_histories
from compactor.analyses.replay import (
    POLICIES,
    STRATEGIES,
    Registered,
    Strategy,
    build_strategy,
    replay_request,
)
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
from compactor.cli._params import (
    add_parameter_arguments,
    add_watch_argument,
    setting_of,
    strategy_name,
)
from compactor.cli._pricing import add_price_arguments, priced_model
from compactor.contract import MEMORY_COMPACT
from compactor.errors import Problem, ProblemError
from compactor.model import Request
from compactor.strategies import DROP_OLDEST, Setting, get_strategy, strategy_names
from compactor.text import ENCODINGS, TOKENS_HINT, history_tokens, tokens_available
from compactor.wording import install_command

#: Every name ``--strategy`` takes: the replay's own, then the registry's.
CHOICES = tuple(dict.fromkeys((*STRATEGIES, *strategy_names())))


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "replay",
        help=help_of("replay"),
        description=(
            "Read a conversation and replay its messages as an agent loop would send "
            "them (SPEC part C, Replay): the history starts as the first message; each turn "
            "adds the next one and, when the policy says so, the strategy shrinks the history, "
            "which is what the model is sent. Prints "
            '{"turns": [{"turn", "messages_in", "chars_in", "messages_out", "chars_out", '
            '"compacted", "stable_prefix_messages", "stable_prefix_chars", "anchors_lost"}], '
            '"final": [messages]}: the stable prefix is what a prompt cache can reuse from the '
            "turn before, anchors_lost how many anchors of the messages so far (ids, numbers, "
            "dates, paths, ...; and the phrases of --watch) no longer appear whole, needs how "
            "many anchors the turn's message uses that an earlier message holds (SPEC part D) "
            "and misses how many of those the history sent before it no longer held; with "
            "--encoding, each turn also has tokens_out, the tokens of what is sent; with "
            "--model or --prices, each turn has its cost (call, prompt_tokens, reads, writes, "
            "uncached, output, cost_usd) and cost the whole task's (docs/cost.md). "
            f"{FILE_HELP} Exit 0 on success; 2 when the input cannot be used, one line per "
            "problem."
        ),
    )
    add_input_argument(parser)
    add_conversation_arguments(parser)
    parser.add_argument(
        "--policy",
        choices=POLICIES,
        default="always",
        help="compact on every turn, or only when the history is over budget_chars "
        "(default: always)",
    )
    parser.add_argument(
        "--strategy",
        choices=CHOICES,
        type=strategy_name,
        default=None,
        metavar="NAME",
        help="memory-compact with the request's parameters, keep-last (the last messages "
        "that fit budget_chars), drop-oldest (the recency trim by token estimate: with its "
        "own options below, "
        "else at budget_chars), or any strategy of the registry at budget_chars "
        f"({', '.join(n for n in CHOICES if n not in STRATEGIES)}); "
        "default: the --setting file's strategy with its parameters, else memory-compact",
    )
    parser.add_argument(
        "--strategy-param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a parameter of a registry strategy, by its own name (repeatable; a list as "
        "a,b); without any, the strategy runs with the lineup's parameters",
    )
    add_parameter_arguments(parser)
    trim = parser.add_argument_group("drop-oldest's own parameters (the recency trim's)")
    trim.add_argument("--keep-last-messages", type=int, metavar="N", help="keepLastMessages")
    trim.add_argument("--drop-tool-parts", action="store_true", help="dropToolParts")
    trim.add_argument("--max-tokens-estimate", type=int, metavar="N", help="maxTokensEstimate")
    add_watch_argument(
        parser,
        "a phrase to count in anchors_lost beside the anchors (repeat for more)",
    )
    parser.add_argument(
        "--encoding",
        choices=ENCODINGS,
        default=None,
        help="also count the tokens sent on each turn (tokens_out) in this vocabulary "
        f"(offline; needs the tokens extra: {install_command('tokens')})",
    )
    add_price_arguments(parser)
    add_indent_argument(parser)
    parser.set_defaults(run=run)


def replay_facts(request: Request, watched: list[str]) -> list[tuple[str, tuple]]:
    """What ``anchors_lost`` counts: the conversation's anchors, the watched phrases among
    them (SPEC part C, Anchors)."""
    return [(a.text, a.occurrences) for a in find_anchors(request.contents, watched)]


def replay_strategy(
    args: argparse.Namespace, request: Request, setting: Setting | None = None
) -> Strategy:
    """The strategy the arguments name (else the setting's, else memory-compact), with its own
    parameters; a registry strategy given parameters (``--strategy-param``, or the setting's
    for its own strategy) runs through the registry."""
    name = args.strategy or (setting.strategy if setting is not None else MEMORY_COMPACT)
    own = (args.keep_last_messages, args.max_tokens_estimate)
    if name == DROP_OLDEST and (args.drop_tool_parts or any(v is not None for v in own)):
        if args.strategy_param:
            raise ProblemError(
                [
                    Problem(
                        "drop-oldest takes its own --keep-last-messages, --drop-tool-parts and "
                        "--max-tokens-estimate, or --strategy-param, not both",
                        path="--strategy-param",
                    )
                ]
            )
        return build_strategy(
            DROP_OLDEST,
            request.params,
            keep_last_messages=args.keep_last_messages,
            drop_tool_parts=args.drop_tool_parts,
            max_tokens_estimate=args.max_tokens_estimate,
        )
    # memory-compact's parameters from a setting are the request's own (read_request applied
    # them); another strategy's come from the setting under --strategy-param's
    own = setting is not None and args.strategy is None and name != MEMORY_COMPACT
    base = (
        {k: list(v) if isinstance(v, tuple) else v for k, v in setting.params.items()}
        if own
        else {}
    )
    if args.strategy_param or base:
        strategy = get_strategy(name)
        return Registered(name, request.params, {**base, **strategy.parse(args.strategy_param)})
    return build_strategy(name, request.params)


@reports_bad_input
def run(args: argparse.Namespace) -> int:
    if args.encoding and not tokens_available():
        raise MissingExtra(TOKENS_HINT)
    model = priced_model(args)
    request = read_request(args, any_strategy=True)
    result = replay_request(
        request,
        replay_strategy(args, request, setting_of(args)),
        policy=args.policy,
        facts=replay_facts(request, args.watch),
    )
    out = result.to_dict()
    misses = replay_misses(result, find_needs(request.contents, request.roles, args.watch))
    for turn, missed in zip(out["turns"], misses.turns, strict=True):
        turn["needs"], turn["misses"] = missed.needs, missed.misses
    if args.encoding:
        # histories[0] is [m_0], before the first turn
        sent = history_tokens(result.histories[1:], args.encoding)
        for turn, count in zip(out["turns"], sent, strict=True):
            turn["tokens_out"] = count
    if model is not None:
        cost = price_histories(
            result.histories, request.messages, model, lifetime_seconds=args.cache_lifetime
        )
        # cost.turns[0] is turn 0 (the first call, on m_0 alone): in the task's total only
        for turn, priced in zip(out["turns"], cost.turns[1:], strict=True):
            turn["cost"] = {k: v for k, v in priced.to_dict().items() if k != "turn"}
        out["cost"] = cost.to_dict()
    return emit(out, indent_of(args))
