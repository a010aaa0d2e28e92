"""``python -m compactor summarize FILE --provider NAME``: the LLM compact of seeds/003."""

from __future__ import annotations

import argparse
import os
from typing import Any

from compactor.cli._commands import help_of
from compactor.cli._io import (
    add_indent_argument,
    add_input_argument,
    emit,
    fail,
    indent_of,
    reports_bad_input,
)
from compactor.cli._records import add_source_arguments, read_input
from compactor.errors import Problem
from compactor.providers import (
    DEFAULT_CONNECT_TIMEOUT_SECONDS,
    DEFAULT_MAX_ANSWER_BYTES,
    MAX_ANSWER_BYTES,
    MAX_RETRIES,
    MAX_TIMEOUT_SECONDS,
    PROVIDERS_ENV,
    ProviderAnswerInvalid,
    ProviderConfig,
    ProviderConfigError,
    ProviderError,
    ProviderRefused,
    command_line_provider,
    load_providers,
    provider_for,
)
from compactor.strategies import (
    COMPACT_REQUEST_SCHEMA,
    CannotSummarize,
    llm_compact,
)

#: Exit code when the provider failed (unreachable, timed out, refused the key, an outage):
#: the same command may work later. Input, configuration, "cannot summarise", a request the
#: provider refuses as asked (an unknown model: HTTP 400 from the service) and an answer that
#: cannot be used (not the API's shape, over max_answer_bytes: HTTP 502) exit 2.
PROVIDER_FAILED = 1

DESCRIPTION = f"""\
Summarise the older messages of a conversation with a language model, as LLM compact (and
POST /v1/context/compact) does: every message except the last --keep-last
(default 4) becomes one user message written by the model, followed by the kept messages
unchanged. Prints {{"messages", "stats", "compaction"}} as JSON.

FILE is a JSON object with "messages" (plain {{role, content}} or AI SDK messages), which may
hold the other compact request fields (providerID, model, keepLastMessages, instructions,
targetTokensEstimate; the options override them); or any conversation `import` reads (a
memory-compact request, OpenAI, Anthropic, ShareGPT, JSONL, a Claude Code session, a Codex
rollout; --format NAME, --record N), imported first with its report on standard error. The
request's limits of memory-compact (200 messages, 8,000 characters) do not apply here.

The provider is one of a providers TOML file (--providers FILE, or the file the environment
variable {PROVIDERS_ENV} names), chosen by --provider NAME (or FILE's providerID); or an
OpenAI-compatible endpoint given here: --base-url URL [--api-key-env VAR] (Ollama, vLLM,
llama.cpp's server, LiteLLM, OpenAI). A key is only ever read from an environment variable.

Each provider call ends within --timeout-seconds (connecting, every retry and reading the whole
answer), whatever the provider does; an answer over --max-answer-bytes is refused unread.

Exit 0 on success; 2 when FILE, the request or the provider configuration is wrong, the
conversation cannot be summarised in the model's context window, the provider refuses the
request as asked (an unknown model), or its answer cannot be used (not the API's shape, too
large); {PROVIDER_FAILED} when the provider failed and the same command may work later
(unreachable, timed out, refused the key, rate limited, an outage). Problems go to standard
error, one line each; nothing is printed on standard output then."""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "summarize",
        help=help_of("summarize"),
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_input_argument(parser)
    add_source_arguments(parser)
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--provider", metavar="NAME", help="a provider of the providers file")
    where.add_argument(
        "--base-url",
        metavar="URL",
        help="an OpenAI-compatible endpoint instead, e.g. http://localhost:11434/v1 (Ollama)",
    )
    parser.add_argument(
        "--providers",
        metavar="FILE",
        help=f"the providers TOML file (default: the file ${PROVIDERS_ENV} names)",
    )
    parser.add_argument(
        "--api-key-env",
        metavar="VAR",
        help="with --base-url: the environment variable holding the key (none: no key sent)",
    )
    parser.add_argument("--model", metavar="M", help="the model (default: the provider's model)")
    parser.add_argument(
        "--keep-last", type=int, metavar="N", help="messages kept verbatim (default 4)"
    )
    parser.add_argument("--instructions", metavar="TEXT", help="guidance for the summary")
    parser.add_argument(
        "--target-tokens", type=int, metavar="N", help="desired summary size in tokens (>= 64)"
    )
    parser.add_argument(
        "--context-window-tokens",
        type=int,
        metavar="N",
        help="the summary model's context window; longer conversations are chunked",
    )
    parser.add_argument(
        "--timeout-seconds",
        type=float,
        metavar="S",
        help="the deadline of each provider call as a whole, retries included (default 60, at "
        f"most {MAX_TIMEOUT_SECONDS})",
    )
    parser.add_argument(
        "--connect-timeout-seconds",
        type=float,
        metavar="S",
        help=f"for each connection attempt (default {DEFAULT_CONNECT_TIMEOUT_SECONDS:g})",
    )
    parser.add_argument(
        "--max-retries",
        type=int,
        metavar="N",
        help=f"retries of a failed attempt (default 2, at most {MAX_RETRIES})",
    )
    parser.add_argument(
        "--max-answer-bytes",
        type=int,
        metavar="N",
        help=f"the largest answer accepted (default {DEFAULT_MAX_ANSWER_BYTES:,}, at most "
        f"{MAX_ANSWER_BYTES:,})",
    )
    add_indent_argument(parser)
    parser.set_defaults(run=run)


@reports_bad_input
def run(args: argparse.Namespace) -> int:
    value = read_input(args, as_sent=_is_compact_request, limits=False).request
    value = {k: v for k, v in value.items() if k in COMPACT_REQUEST_SCHEMA["properties"]}
    try:
        config = _provider(args, value).with_options(
            context_window_tokens=args.context_window_tokens,
            timeout_seconds=args.timeout_seconds,
            connect_timeout_seconds=args.connect_timeout_seconds,
            max_retries=args.max_retries,
            max_answer_bytes=args.max_answer_bytes,
        )
    except ProviderConfigError as error:
        return fail(error.problems)
    model = args.model or value.get("model") or config.model
    if not model:
        return fail([Problem("no model: pass --model M, or set model in the provider's table")])
    overrides = {
        "keepLastMessages": args.keep_last,
        "instructions": args.instructions,
        "targetTokensEstimate": args.target_tokens,
    }
    request: dict[str, Any] = {**value, "providerID": config.name, "model": model}
    request.update({k: v for k, v in overrides.items() if v is not None})
    try:
        response = llm_compact(request, provider_for(config))
    except (CannotSummarize, ProviderRefused, ProviderAnswerInvalid) as error:
        return fail(error.problems)
    except ProviderError as error:
        fail(error.problems)
        return PROVIDER_FAILED
    return emit(response, indent_of(args))


def _is_compact_request(data: object, args: argparse.Namespace) -> bool:
    """A compact request of seeds/003 as it stands (its messages may be AI SDK messages, which
    the import would flatten): an object with messages and no field the compact request lacks;
    anything else is imported."""
    fields = COMPACT_REQUEST_SCHEMA["properties"]
    return isinstance(data, dict) and "messages" in data and all(k in fields for k in data)


def _provider(args: argparse.Namespace, value: dict[str, Any]) -> ProviderConfig:
    if args.base_url is not None:
        return command_line_provider(args.base_url, args.api_key_env, model=args.model)
    if args.api_key_env is not None:
        raise _problem("--api-key-env goes with --base-url; a providers file names its own")
    name = args.provider or value.get("providerID")
    if not isinstance(name, str) or not name:
        raise _problem("name a provider: --provider NAME (of a providers file) or --base-url URL")
    path = args.providers or os.environ.get(PROVIDERS_ENV, "").strip()
    if not path:
        raise _problem(
            f"no providers file: pass --providers FILE or set {PROVIDERS_ENV}; or give an "
            "OpenAI-compatible endpoint with --base-url URL"
        )
    configs = load_providers(path)
    if name not in configs:
        known = ", ".join(sorted(configs))
        raise _problem(f"{path} has no provider {name!r}; it has {known}")
    return configs[name]


def _problem(message: str) -> ProviderConfigError:
    return ProviderConfigError([Problem(message)])
