"""Cached replays for the Replay page: one replay per conversation, parameters and loop,
and the conversation's anchors found once, so moving the turn slider or clicking a loss costs
nothing and a parameter move replays only the loops it changes.

A loop is a strategy and a policy (:data:`explorer.replay.runs.LOOPS`); the seeds/003
loop around an LLM compact is offered only when a provider is configured, and runs on a button
(each turn is a paid call).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import streamlit as st

from compactor import validate
from compactor.analyses.anchors import find_anchors
from compactor.analyses.replay import (
    ALWAYS,
    Fact,
    FactIndex,
    ProviderCompact,
    SeedLoop,
)
from compactor.contract import AUTO_LIMITS
from compactor.text import IncrementalAnalysis, history_tokens
from explorer.replay.runs import (
    SEED_LOOP,
    ReplayRun,
    replay_loop,
    strategy_of,
)
from explorer.session.cache import params_key
from explorer.session.conversation import Conversation


@st.cache_resource(max_entries=8, show_spinner=False)
def _facts(key: str, watched: tuple[str, ...], only_watched: bool, _contents: tuple[str, ...]):
    found = find_anchors(_contents, watched)
    if only_watched:
        found = tuple(a for a in found if a.kind == "watched")
    facts = tuple(Fact(a.text, a.occurrences) for a in found)
    return facts, FactIndex([(f.text, f.occurrences) for f in facts])


@st.cache_resource(max_entries=4, show_spinner=False)
def _analysis(key: str) -> tuple[IncrementalAnalysis, threading.Lock]:
    """The conversation's words, similarities and cut-short words, kept across parameter moves
    (they depend on the contents only), with the lock its users take turns on."""
    return IncrementalAnalysis(), threading.Lock()


@st.cache_resource(max_entries=24, show_spinner="Replaying the conversation turn by turn...")
def _replay(
    key: str,
    params: str,
    loop: str,
    options: str,
    watched: tuple[str, ...],
    only_watched: bool,
    _request: dict[str, Any],
) -> ReplayRun:
    request = validate(_request, limits=AUTO_LIMITS)
    facts, index = _facts(key, watched, only_watched, request.contents)
    analysis, lock = _analysis(key)
    with lock:  # one replay at a time uses the conversation's analysis
        strategy, policy = strategy_of(loop, request, json.loads(options), analysis)
        return replay_loop(loop, request, strategy, policy, facts, index)


def replayed(
    conversation: Conversation,
    params: Mapping[str, Any],
    loop: str,
    options: Mapping[str, Any] | None = None,
    watched: Sequence[str] = (),
    only_watched: bool = False,
) -> ReplayRun:
    """The conversation replayed with ``loop`` (one of :data:`LOOPS`; ``options`` are the
    seed trim's), drift counted on its anchors and ``watched`` phrases (only the phrases when
    ``only_watched``). Shared: never mutate it. The request must be valid."""
    return _replay(
        conversation.key,
        params_key(params),
        loop,
        json.dumps(dict(options or {}), sort_keys=True),
        tuple(watched),
        only_watched,
        conversation.request(params),
    )


#: Contents counted per encoding, kept for the whole server up to this many (then started again).
MAX_COUNTED = 50_000


@st.cache_resource(max_entries=2, show_spinner=False)
def _counted(encoding: str) -> dict[str, int]:
    return {}


def tokens_sent(run: ReplayRun, encoding: str) -> list[int]:
    """The tokens in ``encoding`` of what the model is sent at each turn (turn 1 first), each
    distinct content tokenized once for every replay the server draws."""
    counted = _counted(encoding)
    if len(counted) > MAX_COUNTED:
        counted.clear()
    return history_tokens(run.replay.histories[1:], encoding, counted)


LOOP_RESULTS_KEY = "replay_loop_results"


def loop_key(
    conversation: Conversation, provider: str, model: str, token_limit: int, watched: Sequence[str]
) -> str:
    return json.dumps([conversation.key, provider, model, token_limit, list(watched)])


def stored_loop(key: str) -> ReplayRun | None:
    """The seeds/003 loop this session already ran with these loops, if any."""
    return st.session_state.get(LOOP_RESULTS_KEY, {}).get(key)


def run_loop(
    key: str,
    conversation: Conversation,
    params: Mapping[str, Any],
    compact: Any,
    token_limit: int,
    watched: Sequence[str],
    only_watched: bool,
    on_turn: Callable[[int, int], None] | None = None,
) -> ReplayRun:
    """Replay the seeds/003 loop around ``compact`` (an LLM compact) and keep it for the
    session; raises what the provider raises only through the loop's fallback (never)."""
    request = validate(conversation.request(params), limits=AUTO_LIMITS)
    facts, index = _facts(conversation.key, tuple(watched), only_watched, request.contents)
    strategy = SeedLoop(ProviderCompact(compact), token_limit=token_limit)
    done = replay_loop(SEED_LOOP, request, strategy, ALWAYS, facts, index, on_turn)
    st.session_state.setdefault(LOOP_RESULTS_KEY, {})[key] = done
    return done
