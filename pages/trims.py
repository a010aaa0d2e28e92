"""Trims: every message the trim stage cut, the kept and the cut-off text, where and how."""

import streamlit as st

from explorer.charts import views as charts
from explorer.frames import safe_text, views
from explorer.frames import stages as stage_frames
from explorer.session.cache import Compaction
from explorer.widgets import common, page

PER_PAGE = 10


def draw(compaction: Compaction) -> None:
    result = compaction.result
    limit = result.request.params.max_message_chars
    st.caption(
        f"Every unprotected message still present that is longer than max_message_chars "
        f"({limit:,}) is cut to a prefix: at the last sentence end within the limit if that "
        "keeps at least 40 percent of it, else hard at the limit without splitting a "
        "character. Nothing is added."
    )
    frame = views.trim_frame(result)
    if frame.empty:
        st.info(
            f"No unprotected message is longer than {limit:,} characters.",
            icon=":material/info:",
        )
    else:
        later = stage_frames.later_dropped(result)
        if later:
            st.markdown(
                f"Trim cut **{len(frame):,}** messages; drop later removed **{len(later):,}** of "
                f"them, so **{len(frame) - len(later):,}** are returned trimmed (their fate below)."
            )
        st.altair_chart(charts.trims(views.trim_bars(frame), limit), width="stretch")
        common.table(
            frame.drop(columns=["index"]),
            column_config={
                "original_chars": st.column_config.NumberColumn(
                    "characters before", format="localized"
                ),
                "kept_chars": st.column_config.NumberColumn(
                    "kept (cut position)", format="localized"
                ),
                "cut_chars": st.column_config.NumberColumn("cut off", format="localized"),
                "cut": "cut kind",
                "limit": None,  # max_message_chars, the same on every row (see above)
                "fate": st.column_config.TextColumn("fate", help="dropped: trimmed, then dropped"),
            },
        )
        cuts = result.trimming.cuts
        shown = common.page_slice(len(cuts), PER_PAGE, "trimmed messages", "trims_page")
        for c in cuts[shown]:
            trace = result.messages[c.index]
            kind = "at a sentence end" if c.kind == "sentence" else "hard, at the limit"
            then = "; then dropped" if trace.drop is not None else ""
            with st.container(border=True):
                st.markdown(
                    f"**#{c.index}** ({trace.message.role}): cut at character {c.chars:,} of "
                    f"{c.original_chars:,}, {kind}; {c.original_chars - c.chars:,} characters "
                    f"cut off{then}"
                )
                st.html(safe_text.trimmed_html(trace.message.content, c.chars, c.kind))


page.run("Trims", draw)
