"""The one parameter form: the five controls with the schema's ranges, for A (the sidebar) and for
B (the A/B page). Values live in session state under each form's keys and outlive page switches.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import streamlit as st

from compactor.contract import LIMITS, RANGES, ROLES

HELP = {
    "budget_chars": "Character budget for the sum of all returned message contents.",
    "keep_last_n": "How many of the most recent messages are protected.",
    "keep_roles": "Roles whose messages are protected.",
    "duplicate_threshold": "Word-overlap ratio from which a later message of the same role "
    "counts as a near-duplicate of an earlier one.",
    "max_message_chars": "Length to which unprotected survivors are trimmed in the trim stage.",
}

#: A slider format with thousands separators (120,000 rather than 120000).
THOUSANDS = "%,d"


def threshold_format(value: float) -> str:
    """A slider format that shows every decimal the threshold has (at least two)."""
    decimals = len(repr(float(value)).split(".")[1].rstrip("0")) if "e" not in repr(value) else 6
    return f"%.{min(6, max(2, decimals))}f"


def budget_box_label(prefix: str = "", high: int | None = None) -> str:
    low, top = (int(v) for v in RANGES["budget_chars"])
    high = top if high is None else high
    return f"{prefix}budget_chars, exact ({low:,} to {high:,})"


def draw(
    keys: Mapping[str, str],
    prefix: str = "",
    slots: Sequence[Any] | None = None,
    before_budget: Callable[[], None] | None = None,
    persist: str | None = None,
    budget_high: int | None = None,
) -> None:
    """The five controls, labelled ``prefix + name``, each in its slot (a column; default: here).

    ``before_budget`` draws something above the exact budget box (the sidebar's slider);
    ``persist="session"`` keeps the values while the form is not drawn (the B form, drawn on
    one page only) and through a page switch (the sidebar's A form). ``budget_high``: the
    largest budget the conversation's mode takes (default the contract's 400,000; 2,000,000 for
    a whole session in the agent mode).
    """
    slot = list(slots) if slots is not None else [st.container() for _ in range(5)]

    def common(name: str) -> dict[str, Any]:
        # the B form's controls (prefixed) leave the help to the A form beside them
        return {"key": keys[name], "persist_state": persist, "help": None if prefix else HELP[name]}

    with slot[0]:
        if before_budget is not None:
            before_budget()
        low, high = (int(v) for v in RANGES["budget_chars"])
        high = high if budget_high is None else budget_high
        st.number_input(
            budget_box_label(prefix, high) if before_budget else f"{prefix}budget_chars",
            min_value=low,
            max_value=high,
            step=10,
            **common("budget_chars"),
        )
    low, high = (int(v) for v in RANGES["keep_last_n"])
    slot[1].slider(
        f"{prefix}keep_last_n",
        low,
        high,
        step=1,
        **common("keep_last_n"),
    )
    slot[2].multiselect(
        f"{prefix}keep_roles",
        list(ROLES),
        max_selections=LIMITS["max_keep_roles"],
        **common("keep_roles"),
    )
    t_low, t_high = (float(v) for v in RANGES["duplicate_threshold"])
    slot[3].slider(
        f"{prefix}duplicate_threshold",
        t_low,
        t_high,
        step=0.01,
        format=threshold_format(st.session_state[keys["duplicate_threshold"]]),
        **common("duplicate_threshold"),
    )
    m_low, m_high = (int(v) for v in RANGES["max_message_chars"])
    slot[4].slider(
        f"{prefix}max_message_chars",
        m_low,
        m_high,
        step=1,
        format=THOUSANDS,
        **common("max_message_chars"),
    )
