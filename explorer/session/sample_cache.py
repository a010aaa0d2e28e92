"""The sample conversations as the explorer loads them: read once per server, by slug."""

from __future__ import annotations

import streamlit as st

from compactor.samples import load_samples
from explorer.session.conversation import Conversation, params_from


@st.cache_resource(show_spinner=False)
def sample_conversations() -> dict[str, Conversation]:
    """Every sample as a conversation with its published parameters, by slug (read once)."""
    out = {}
    for sample in load_samples():
        request = sample.request
        out[sample.slug] = Conversation(
            messages=tuple(request["messages"]),
            params=params_from(request, {}),
            label=sample.name,
            source="sample",
            sample=sample.slug,
        )
    return out


@st.cache_resource(show_spinner=False)
def sample_descriptions() -> dict[str, tuple[str, str]]:
    """``slug -> (name, one-line description)`` for the sample picker."""
    return {s.slug: (s.name, s.description) for s in load_samples()}
