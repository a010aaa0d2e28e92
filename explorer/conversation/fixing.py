"""The choice of lossy fixes for a conversation over the request's limits: which messages
"Keep at most 200" keeps (the last 200, the first N and the last M, a range) with what that
leaves out, and what is still needed when the fixes chosen are not enough."""

from __future__ import annotations

from collections.abc import Iterable

import streamlit as st

from compactor.contract import LIMITS
from compactor.errors import Problem
from compactor.formats import Conversion, Window
from explorer.frames import imports
from explorer.frames.safe_text import markdown_literal

WINDOW_KEY = "fix_window_{}_{}"  # per source and field: which messages keep_last keeps
WINDOW_KINDS = {
    "last": f"The last {LIMITS['max_messages']}",
    "head_tail": "The first N and the last M",
    "range": "A range of messages",
}


def not_enough(title: str, problems: Iterable[Problem]) -> None:
    """Why the fixes chosen did not load: each remaining problem and the fix it needs."""
    # the explorer's own words, counts and message numbers: escaped, never Markdown
    lines = "  \n".join(markdown_literal(p.message) for p in problems)
    st.error(f"{markdown_literal(title)}  \n{lines}", icon=":material/error:")


def window_choice(source: str, count: int) -> Window | None:
    """The window the user chose for ``keep_last`` (None: the last 200)."""
    kind = st.session_state.get(WINDOW_KEY.format(source, "kind"), "last")
    field = lambda name, default: int(  # noqa: E731
        st.session_state.get(WINDOW_KEY.format(source, name), default)
    )
    if kind == "head_tail":
        return Window(first=field("first", 0), last=field("last", LIMITS["max_messages"]))
    if kind == "range":
        start = field("start", max(count - LIMITS["max_messages"], 0))
        return Window(start=start, end=field("end", count - 1))
    return None


def fit_head_tail(source: str, changed: str) -> None:
    """The first N and the last M keep at most 200 together: when the one just set makes them
    more, the other is lowered to fit, and the panel says so (issue 40: the window said "keep 4
    fewer" and left the sum to the user)."""
    most = LIMITS["max_messages"]
    key = lambda name: WINDOW_KEY.format(source, name)  # noqa: E731
    first = int(st.session_state.get(key("first"), 0))
    last = int(st.session_state.get(key("last"), most))
    st.session_state.pop(key("adjusted"), None)
    if first + last <= most:
        return
    other, value = ("last", most - first) if changed == "first" else ("first", most - last)
    st.session_state[key(other)] = value
    said = {"first": "the first", "last": "the last"}
    st.session_state[key("adjusted")] = (
        f"{said[other].capitalize()} lowered to {value:,}, so that with {said[changed]} "
        f"{first if changed == 'first' else last:,} the window keeps {most} messages."
    )


def window_panel(source: str, conversion: Conversion) -> None:
    """Which messages "Keep at most 200" keeps: the last 200, the first N and the last M (a
    session's instructions and task with its end), or a range; and what that leaves out."""
    count = len(conversion.request["messages"])
    most = LIMITS["max_messages"]
    kind = st.radio(
        "Which messages to keep",
        list(WINDOW_KINDS),
        format_func=WINDOW_KINDS.get,
        key=WINDOW_KEY.format(source, "kind"),
        horizontal=True,
    )
    if kind == "head_tail":
        left, right = st.columns(2)
        left.number_input(
            "Keep the first",
            0,
            most,
            0,
            key=WINDOW_KEY.format(source, "first"),
            step=1,
            on_change=fit_head_tail,
            args=(source, "first"),
        )
        right.number_input(
            "and the last",
            0,
            most,
            most,
            key=WINDOW_KEY.format(source, "last"),
            step=1,
            on_change=fit_head_tail,
            args=(source, "last"),
        )
        adjusted = st.session_state.get(WINDOW_KEY.format(source, "adjusted"))
        if adjusted:
            st.caption(markdown_literal(adjusted))
    elif kind == "range":
        left, right = st.columns(2)
        left.number_input(
            "From message #",
            0,
            count - 1,
            max(count - most, 0),
            key=WINDOW_KEY.format(source, "start"),
            step=1,
        )
        right.number_input(
            "to message # (kept too)",
            0,
            count - 1,
            count - 1,
            key=WINDOW_KEY.format(source, "end"),
            step=1,
        )
    window = window_choice(source, count) or Window()
    st.caption(markdown_literal(imports.window_preview(conversion, window)))
