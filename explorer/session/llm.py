"""LLM compact in the explorer: the configured providers, and each answer kept per request and
provider for the session, because a call costs money: it runs on a button, never on a slider.

Providers come from the TOML file ``COMPACTOR_PROVIDERS`` names (see docs/llm-compact.md); keys
are read from the environment variables the file names and never reach the page, the link or an
export.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st

from compactor.errors import Problem, ProblemError
from compactor.providers import Provider, ProviderRegistry
from compactor.strategies import cache_key, llm_compact

RESULTS_KEY = "llm_compact_results"


def providers() -> tuple[ProviderRegistry, tuple[Problem, ...]]:
    """The configured providers (none when no file is named), and what is wrong with the file."""
    try:
        return ProviderRegistry.from_environment(), ()
    except ProblemError as error:
        return ProviderRegistry(), error.problems


def request_for(
    messages: Sequence[Mapping[str, Any]],
    provider: str,
    model: str,
    keep_last: int,
    instructions: str,
    target_tokens: int | None,
) -> dict[str, Any]:
    """The seeds/003 compact request for a conversation (roles and contents only)."""
    out: dict[str, Any] = {
        "providerID": provider,
        "model": model,
        "messages": [{"role": m["role"], "content": m["content"]} for m in messages],
        "keepLastMessages": keep_last,
    }
    if instructions.strip():
        out["instructions"] = instructions
    if target_tokens is not None:
        out["targetTokensEstimate"] = target_tokens
    return out


def stored(request: dict[str, Any], provider: Provider) -> dict[str, Any] | None:
    """The answer this session already has for ``request`` from ``provider``, if any."""
    try:
        key = cache_key(request, provider)
    except ProblemError:
        return None
    return st.session_state.get(RESULTS_KEY, {}).get(key)


def run(request: dict[str, Any], provider: Provider) -> dict[str, Any]:
    """Call the provider (once per request and provider); raises ``ProblemError`` subclasses
    (invalid request, cannot summarise, provider failure) with what went wrong."""
    found = stored(request, provider)
    if found is not None:
        return found
    answer = llm_compact(request, provider)
    st.session_state.setdefault(RESULTS_KEY, {})[cache_key(request, provider)] = answer
    return answer
