"""Drawing helpers of the tuning pages: the B parameters of A/B, the walkthrough's step and its
presentation mode, the watched phrases (all in session state, so they outlive a page switch).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from compactor.analyses import parse_phrases
from explorer.session import state
from explorer.session.conversation import Conversation
from explorer.session.keys import B_FOR_KEY, B_KEYS, PHRASES_KEY, STEP_KEY, STEPS
from explorer.widgets import params

# --- A/B: the B parameter set ---------------------------------------------------------------


def set_b(values: Mapping[str, Any]) -> None:
    """Put parameters into the B controls (before they are drawn, or from a callback)."""
    state.write_params(B_KEYS, values)


def b_params() -> dict[str, Any]:
    """The parameters the B controls hold now."""
    return state.read_params(B_KEYS)


def start_b(conversation: Conversation, a: Mapping[str, Any]) -> None:
    """B starts as a copy of A, and again whenever another conversation is loaded."""
    missing = any(key not in st.session_state for key in B_KEYS.values())
    if missing or st.session_state.get(B_FOR_KEY) != conversation.key:
        set_b(a)
        st.session_state[B_FOR_KEY] = conversation.key


def _copy_a_to_b() -> None:
    set_b(state.params())


def _b_to_sidebar() -> None:
    state.set_params(b_params())


def b_controls() -> None:
    """The B parameter set: the sidebar's five controls with the schema's ranges."""
    slots = st.columns([1.2, 1, 1.3, 1, 1], gap="medium")
    high = state.conversation().budget_high  # 2,000,000 for a whole session
    budget_key = B_KEYS["budget_chars"]
    if st.session_state.get(budget_key, 0) > high:
        st.session_state[budget_key] = high
    params.draw(B_KEYS, prefix="B ", slots=slots, persist="session", budget_high=high)
    left, right, _ = st.columns([1, 1, 2])
    left.button(
        "Copy A into B",
        key="ab_copy_a",
        on_click=_copy_a_to_b,
        icon=":material/content_copy:",
        help="Set B to the sidebar's parameters.",
        width="stretch",
    )
    right.button(
        "Use B in the sidebar",
        key="ab_use_b",
        on_click=_b_to_sidebar,
        icon=":material/tune:",
        help="Make B the current parameters (A) of every page.",
        width="stretch",
    )


# --- walkthrough: the step shown ------------------------------------------------------------


def _move_step(by: int) -> None:
    current = st.session_state.get(STEP_KEY) or STEPS[0]
    st.session_state[STEP_KEY] = min(max(current + by, STEPS[0]), STEPS[-1])


def step_picker(labels: Mapping[int, str]) -> int:
    """Back and next buttons around the four steps; the step is kept for the whole session."""
    if st.session_state.get(STEP_KEY) not in STEPS:
        st.session_state[STEP_KEY] = STEPS[0]
    back, picker, forward = st.columns([1, 4, 1], vertical_alignment="bottom")
    back.button(
        "Back",
        key="walkthrough_back",
        on_click=_move_step,
        args=(-1,),
        icon=":material/arrow_back:",
        disabled=st.session_state[STEP_KEY] == STEPS[0],
        width="stretch",
    )
    with picker:
        step = st.segmented_control(
            "Step",
            list(STEPS),
            format_func=labels.get,
            key=STEP_KEY,
            required=True,
            persist_state="session",
            width="stretch",
        )
    forward.button(
        "Next",
        key="walkthrough_next",
        on_click=_move_step,
        args=(1,),
        icon=":material/arrow_forward:",
        disabled=st.session_state[STEP_KEY] == STEPS[-1],
        width="stretch",
    )
    return int(step or STEPS[0])


#: The presentation mode's toggle, and the key of the page's container that it enlarges
#: (Streamlit gives a keyed container the CSS class ``st-key-<key>``, so the large type stays
#: inside it and the sidebar keeps its size).
PRESENTING_KEY = "walkthrough_presenting"
STAGE_KEY = "walkthrough_stage"
_STAGE = f".st-key-{STAGE_KEY}"
#: Large type for everything in the stage: text, captions, labels, buttons, metrics, tables,
#: the highlighted texts. Streamlit's own sizes are set on these elements (not inherited), so
#: each is named; the explorer's headings set theirs inline. The sidebar is folded away while
#: the mode is on (the switch, on the page, brings it back).
PRESENTATION_CSS = f"""<style>
{_STAGE} p, {_STAGE} li, {_STAGE} label, {_STAGE} button,
{_STAGE} [data-testid="stCaptionContainer"], {_STAGE} [data-testid="stMetricLabel"] p,
{_STAGE} [data-testid="stTable"] th, {_STAGE} [data-testid="stTable"] td,
{_STAGE} [data-testid="stAlert"] p, {_STAGE} [data-testid="stHtml"],
{_STAGE} [data-testid="stText"], {_STAGE} input {{
  font-size: 1.5rem !important; line-height: 1.45 !important;
}}
{_STAGE} [data-testid="stMetricValue"] p {{
  font-size: 3.4rem !important; line-height: 1.2 !important;
}}
{_STAGE} [data-testid="stMetricDelta"] p {{ font-size: 1.35rem !important; }}
{_STAGE} h3 {{ font-size: 2.3rem !important; }}
{_STAGE} [data-testid="stTable"] td, {_STAGE} [data-testid="stTable"] th {{
  padding: 0.5rem 0.75rem !important;
}}
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"] {{ display: none !important; }}
</style>"""


def presentation_toggle() -> bool:
    """The presentation mode switch (kept for the session); on, it draws the large type."""
    on = st.toggle(
        "Presentation mode",
        key=PRESENTING_KEY,
        persist_state="session",
        help="Large type on the whole page, tables at their full length and the sidebar folded "
        "away, for a projector.",
    )
    if on:
        st.html(PRESENTATION_CSS)
    return on


# --- watched facts: the phrases -------------------------------------------------------------

#: At most this many phrases are watched (each is a search of the whole history).
MAX_PHRASES = 50


def watched_phrases() -> list[str]:
    """The phrases Watched facts holds (at most :data:`MAX_PHRASES`): anchors of kind watched."""
    return parse_phrases(st.session_state.get(PHRASES_KEY) or "")[:MAX_PHRASES]
