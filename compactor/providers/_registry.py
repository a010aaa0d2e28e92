"""The configured providers by name, each connected when first called."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path

from compactor.errors import InvalidRequest, Problem
from compactor.providers._anthropic_messages import AnthropicProvider
from compactor.providers._base import Provider
from compactor.providers._config import (
    ANTHROPIC,
    PROVIDERS_ENV,
    ProviderConfig,
    load_providers,
)
from compactor.providers._openai_compatible import OpenAICompatibleProvider


def provider_for(config: ProviderConfig) -> Provider:
    """The provider a configuration describes (its client is built on the first call)."""
    kind = AnthropicProvider if config.kind == ANTHROPIC else OpenAICompatibleProvider
    return kind(config)


class ProviderRegistry(Mapping[str, Provider]):
    """Providers by name; :meth:`resolve` turns an unknown ``providerID`` into a request error."""

    def __init__(self, configs: Mapping[str, ProviderConfig] | None = None):
        self._providers = {name: provider_for(c) for name, c in (configs or {}).items()}

    @classmethod
    def from_file(cls, path: str | Path) -> ProviderRegistry:
        return cls(load_providers(path))

    @classmethod
    def from_environment(cls) -> ProviderRegistry:
        """The providers of the file ``COMPACTOR_PROVIDERS`` names; none when it is not set."""
        path = os.environ.get(PROVIDERS_ENV, "").strip()
        return cls.from_file(path) if path else cls()

    def __getitem__(self, name: str) -> Provider:
        return self._providers[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._providers)

    def __len__(self) -> int:
        return len(self._providers)

    def resolve(self, name: str) -> Provider:
        """The provider called ``name``; raises :class:`InvalidRequest` at ``providerID``."""
        if name in self._providers:
            return self._providers[name]
        if self._providers:
            known = ", ".join(repr(n) for n in sorted(self._providers))
            reason = f"no provider is configured with this name; the configured ones are {known}"
        else:
            reason = (
                "no provider is configured here: set the environment variable "
                f"{PROVIDERS_ENV} to a providers TOML file (see docs/llm-compact.md)"
            )
        raise InvalidRequest([Problem(reason, path="providerID")])
