"""What the workspace did for this session: whether the loaded conversation is kept (so that a
link to it reopens it on this server), and what the workspace could not do, for the page to say.

The workspace itself (:mod:`explorer.session.workspace`) knows nothing of Streamlit; this is
where its answers meet the session's state.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from explorer.session import workspace
from explorer.session.conversation import Conversation

#: What the workspace could not do (shown beside the link's notices until dismissed), and the
#: loaded conversation when the workspace could not keep it: ``(key, reason)``.
NOTICES_KEY = "workspace_notices"
UNKEPT_KEY = "workspace_unkept"


def keep(conv: Conversation) -> None:
    """Keep a loaded conversation in the workspace; remember if it could not be kept."""
    found: list[str] = []
    kept_now = workspace.save(conv, found)
    reason = found[-1] if found else "The workspace could not be written."
    st.session_state[UNKEPT_KEY] = None if kept_now else (conv.key, reason)
    say(found)


def stored(conv: Conversation) -> None:
    """``conv`` was just read from the workspace: it is kept, nothing to write."""
    st.session_state[UNKEPT_KEY] = None


def kept(conv: Conversation) -> bool:
    """Whether ``conv`` is in this server's workspace (a link to it reopens it here)."""
    unkept = st.session_state.get(UNKEPT_KEY)
    return conv.sample is not None or unkept is None or unkept[0] != conv.key


def say(found: Sequence[str]) -> None:
    """Add what the workspace said to the notices shown (each once)."""
    if found:
        shown = tuple(st.session_state.get(NOTICES_KEY, ()))
        st.session_state[NOTICES_KEY] = shown + tuple(n for n in found if n not in shown)


def shown() -> tuple[str, ...]:
    return tuple(st.session_state.get(NOTICES_KEY, ()))


def dismiss() -> None:
    st.session_state[NOTICES_KEY] = ()
