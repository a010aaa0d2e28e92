"""The Replay page's controls: the two loops side by side (the registry's strategies
among them, with their own parameters), the seed trim's options, the drift's facts, and the
seeds/003 loop around an LLM compact, which runs on a button."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from compactor.errors import ProblemError
from compactor.strategies import STRATEGIES, LLMCompact
from compactor.text import estimate_tokens
from explorer.replay import frames, replay_cache
from explorer.replay.runs import DROP_OLDEST_LOOP, LOOPS, REGISTRY_LOOPS, SEED_LOOP, ReplayRun
from explorer.session import llm
from explorer.session.conversation import Conversation
from explorer.widgets import common, strategy_form

A_KEY, B_KEY = "replay_loop_a", "replay_loop_b"
TOKENS_HELP = (
    "Tokens by the estimate ceil(characters / 4) per message; it starts at the "
    "sidebar's budget in tokens and follows it until you set another."
)
NONE = "(none)"
TRIM_KEEP_KEY = "replay_trim_keep_last"
TRIM_TOKENS_KEY = "replay_trim_tokens"
TRIM_TOOLS_KEY = "replay_trim_tools"
ONLY_WATCHED_KEY = "replay_only_watched"
LOOP_LIMIT_KEY = "replay_loop_limit"
#: The budget in tokens each token input last followed (input key -> tokens).
FOLLOWED_KEY = "replay_followed_budget"
#: The (conversation, parameters) the user asked to replay: a conversation longer than
#: AUTO_REPLAY_MESSAGES replays on request only (a turn per message, each a compaction).
GO_KEY = "replay_go"
AUTO_REPLAY_MESSAGES = 250


@dataclass(frozen=True)
class Choice:
    """What the controls ask for: the loops to replay, the trim's options, the drift's facts."""

    loops: tuple[str, ...]
    trim: dict[str, Any]
    only_watched: bool
    #: A registry strategy's own parameters by its name (none: the lineup's).
    own: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: The sidebar's budget in tokens (``ceil(budget_chars / 4)``), which token limits follow.
    budget_tokens: int = 0


def follow_budget(key: str, tokens: int) -> None:
    """Set the token input ``key`` to ``tokens`` (the sidebar's budget in tokens) unless the
    user has set it to something else: an input left at the budget follows the budget."""
    followed = st.session_state.setdefault(FOLLOWED_KEY, {})
    if key not in st.session_state or st.session_state[key] == followed.get(key):
        st.session_state[key] = tokens
    followed[key] = tokens


def _loop_available() -> bool:
    registry, problems = llm.providers()
    return not problems and len(registry) > 0


def choose(watched: list[str], budget_tokens: int) -> Choice:
    """Draw the loop pickers (A, and B or none) and the options they need (the trim's
    token limit following ``budget_tokens``, the sidebar's budget in tokens)."""
    options = [*LOOPS, *((SEED_LOOP,) if _loop_available() else ())]
    left, right = st.columns(2)
    a = left.selectbox("Loop A", options, index=0, key=A_KEY)
    b = right.selectbox("Loop B (beside A)", [NONE, *options], index=3, key=B_KEY)
    loops = tuple(dict.fromkeys(s for s in (a, b) if s != NONE))
    trim: dict[str, Any] = {}
    if DROP_OLDEST_LOOP in loops:
        with st.container(border=True):
            st.caption("drop-oldest's own parameters (applied on every turn)")
            cols = st.columns(3)
            keep = cols[0].number_input("keepLastMessages", 0, 200, 10, key=TRIM_KEEP_KEY)
            follow_budget(TRIM_TOKENS_KEY, budget_tokens)
            tokens = cols[1].number_input(
                "maxTokensEstimate (empty: none)",
                1,
                None,
                None,
                key=TRIM_TOKENS_KEY,
                help=f"{TOKENS_HELP} Empty: no token limit, keepLastMessages only.",
            )
            tools = cols[2].toggle("dropToolParts", key=TRIM_TOOLS_KEY)
        trim = {"keep_last_messages": int(keep), "drop_tool_parts": bool(tools)}
        if tokens is not None:
            trim["max_tokens_estimate"] = int(tokens)
    own = {}
    for loop in loops:
        if loop in REGISTRY_LOOPS:
            params = registry_options(loop)
            if params is not None:
                own[loop] = params
    only = False
    if watched:
        only = st.toggle(
            "Drift of the watched facts only (else every anchor, watched facts included)",
            key=ONLY_WATCHED_KEY,
        )
    return Choice(loops, trim, only, own, budget_tokens)


def registry_options(name: str) -> dict[str, Any] | None:
    """A registry strategy's own parameters for its replay (None: invalid, or none to set),
    and what its clearing does to the prompt cache."""
    strategy = STRATEGIES[name]
    with st.container(border=True):
        st.caption(f"{name}: {strategy.title} (applied on every turn). {strategy.budget}")
        if strategy.replaces:
            st.caption(
                "It replaces earlier content with placeholders: a turn that clears a message "
                "sent before changes the prefix, so the provider's prompt cache is invalidated "
                "from that message on (the cache-reusable share drops)."
            )
        if not strategy.parameters:
            return None
        return strategy_form.parameter_inputs(strategy, "replay_own")


def loop_limit(budget_tokens: int) -> int:
    """The seeds/003 loop's token limit (the seed's own is 20,000): the sidebar's budget in
    tokens until the user sets another."""
    follow_budget(LOOP_LIMIT_KEY, budget_tokens)
    limit = st.number_input(
        "token limit (empty: the budget's)",
        1,
        None,
        None,
        key=LOOP_LIMIT_KEY,
        help=f"{TOKENS_HELP} The published example uses 20,000 (about 80,000 characters).",
    )
    return int(limit) if limit is not None else budget_tokens


def seed_loop(
    conversation: Conversation, params: dict[str, Any], choice: Choice, watched
) -> tuple[ReplayRun | None, int]:
    """The seeds/003 loop around the configured provider's compact: its run if this session
    has one for these loops, after a button press runs it (one call per turn over the
    limit), None until then; and its token limit."""
    registry, _ = llm.providers()
    with st.container(border=True):
        st.caption(
            "Summarise when over the limit: while the history's estimate (ceil(chars / 4) per "
            "message) is at "
            "most the limit, send it; else compact it through the provider; on a failure, send "
            "the last ten messages."
        )
        cols = st.columns(3)
        name = cols[0].selectbox("Provider", list(registry), key="replay_loop_provider")
        provider = registry[name]
        model = cols[1].text_input(
            "model", value=provider.config.model or "", key="replay_loop_model"
        )
        with cols[2]:
            limit = loop_limit(choice.budget_tokens)
    key = replay_cache.loop_key(conversation, name, model, int(limit), watched)
    done = replay_cache.stored_loop(key)
    pressed = st.button(
        "Run the loop through the provider",
        key="replay_loop_run",
        icon=":material/smart_toy:",
        help="Each turn over the limit is one call to the provider (it may cost money).",
        disabled=done is not None or not model.strip(),
    )
    if pressed:
        bar = st.progress(0.0, text="Replaying through the provider...")

        def on_turn(t: int, turns: int) -> None:
            bar.progress(t / max(turns, 1), text=f"Turn {t:,} of {turns:,}")

        try:
            done = replay_cache.run_loop(
                key,
                conversation,
                params,
                LLMCompact(provider, model),
                int(limit),
                watched,
                choice.only_watched,
                on_turn,
            )
        except ProblemError as error:
            common.show_problems("The loop did not run.", error.problems)
            return None, limit
        bar.empty()
    if done is None:
        st.caption("Nothing has been sent to the provider for this loop yet.")
    return done, limit


def _go(wanted: tuple[str, str]) -> None:
    st.session_state[GO_KEY] = wanted


def asked(conversation: Conversation, params: dict[str, Any]) -> bool:
    """True when the replay may run now: a conversation of at most AUTO_REPLAY_MESSAGES, or
    a longer one the user asked to replay with these parameters (a button, said why)."""
    count = len(conversation.messages)
    wanted = (conversation.key, replay_cache.params_key(params))
    if count <= AUTO_REPLAY_MESSAGES or st.session_state.get(GO_KEY) == wanted:
        return True
    st.info(
        f"This conversation has {count:,} messages: a replay is {count:,} turns, each a "
        "compaction of the history so far, and takes a while (about a minute a loop for 1,000 "
        "messages on a 2-core machine). It runs when you ask, with the sidebar's parameters, "
        "and is then kept for them.",
        icon=":material/hourglass_top:",
    )
    st.button(
        f"Replay all {count:,} turns",
        key="replay_go_button",
        on_click=_go,
        args=(wanted,),
        type="primary",
        icon=":material/replay:",
    )
    return False


def runs(
    conversation: Conversation, params: dict[str, Any], watched: list[str]
) -> list[ReplayRun] | None:
    """The replays the controls ask for (the LLM loop only once it has run), and a warning
    when the loops chosen do not work to the same budget; None while a long conversation waits
    for the user to ask (:func:`asked`)."""
    choice = choose(watched, estimate_tokens(params["budget_chars"]))
    if not asked(conversation, params):
        return None
    out = []
    budgets = []
    for loop in choice.loops:
        if loop == SEED_LOOP:
            done, limit = seed_loop(conversation, params, choice, watched)
            limits = {"token_limit": limit}
            budgets.append(frames.budget_of(loop, params["budget_chars"], limits))
            if done is not None:
                out.append(done)
            continue
        options = choice.trim if loop == DROP_OLDEST_LOOP else choice.own.get(loop, {})
        budgets.append(frames.budget_of(loop, params["budget_chars"], options))
        out.append(
            replay_cache.replayed(conversation, params, loop, options, watched, choice.only_watched)
        )
    note = frames.unequal_budgets(budgets)
    if note is not None:
        st.warning(note, icon=":material/balance:")
    return out
