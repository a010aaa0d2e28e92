"""The shared sidebar, drawn once a run by the entry (``app.py``): the sample picker, the parameter
form (A) and the current request. The page links are in Streamlit's navigation across the top, so
that the parameters are on screen without scrolling; the controls persist for the session, so a
page switch of any kind keeps them."""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from explorer.frames import snippets
from explorer.frames import tokens as token_frames
from explorer.session import keeping, state, workspace
from explorer.session.conversation import Conversation, display_request
from explorer.widgets import params


def _on_sample(samples: Mapping[str, Conversation]) -> None:
    """Load the conversation picked, with the parameters it had when the user left it (its own
    the first time); the one left keeps the parameters it had."""
    choice = st.session_state[state.SAMPLE_KEY]
    state.remember_params()
    if choice in samples:
        state.load(samples[choice], state.remembered_params(samples[choice]))
    elif choice.startswith(state.CHOICE_PREFIX):
        found: list[str] = []
        conv = workspace.get(choice.removeprefix(state.CHOICE_PREFIX), found)
        if conv is not None:
            state.load(conv, state.remembered_params(conv), stored=True)
        else:  # gone or damaged since the list was drawn: stay on what is loaded, and say so
            st.session_state[state.SAMPLE_KEY] = state.choice_of(state.conversation())
            keeping.say(found or ["That conversation is no longer in this server's workspace."])


def options(
    samples: Mapping[str, Conversation], conv: Conversation, entries: list[workspace.Entry]
) -> tuple[list[str], dict[str, str]]:
    """The picker's values (samples, the loaded conversation, the workspace's others) and the
    label of each that is not a sample (the explorer's own label: file names made safe)."""
    values = list(samples)
    labels: dict[str, str] = {}
    if conv.sample is None:
        values.append(state.YOURS)
        labels[state.YOURS] = f"Loaded: {conv.label}"
    for entry in entries:
        if entry.key == conv.key:
            continue
        value = f"{state.CHOICE_PREFIX}{entry.key}"
        values.append(value)
        count = f" ({entry.messages:,} messages)" if entry.messages is not None else ""
        labels[value] = f"Workspace: {entry.label}{count}"
    return values, labels


def unkept(conv: Conversation) -> None:
    """The loaded conversation could not be kept: say so, and offer it as a download."""
    st.warning(
        f"{len(conv.messages):,} messages, {conv.contents_chars:,} characters. **Not kept** in "
        "this server's workspace, so a link to this view will not reopen it. Download it to "
        "keep it (load the file again to see it later).",
        icon=":material/cloud_off:",
    )
    st.download_button(
        "Download this conversation",
        snippets.request_json(conv.request(state.params())),
        file_name=snippets.download_name(conv, "request"),
        mime="application/json",
        key="download_unkept",
        icon=":material/download:",
        width="stretch",
    )


def _slider_to_box() -> None:
    st.session_state[state.PARAM_KEYS["budget_chars"]] = st.session_state[state.BUDGET_SLIDER_KEY]


def _reset() -> None:
    state.set_params(state.conversation().params)


def draw(samples: Mapping[str, Conversation], descriptions: Mapping[str, tuple[str, str]]) -> None:
    conv = state.conversation()
    keys = state.PARAM_KEYS
    with st.sidebar:
        st.subheader("Conversation")
        found: list[str] = []
        values, labels = options(samples, conv, workspace.recent(notices=found))
        keeping.say(found)
        st.selectbox(
            "Sample",
            values,
            key=state.SAMPLE_KEY,
            persist_state="session",
            format_func=lambda s: descriptions[s][0] if s in samples else labels.get(s, s),
            on_change=_on_sample,
            args=(samples,),
            help="A sample conversation with its published parameters, or one loaded before "
            "(the workspace keeps every conversation loaded on this server).",
        )
        if conv.sample is not None:
            st.caption(descriptions[conv.sample][1])
        elif keeping.kept(conv):
            st.caption(
                f"{len(conv.messages):,} messages, {conv.contents_chars:,} characters. Kept in "
                "this server's workspace: a link to this view reopens it here (on another "
                "server, download the request on the Output page to share it)."
            )
        else:
            unkept(conv)

        st.subheader("Parameters")
        budget = st.session_state[keys["budget_chars"]]
        if budget > conv.budget_high:  # a budget of the agent mode, for a conversation within
            budget = conv.budget_high  # the contract (a link, or the one loaded before)
            st.session_state[keys["budget_chars"]] = budget
            st.caption(f"budget_chars was over this conversation's maximum; set to {budget:,}.")
        if budget >= conv.contents_chars:
            st.caption(
                f"The whole conversation fits: {conv.contents_chars:,} characters within a "
                f"budget of {budget:,}, so nothing is dropped (dedupe and trim still act)."
            )
        low, high, step = state.budget_slider_range(conv.contents_chars, budget, conv.budget_high)
        st.session_state[state.BUDGET_SLIDER_KEY] = budget

        def slider() -> None:
            st.slider(
                "budget_chars",
                low,
                high,
                step=step,
                format=params.THOUSANDS,
                key=state.BUDGET_SLIDER_KEY,
                persist_state="session",
                on_change=_slider_to_box,
                help=params.HELP["budget_chars"] + f" The slider spans this conversation "
                f"({high:,}): at its top everything fits. The box below takes up to "
                f"{conv.budget_high:,}; a budget over the conversation's size keeps what "
                "the top keeps.",
            )

        # kept through every page switch, st.switch_page's too (which sends no widget values)
        params.draw(keys, before_budget=slider, persist="session", budget_high=conv.budget_high)
        st.button(
            "Reset parameters",
            key="reset_params",
            on_click=_reset,
            icon=":material/restart_alt:",
            help="Back to the parameters this conversation came with.",
            width="stretch",
        )
        count_choice()
        with st.expander("Current request as JSON"):
            shown, note = display_request(conv.request(state.params()))
            if note:
                st.caption(note)
            st.json(shown, expanded=True)
        st.caption("The address bar holds this exact view: copy it to share the link.")


def count_choice() -> None:
    """Characters, or tokens of an encoding, beside the characters on every page that shows
    them; without the tokens extra, how to install it instead."""
    missing = token_frames.unavailable_note()
    if missing is not None:
        st.session_state[state.TOKENS_KEY] = token_frames.CHARACTERS
    st.selectbox(
        "Count in",
        token_frames.CHOICES,
        key=state.TOKENS_KEY,
        persist_state="session",
        disabled=missing is not None,
        help="Characters, or real tokens of an OpenAI encoding (o200k_base: GPT-4o and later; "
        "cl100k_base: GPT-4 and GPT-3.5), shown beside the characters with the "
        "characters / 4 estimate and its error. The budget stays in characters.",
    )
    if missing is not None:
        st.caption(
            "Token counts need the optional tokens extra. From the project folder, install it "
            "with everything else the explorer uses, and restart:"
        )
        st.code(token_frames.SETUP_COMMAND, language="bash")


def notices() -> None:
    """Warnings about values in the link that could not be used, and what the workspace could
    not do (shown until dismissed)."""
    found = st.session_state.get(state.NOTICES_KEY, ())
    stored = keeping.shown()
    if not found and not stored:
        return
    for notice in found:
        st.warning(notice, icon=":material/link_off:")
    for notice in stored:
        st.warning(notice, icon=":material/database:")
    if st.button("Dismiss", key="dismiss_notices"):
        st.session_state[state.NOTICES_KEY] = ()
        keeping.dismiss()
        st.rerun()
