"""The Focus box the Strategies and Transcript pages share: what focus (issue 38) is about,
starting as the pending turn (the last user message), editable."""

from __future__ import annotations

import zlib

import streamlit as st

from compactor.model import Request
from compactor.strategies import default_focus

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
