"""Cached outcome figures (SPEC part D), in the style of :mod:`explorer.session.cache`: the needs
once per conversation and watched phrases (they depend on the contents alone), the continuation
check per run and k, so moving a parameter or k pays for the past's stages only, and going back
costs nothing. A check and probe outcomes hold both forms of the baselines (protected first):
a view picks one with ``in_form``, at no cost.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st

from compactor import CompactionResult
from compactor.analyses.outcomes import (
    PROTECTED,
    ContinuationCheck,
    CurveStep,
    Needs,
    Probe,
    ProbeOutcomes,
    ReplayMisses,
    continuation_check,
    find_needs,
    probe_curve,
    probe_outcomes,
    replay_misses,
)
from compactor.analyses.replay import Replay
from compactor.model import Request
from compactor.strategies import StrategyComparison, compare_strategies
from explorer.session.cache import run_key
from explorer.session.conversation import Conversation


@st.cache_resource(max_entries=8, show_spinner=False)
def _needs(key: str, watched: tuple[str, ...], _contents, _roles) -> Needs:
    return find_needs(_contents, _roles, watched)


def needs(conversation: Conversation, request: Request, watched: Sequence[str] = ()) -> Needs:
    """The conversation's needs (``request`` holds its messages): found once per conversation
    and watched phrases."""
    return _needs(conversation.key, tuple(watched), request.contents, request.roles)


@st.cache_resource(max_entries=32, show_spinner="Checking what the next messages need...")
def _continuation(
    key: str, future: int, watched: tuple[str, ...], _request: Request, _needs: Needs
) -> ContinuationCheck:
    return continuation_check(_request, future=future, watched=watched, needs=_needs)


def continuation(
    conversation: Conversation, result: CompactionResult, future: int, watched: Sequence[str] = ()
) -> ContinuationCheck:
    """The continuation check of ``result``'s request, its last ``future`` messages the future
    (keyed by conversation, parameters, k and phrases; the needs are shared across them)."""
    found = needs(conversation, result.request, watched)
    key = run_key(conversation, result)
    return _continuation(key, future, tuple(watched), result.request, found)


@st.cache_resource(max_entries=16, show_spinner=False)
def _probes(key: str, probes_key: str, _probes, _result: CompactionResult) -> ProbeOutcomes:
    return probe_outcomes(_probes, _result)


def probes(
    conversation: Conversation, result: CompactionResult, probes: Sequence[Probe]
) -> ProbeOutcomes:
    """Probe recall of ``result`` beside keep-last and random at its budget."""
    probes_key = json.dumps([p.to_dict() for p in probes], sort_keys=True)
    return _probes(run_key(conversation, result), probes_key, tuple(probes), result)


@st.cache_resource(max_entries=16, show_spinner=False)
def _probe_curve(
    key: str, probes_key: str, kind: str, form: str, _probes, _result: CompactionResult
) -> tuple[CurveStep, ...]:
    return probe_curve(_probes, _result, kind, form=form)


def probes_curve(
    conversation: Conversation,
    result: CompactionResult,
    probes: Sequence[Probe],
    kind: str,
    form: str = PROTECTED,
) -> tuple[CurveStep, ...]:
    """Probe recall of ``kind`` at every budget under ``result``'s setting and the baselines
    (in ``form``)."""
    probes_key = json.dumps([p.to_dict() for p in probes], sort_keys=True)
    return _probe_curve(
        run_key(conversation, result), probes_key, kind, form, tuple(probes), result
    )


@st.cache_resource(max_entries=16, show_spinner="Running the strategies on the past...")
def _past_strategies(
    key: str,
    future: int,
    keep_last_messages: int | None,
    drop_tool_parts: bool,
    trim_encoding: str | None,
    params: str,
    _past: CompactionResult,
) -> StrategyComparison:
    return compare_strategies(
        _past.request,
        keep_last_messages=keep_last_messages,
        drop_tool_parts=drop_tool_parts,
        analysis=_past.analysis,
        trim_encoding=trim_encoding,
        params=json.loads(params),
    )


def past_strategies(
    conversation: Conversation,
    result: CompactionResult,
    check: ContinuationCheck,
    keep_last_messages: int | None = None,
    drop_tool_parts: bool = False,
    trim_encoding: str | None = None,
    params: Mapping[str, Mapping[str, Any]] | None = None,
) -> StrategyComparison | None:
    """Every strategy of the lineup on the past of ``check`` with the same options as the
    Strategies page, strategies' own ``params`` by name (None when the check gave no figure)."""
    if check.result is None:
        return None
    key = run_key(conversation, result)
    shown = json.dumps(dict(params or {}), sort_keys=True)
    return _past_strategies(
        key, check.future, keep_last_messages, drop_tool_parts, trim_encoding, shown, check.result
    )


#: Replay misses by the replay they read: its id, with a weak reference that proves it is still
#: the same replay (the replays are cached; hashing one would read its whole history).
_MISSES: dict[int, tuple[weakref.ref, ReplayMisses]] = {}


def misses(
    conversation: Conversation, replay: Replay, request: Request, watched: Sequence[str] = ()
) -> ReplayMisses:
    """The misses of ``replay``, a replay of ``request`` (the conversation with the page's
    parameters), against the conversation's needs."""
    held = _MISSES.get(id(replay))
    if held is not None and held[0]() is replay:
        return held[1]
    found = replay_misses(replay, needs(conversation, request, watched))
    for gone in [k for k, (ref, _) in _MISSES.items() if ref() is None]:
        del _MISSES[gone]
    _MISSES[id(replay)] = (weakref.ref(replay), found)
    return found
