"""Language model providers for the LLM compact strategy (the ``llm`` extra).

A provider is configured on our side by name, in a TOML file or on the command line, and a
request names it by ``providerID``. OpenAI-compatible endpoints (OpenAI, Ollama, vLLM, llama.cpp's
server, LiteLLM) go through the official ``openai`` client, Anthropic through ``anthropic``; both
are imported only when a provider is first called, so nothing else needs them. Keys are read from
the environment variable the configuration names and never appear in a URL, a log line, an error
message, :meth:`ProviderConfig.public` or a cache key. A call is async (``acomplete``; ``complete``
and :func:`run_sync` for synchronous code), ends within its configured deadline whatever the
server does, and refuses an answer over ``max_answer_bytes``.

>>> registry = ProviderRegistry(parse_providers('[providers.local]\\nkind = "openai"'))
>>> provider = registry.resolve("local")
>>> provider.config.base_url, provider.config.max_retries
('https://api.openai.com/v1', 2)
"""

from compactor.providers._base import (
    INSTALL_HINT,
    Completion,
    ContextWindowExceeded,
    Provider,
    ProviderAnswerInvalid,
    ProviderError,
    ProviderRefused,
    ProviderTimeout,
)
from compactor.providers._config import (
    ANTHROPIC,
    COMMAND_LINE,
    DEFAULT_CONNECT_TIMEOUT_SECONDS,
    DEFAULT_MAX_ANSWER_BYTES,
    KINDS,
    MAX_ANSWER_BYTES,
    MAX_RETRIES,
    MAX_TIMEOUT_SECONDS,
    OPENAI,
    PROVIDERS_ENV,
    ProviderConfig,
    ProviderConfigError,
    command_line_provider,
    load_providers,
    parse_providers,
)
from compactor.providers._http_client import run_sync
from compactor.providers._registry import ProviderRegistry, provider_for

__all__ = [
    "ANTHROPIC",
    "COMMAND_LINE",
    "command_line_provider",
    "Completion",
    "ContextWindowExceeded",
    "DEFAULT_CONNECT_TIMEOUT_SECONDS",
    "DEFAULT_MAX_ANSWER_BYTES",
    "INSTALL_HINT",
    "KINDS",
    "load_providers",
    "MAX_ANSWER_BYTES",
    "MAX_RETRIES",
    "MAX_TIMEOUT_SECONDS",
    "OPENAI",
    "parse_providers",
    "Provider",
    "provider_for",
    "ProviderAnswerInvalid",
    "ProviderConfig",
    "ProviderConfigError",
    "ProviderError",
    "ProviderRefused",
    "ProviderRegistry",
    "PROVIDERS_ENV",
    "ProviderTimeout",
    "run_sync",
]
