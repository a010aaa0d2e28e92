"""The shared sidebar: sample picker, parameter controls (the schema's ranges), the request."""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from compactor.contract import LIMITS, RANGES, ROLES
from explorer import state
from explorer.conversation import Conversation, display_request

_HELP = {
    "budget_chars": "Character budget for the sum of all returned message contents.",
    "keep_last_n": "How many of the most recent messages are protected.",
    "keep_roles": "Roles whose messages are protected.",
    "duplicate_threshold": "Word-overlap ratio from which a later message of the same role "
    "counts as a near-duplicate of an earlier one.",
    "max_message_chars": "Length to which unprotected survivors are trimmed in the trim stage.",
}


#: A slider format with thousands separators (120,000 rather than 120000).
THOUSANDS = "%,d"


def _on_sample(samples: Mapping[str, Conversation]) -> None:
    slug = st.session_state[state.SAMPLE_KEY]
    if slug in samples:
        state.load(samples[slug])


def _slider_to_box() -> None:
    st.session_state[state.PARAM_KEYS["budget_chars"]] = st.session_state[state.BUDGET_SLIDER_KEY]


def _reset() -> None:
    state.set_params(state.conversation().params)


def threshold_format(value: float) -> str:
    """A slider format that shows every decimal the threshold has (at least two)."""
    decimals = len(repr(float(value)).split(".")[1].rstrip("0")) if "e" not in repr(value) else 6
    return f"%.{min(6, max(2, decimals))}f"


def draw(samples: Mapping[str, Conversation], descriptions: Mapping[str, tuple[str, str]]) -> None:
    conv = state.conversation()
    keys = state.PARAM_KEYS
    with st.sidebar:
        st.subheader("Conversation")
        options = list(samples)
        if conv.sample is None:
            options.append(state.YOURS)
        st.selectbox(
            "Sample",
            options,
            key=state.SAMPLE_KEY,
            format_func=lambda s: descriptions[s][0] if s in samples else f"Yours: {conv.label}",
            on_change=_on_sample,
            args=(samples,),
            help="A sample conversation, with its published parameters.",
        )
        if conv.sample is not None:
            st.caption(descriptions[conv.sample][1])
        else:
            st.caption(
                f"{len(conv.messages):,} messages, {conv.contents_chars:,} characters. A link "
                "carries the parameters but not this conversation: download the request on "
                "the Output page to share it."
            )

        st.subheader("Parameters")
        budget = st.session_state[keys["budget_chars"]]
        low, high, step = state.budget_slider_range(conv.contents_chars, budget)
        st.session_state[state.BUDGET_SLIDER_KEY] = budget
        st.slider(
            "budget_chars",
            low,
            high,
            step=step,
            format=THOUSANDS,
            key=state.BUDGET_SLIDER_KEY,
            on_change=_slider_to_box,
            help=_HELP["budget_chars"] + f" The slider spans this conversation ({high:,}); "
            "the box below takes any value the schema allows.",
        )
        b_low, b_high = (int(v) for v in RANGES["budget_chars"])
        st.number_input(
            f"budget_chars, exact ({b_low:,} to {b_high:,})",
            min_value=b_low,
            max_value=b_high,
            step=10,
            key=keys["budget_chars"],
        )
        k_low, k_high = (int(v) for v in RANGES["keep_last_n"])
        st.slider(
            "keep_last_n", k_low, k_high, step=1, key=keys["keep_last_n"], help=_HELP["keep_last_n"]
        )
        st.multiselect(
            "keep_roles",
            list(ROLES),
            key=keys["keep_roles"],
            max_selections=LIMITS["max_keep_roles"],
            help=_HELP["keep_roles"],
        )
        t_low, t_high = (float(v) for v in RANGES["duplicate_threshold"])
        threshold = st.session_state[keys["duplicate_threshold"]]
        st.slider(
            "duplicate_threshold",
            t_low,
            t_high,
            step=0.01,
            format=threshold_format(threshold),
            key=keys["duplicate_threshold"],
            help=_HELP["duplicate_threshold"],
        )
        m_low, m_high = (int(v) for v in RANGES["max_message_chars"])
        st.slider(
            "max_message_chars",
            m_low,
            m_high,
            step=1,
            format=THOUSANDS,
            key=keys["max_message_chars"],
            help=_HELP["max_message_chars"],
        )
        st.button(
            "Reset parameters",
            key="reset_params",
            on_click=_reset,
            icon=":material/restart_alt:",
            help="Back to the parameters this conversation came with.",
            width="stretch",
        )
        with st.expander("Current request as JSON"):
            shown, note = display_request(conv.request(state.params()))
            if note:
                st.caption(note)
            st.json(shown, expanded=True)
        st.caption("The address bar holds this exact view: copy it to share the link.")


def notices() -> None:
    """Warnings about values in the link that could not be used (shown until dismissed)."""
    found = st.session_state.get(state.NOTICES_KEY, ())
    if not found:
        return
    for notice in found:
        st.warning(notice, icon=":material/link_off:")
    if st.button("Dismiss", key="dismiss_notices"):
        st.session_state[state.NOTICES_KEY] = ()
        st.rerun()
