"""The Focus box the Strategies and Transcript pages share: what focus (issue 38) is about,
starting as the pending turn (the last user message), editable."""

from __future__ import annotations

import zlib

import streamlit as st

from compactor.model import Request
from compactor.strategies import default_focus, focus_account
from compactor.text import RelevanceUnavailable
from explorer.frames import compare as compare_frames
from explorer.widgets import common

HELP = (
    "What the model is about to be asked: focus keeps the parts that match it, then recent "
    "context. Edit it to see what another question would keep; empty, or only 'ok' or "
    "'continue', runs focus's query-free mode (the history's rare words)."
)


def focus_box(request: Request, key: str) -> str | None:
    """The Focus box for ``request``'s history (its key follows the pending turn, so another
    conversation starts from its own). Returns the focus to run with, or None when it is the
    pending turn (focus's own default)."""
    pending, _ = default_focus(request)
    given = st.text_area(
        "Focus (default: the pending turn, the last user message)",
        value=pending,
        key=f"{key}_{zlib.crc32(pending.encode('utf-8', 'replace')):08x}",
        height=90,
        help=HELP,
    )
    return None if given == pending else given


def focus_ab(a: Request, b: Request) -> None:
    """focus under A's parameters and under B's (their budgets and protection), with one Focus
    box: the totals and, message by message, what each kept."""
    st.subheader("focus under A and under B")
    given = focus_box(a, "ab_focus")
    params = {} if given is None else {"focus": given}
    try:
        under_a, under_b = (focus_account(r, None, params) for r in (a, b))
    except RelevanceUnavailable as missing:
        st.warning(str(missing), icon=":material/extension_off:")
        return
    frame = compare_frames.focus_ab_frame(under_a, under_b)
    st.caption(
        f"focus (issue 38) at each side's budget and protection; the focus: "
        f"{under_a.focus.source}. A returns {under_a.output_chars:,} characters, B "
        f"{under_b.output_chars:,}; {int(frame['differs'].sum()):,} of {len(frame):,} messages "
        "differ."
    )
    common.table(frame)
