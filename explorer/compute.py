"""Cached engine calls: the text analysis once per conversation, one run per parameter set.

A slider move changes only the parameters, so it reuses the conversation's analysis (words,
topic terms, pairwise similarity) and runs just the four cheap stages; going back to a setting
seen before costs nothing. Keys are the conversation's fingerprint and the parameters' JSON, so
the large contents are never hashed on a rerun.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from compactor import CompactionResult, InvalidRequest, TextAnalysis, analyse, run, validate
from compactor.errors import Problem
from explorer.conversation import Conversation


@dataclass(frozen=True)
class Outcome:
    """A run of the engine on the current request, or the request's schema errors."""

    request: dict[str, Any]
    result: CompactionResult | None = None
    response: dict[str, Any] | None = None
    errors: tuple[Problem, ...] = field(default_factory=tuple)


@st.cache_resource(max_entries=8, show_spinner=False)
def _analysis(key: str, _contents: tuple[str, ...], _roles: tuple[str, ...]) -> TextAnalysis:
    return analyse(_contents, _roles)


@st.cache_resource(max_entries=64, show_spinner=False)
def _outcome(key: str, params_key: str, _request: dict[str, Any]) -> Outcome:
    try:
        request = validate(_request)
    except InvalidRequest as error:
        return Outcome(_request, errors=error.problems)
    result = run(request, _analysis(key, request.contents, request.roles))
    return Outcome(_request, result, result.to_response())


def params_key(params: Mapping[str, Any]) -> str:
    """The parameters as canonical JSON (``1`` and ``1.0`` stay apart: the response echoes them)."""
    return json.dumps(dict(params), sort_keys=True)


def outcome(conversation: Conversation, params: Mapping[str, Any]) -> Outcome:
    """The engine's result for ``conversation`` with ``params`` (shared: never mutate it)."""
    return _outcome(conversation.key, params_key(params), conversation.request(params))
