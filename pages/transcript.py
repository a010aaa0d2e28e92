"""Transcript: the conversation as a chat, before and after, each message kept, cut (the cut-off
text struck through) or removed (greyed), so a reader sees what the model will be sent."""

import streamlit as st

from explorer.frames import safe_text
from explorer.frames import transcript as frames
from explorer.session.cache import Compaction
from explorer.widgets import common, page
from explorer.widgets import report as report_widgets
from explorer.widgets import tuning as tuning_widgets

VIEW_KEY = "transcript_view"
REPORT_KEY = "transcript_download_report"
BOTH, AFTER = "Before and after", "What the model sees"
#: Avatars for the roles Streamlit has none for (it has them for user and assistant).
AVATARS = {"system": ":material/settings:", "tool": ":material/build:"}
PER_PAGE = 20
#: A message longer than this scrolls in a box instead of filling the page.
LONG_CHARS = 1_500
BOX_HEIGHT = 320


def text(content: str) -> None:
    """Content as plain text (never Markdown or HTML), in a scrolling box when it is long."""
    if len(content) > LONG_CHARS:
        with st.container(height=BOX_HEIGHT, border=False):
            st.text(content)
    else:
        st.text(content)


def message(row, view: str) -> None:
    with st.chat_message(row.role, avatar=AVATARS.get(row.role)):
        st.caption(
            f"**{row.shown}** "
            + safe_text.markdown_literal(f"{row.message} · {row.role} · {row.note}")
        )
        if row.shown == frames.KEPT or view == AFTER:
            text(row.sent)
        elif row.shown == frames.CUT:
            st.html(safe_text.trimmed_html(row.sent + row.cut_off, len(row.sent), row.cut))
        else:
            st.html(safe_text.removed_html(row.removed, BOX_HEIGHT))


def draw(compaction: Compaction) -> None:
    # the page body is the stage presentation mode enlarges (as on the Walkthrough)
    with st.container(key=tuning_widgets.STAGE_KEY):
        body(compaction)


def body(compaction: Compaction) -> None:
    frame = frames.transcript_frame(compaction.result)
    switch, report = st.columns([1, 1], vertical_alignment="center")
    with switch:
        tuning_widgets.presentation_toggle()
    with report:
        report_widgets.decision(compaction.result, REPORT_KEY)
    st.caption(
        "The conversation as the model would read it. Before and after: each message kept, "
        "cut (the cut-off text struck through) or removed (greyed). What the model sees: only "
        "what is sent, in order."
    )
    st.markdown(safe_text.markdown_literal(frames.summary(frame)))
    view = st.segmented_control("Show", [BOTH, AFTER], default=BOTH, key=VIEW_KEY) or BOTH
    rows = frame if view == BOTH else frame[frame["shown"] != frames.REMOVED]
    shown = common.page_slice(len(rows), PER_PAGE, "messages", "transcript_page")
    for row in rows.iloc[shown].itertuples():
        message(row, view)


page.run("Transcript", draw)
