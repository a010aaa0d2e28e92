"""Provider configuration: named providers from a small TOML file, or one from the command line.

A provider is a language model endpoint configured on our side; a request names it by
``providerID`` and never carries a key. The file::

    [providers.local]                        # the name a request's providerID uses
    kind = "openai"                          # OpenAI-compatible: OpenAI, Ollama, vLLM,
    base_url = "http://localhost:11434/v1"   #   llama.cpp's server, LiteLLM
    model = "llama3.2"                       # optional: the CLI's default model
    context_window_tokens = 8192             # optional: the summary model's window

    [providers.claude]
    kind = "anthropic"
    api_key_env = "ANTHROPIC_API_KEY"        # the key is read from this environment variable

Keys never appear in the file, in a URL, in an error message or in :meth:`ProviderConfig.public`:
``api_key_env`` names the environment variable the key is read from when the provider is first
called, a base URL with a user, password, query or fragment is refused, and no message repeats
a value that might be a key. Timeouts, retries and answers are bounded (``timeout_seconds``, the
deadline of a whole call, at most 600; ``max_retries`` at most 5; ``max_answer_bytes`` at most
64 MiB).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from compactor.errors import Problem, ProblemError, format_path
from compactor.input import Schema, schema_problems

OPENAI = "openai"
ANTHROPIC = "anthropic"
KINDS = (OPENAI, ANTHROPIC)
#: Where each kind is served when ``base_url`` is not given.
DEFAULT_BASE_URLS = {OPENAI: "https://api.openai.com/v1", ANTHROPIC: "https://api.anthropic.com"}
DEFAULT_MAX_OUTPUT_TOKENS = 1024
DEFAULT_TIMEOUT_SECONDS = 60.0
DEFAULT_CONNECT_TIMEOUT_SECONDS = 10.0
DEFAULT_MAX_RETRIES = 2
#: The largest answer accepted by default: 1 MiB, about 250,000 tokens of English text.
DEFAULT_MAX_ANSWER_BYTES = 1024 * 1024
MAX_TIMEOUT_SECONDS = 600
MAX_RETRIES = 5
MAX_ANSWER_BYTES = 64 * 1024 * 1024
#: The environment variable naming the providers file, for the HTTP service and the CLI.
PROVIDERS_ENV = "COMPACTOR_PROVIDERS"
#: The name of the provider that ``--base-url`` stands for on the command line.
COMMAND_LINE = "command-line"

#: Fields that look like a place for the key itself: refused with a pointer to ``api_key_env``.
_SECRET_FIELDS = {"api_key", "apikey", "key", "token", "auth_token", "password", "secret"}
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PROVIDER_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
_TOML_WHERE = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")

PROVIDER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["kind"],
    "additionalProperties": False,
    "properties": {
        "kind": {"enum": list(KINDS)},
        # base_url and api_key_env are checked by hand: their messages must not repeat them.
        "base_url": {"type": "string"},
        "api_key_env": {"type": "string"},
        "model": {"type": "string", "minLength": 1},
        "context_window_tokens": {"type": "integer", "minimum": 256},
        "max_output_tokens": {"type": "integer", "minimum": 16, "maximum": 1_000_000},
        "timeout_seconds": {"type": "number", "minimum": 0.1, "maximum": MAX_TIMEOUT_SECONDS},
        "connect_timeout_seconds": {
            "type": "number",
            "minimum": 0.1,
            "maximum": MAX_TIMEOUT_SECONDS,
        },
        "max_retries": {"type": "integer", "minimum": 0, "maximum": MAX_RETRIES},
        "max_answer_bytes": {"type": "integer", "minimum": 1024, "maximum": MAX_ANSWER_BYTES},
    },
}
FILE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["providers"],
    "additionalProperties": False,
    "properties": {
        # at least one provider, each a table: checked in _file_problems
        "providers": {"type": "object"}
    },
}
_FILE = Schema(FILE_SCHEMA)
_PROVIDER = Schema(PROVIDER_SCHEMA)


class ProviderConfigError(ProblemError):
    """A providers file, or command-line provider options, that cannot be used."""


@dataclass(frozen=True)
class ProviderConfig:
    """One configured provider. It holds the *name* of the key's environment variable only."""

    name: str
    kind: str = OPENAI
    base_url: str = DEFAULT_BASE_URLS[OPENAI]
    api_key_env: str | None = None
    model: str | None = None
    #: The summary model's context window in tokens; None: unknown, learned from the provider's
    #: "context length exceeded" errors.
    context_window_tokens: int | None = None
    #: The most tokens one summary may take when the request sets no ``targetTokensEstimate``.
    max_output_tokens: int = DEFAULT_MAX_OUTPUT_TOKENS
    #: The deadline of one call as a whole: connecting, sending, every retry and its wait, and
    #: reading the whole answer. The call ends by then whatever the provider does.
    timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS
    #: How long each connection attempt may take (within the deadline).
    connect_timeout_seconds: float = DEFAULT_CONNECT_TIMEOUT_SECONDS
    #: Attempts after the first for timeouts, connection errors, 408, 409, 429 and 5xx answers.
    max_retries: int = DEFAULT_MAX_RETRIES
    #: The largest answer (bytes of the HTTP body) accepted; a larger one is refused unread.
    max_answer_bytes: int = DEFAULT_MAX_ANSWER_BYTES

    def public(self) -> dict[str, Any]:
        """The configuration as JSON, for exports and displays: no secret is in it."""
        return asdict(self)

    def with_options(self, **options: Any) -> ProviderConfig:
        """This configuration with command-line options applied (None leaves a field as it is).

        Raises :class:`ProviderConfigError` naming each bad one as its option, ``--max-retries``.
        """
        given = {**self.public(), **{k: v for k, v in options.items() if v is not None}}
        fields = {k: v for k, v in given.items() if v is not None and k != "name"}
        problems = [
            Problem(p.message, path="--" + (p.path or "").replace("_", "-"))
            for p in _provider_problems(fields, [])
        ]
        if problems:
            raise ProviderConfigError(problems)
        return _config(self.name, fields)


def load_providers(path: str | Path) -> dict[str, ProviderConfig]:
    """The providers of a TOML file by name; raises :class:`ProviderConfigError` saying where."""
    source = Path(path)
    try:
        text = source.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        raise ProviderConfigError(
            [Problem(f"cannot read the providers file {source} ({reason})")]
        ) from None
    return parse_providers(text, str(source))


def parse_providers(text: str, source: str = "providers file") -> dict[str, ProviderConfig]:
    """The providers of a TOML document by name (``source`` names it in error messages).

    >>> configs = parse_providers('[providers.local]\\nkind = "openai"\\n'
    ...                           'base_url = "http://localhost:11434/v1"')
    >>> configs["local"].base_url, configs["local"].timeout_seconds
    ('http://localhost:11434/v1', 60.0)
    """
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        where = _TOML_WHERE.search(message)
        if where:
            line, column = int(where.group(1)), int(where.group(2))
            problem = Problem(f"{message[: where.start()]} (in {source})", line=line, column=column)
        else:
            problem = Problem(f"{message} (in {source})")
        raise ProviderConfigError([problem]) from None
    problems = list(_file_problems(document))
    if problems:
        raise ProviderConfigError([_located(p, source) for p in problems])
    return {name: _config(name, fields) for name, fields in document["providers"].items()}


def command_line_provider(
    base_url: str,
    api_key_env: str | None = None,
    **options: Any,
) -> ProviderConfig:
    """The OpenAI-compatible provider that ``--base-url URL --api-key-env VAR`` stand for.

    ``options`` are other :class:`ProviderConfig` fields (``model``, ``context_window_tokens``,
    ``timeout_seconds``, ``max_retries``); None leaves the default.
    """
    return ProviderConfig(COMMAND_LINE).with_options(
        base_url=base_url, api_key_env=api_key_env, **options
    )


def _config(name: str, fields: Mapping[str, Any]) -> ProviderConfig:
    kind = fields["kind"]
    values = {**fields, "base_url": fields.get("base_url", DEFAULT_BASE_URLS[kind])}
    for seconds in ("timeout_seconds", "connect_timeout_seconds"):
        if seconds in values:
            values[seconds] = float(values[seconds])
    return ProviderConfig(name=name, **values)


def _located(problem: Problem, source: str) -> Problem:
    return Problem(f"{problem.message} (in {source})", path=problem.path)


def _file_problems(document: dict[str, Any]) -> Iterator[Problem]:
    yield from schema_problems(_FILE, document)
    providers = document.get("providers")
    if isinstance(providers, dict) and not providers:
        yield Problem("names no provider; add a [providers.NAME] table", path="providers")
    for name, fields in providers.items() if isinstance(providers, dict) else ():
        if not isinstance(fields, dict):
            yield Problem(
                "must be a table of fields ([providers.NAME])",
                path=format_path(["providers", name]),
            )
        if not _PROVIDER_NAME.fullmatch(name):
            yield Problem(
                "a provider name is 1 to 64 letters, digits, '.', '_' or '-', starting with a "
                "letter or digit",
                path=format_path(["providers", name]),
            )
        if isinstance(fields, dict):
            yield from _provider_problems(fields, ["providers", name])


def _provider_problems(fields: Mapping[str, Any], at: list[str]) -> Iterator[Problem]:
    """Every problem of one provider's fields; no message repeats a value that might be a key."""
    secrets = {field for field in fields if field.lower() in _SECRET_FIELDS}
    for field in sorted(secrets):
        yield Problem(
            "a key is never written in the configuration: put it in an environment variable "
            "and name that variable with api_key_env",
            path=format_path([*at, field]),
        )
    # The schema's own message for an unknown field names the field only, never its value.
    others = {k: v for k, v in fields.items() if k not in secrets}
    for problem in schema_problems(_PROVIDER, others):
        yield Problem(problem.message, path=format_path([*at, *_parts(problem.path)]))
    env = fields.get("api_key_env")
    if isinstance(env, str) and not _ENV_NAME.fullmatch(env):
        yield Problem(
            "must be the name of an environment variable (letters, digits and _, not starting "
            "with a digit), not the key itself",
            path=format_path([*at, "api_key_env"]),
        )
    url = fields.get("base_url")
    if isinstance(url, str):
        reason = _url_problem(url)
        if reason:
            yield Problem(reason, path=format_path([*at, "base_url"]))


def _parts(path: str | None) -> list[str]:
    """The field of a one-level path (``$`` is the table itself)."""
    return [] if path in (None, "$") else [path]


def _url_problem(url: str) -> str | None:
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        return "is not a URL; write it as http://HOST:PORT/PATH"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "must be an http:// or https:// URL with a host, e.g. http://localhost:11434/v1"
    if parts.username is not None or parts.password is not None:
        return (
            "must not hold a user or password: keys never go in a URL; name an environment "
            "variable with api_key_env"
        )
    if parts.query or parts.fragment:
        return "must not have a query (?...) or fragment (#...): keys never go in a URL"
    return None
