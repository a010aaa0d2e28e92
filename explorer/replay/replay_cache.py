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
from collections import OrderedDict
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


#: Replays kept for the whole server (the least recently read dropped first).
REPLAYS_KEPT = 24


@st.cache_resource(max_entries=1, show_spinner=False)
def _replays() -> tuple[OrderedDict[tuple, ReplayRun], threading.Lock]:
    """The replays kept, by conversation, parameters, loop and drift options, and the lock
    that guards the store (not the replays: two sessions may replay the same loop at once)."""
    return OrderedDict(), threading.Lock()


def turn_progress(loop: str, show: Callable[[float, str], None]) -> Callable[[int, int], None]:
    """A replay's ``on_turn`` that calls ``show(fraction, text)`` once per whole percent of
    the turns (a hundred updates at most, not one a turn), the text naming the loop and the
    turn."""
    shown = -1

    def on_turn(t: int, turns: int) -> None:
        nonlocal shown
        percent = 100 * t // max(turns, 1)
        if percent != shown:
            shown = percent
            show(percent / 100, f"Replaying {loop}: turn {t:,} of {turns:,}")

    return on_turn


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
    ``only_watched``). Shared: never mutate it. The request must be valid.

    A loop not kept yet is replayed here, turn by turn, under a progress bar that names the
    loop and the turn (a whole session is a thousand turns: about a minute); the bar is gone
    once it is done. The replay runs outside Streamlit's cache, so nothing of the bar is
    recorded and drawn again when a kept replay is read."""
    key = (
        conversation.key,
        params_key(params),
        loop,
        json.dumps(dict(options or {}), sort_keys=True),
        tuple(watched),
        only_watched,
    )
    store, guard = _replays()
    with guard:
        if key in store:
            store.move_to_end(key)
            return store[key]
    bar = st.progress(0.0, text=f"Replaying {loop}...")
    on_turn = turn_progress(loop, lambda fraction, text: bar.progress(fraction, text=text))
    try:
        request = validate(conversation.request(params), limits=AUTO_LIMITS)
        facts, index = _facts(conversation.key, tuple(watched), only_watched, request.contents)
        analysis, lock = _analysis(conversation.key)
        with lock:  # one replay at a time uses the conversation's analysis
            strategy, policy = strategy_of(loop, request, json.loads(key[3]), analysis)
            done = replay_loop(loop, request, strategy, policy, facts, index, on_turn)
    finally:
        bar.empty()
    with guard:
        store[key] = done
        while len(store) > REPLAYS_KEPT:
            store.popitem(last=False)
    return done


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
