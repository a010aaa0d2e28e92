"""Conversation: load a sample, paste or upload a conversation, or edit its messages in a table."""

import streamlit as st

from explorer import importing, router, state, ui
from explorer.loaders import sample_conversations, sample_descriptions

MODES = ["Samples", "Paste", "Upload", "Edit messages"]

router.ensure()
st.title("Conversation")
with ui.guarded():
    conv = state.conversation()
    st.markdown(
        f"**Loaded: {conv.label}**: {len(conv.messages):,} messages, "
        f"{conv.contents_chars:,} characters"
        + (f", {len(conv.tool_links):,} tool call links" if conv.tool_links else "")
        + "."
    )
    importing.report()
    mode = st.segmented_control(
        "Load or edit",
        MODES,
        default="Samples",
        key="input_mode",
        persist_state="session",
    )
    if mode == "Paste":
        importing.paste_panel()
    elif mode == "Upload":
        importing.upload_panel()
    elif mode == "Edit messages":
        importing.editor_panel(conv)
    else:
        importing.samples_panel(sample_conversations(), sample_descriptions())
