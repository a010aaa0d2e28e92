"""Conversation: load a sample, paste or upload a conversation, or edit its messages in a table;
apply a setting file to the sidebar."""

import streamlit as st

from explorer.conversation import importing
from explorer.frames import tokens as token_frames
from explorer.frames.safe_text import markdown_literal
from explorer.session import cache, state
from explorer.session.sample_cache import sample_conversations, sample_descriptions
from explorer.widgets import outcomes, page
from explorer.widgets import setting as setting_widgets
from explorer.widgets import tokens as token_widgets

MODES = ["Samples", "Paste", "Upload", "Edit messages"]


def draw() -> None:
    conv = state.conversation()
    st.markdown(
        f"**Loaded: {markdown_literal(conv.label)}**: {len(conv.messages):,} messages, "
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
    with st.expander("Apply a setting file", icon=":material/tune:"):
        setting_widgets.upload()
    encoding = state.token_encoding()
    if encoding is not None:
        st.subheader(f"Every message in {encoding} tokens")
        roles = [m["role"] for m in conv.messages]
        contents = [m["content"] for m in conv.messages]
        counts = cache.content_tokens(conv, encoding)
        token_widgets.message_table(token_frames.content_frame(roles, contents, counts), encoding)
    outcomes.probes_panel(conv)


page.run_input("Conversation", draw)
