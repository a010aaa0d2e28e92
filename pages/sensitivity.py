"""Sensitivity: what dedupe removes against duplicate_threshold and what trim cuts against
max_message_chars, over each parameter's whole range."""

import streamlit as st

from compactor.wording import plural
from explorer.charts import sweeps as sweep_charts
from explorer.frames import sweeps as sweep_frames
from explorer.frames import views
from explorer.session import cache, state
from explorer.session.cache import Compaction
from explorer.widgets import common, page


def draw(compaction: Compaction) -> None:
    result = compaction.result
    conv = state.conversation()
    params = result.request.params
    st.caption(
        "Each chart moves one parameter over its whole range with the others as in the "
        "sidebar; the dashed line is the current value. Protected messages are never "
        "removed or cut, so keep_last_n and keep_roles shape both curves."
    )

    st.subheader("Duplicates removed against duplicate_threshold")
    thresholds = cache.threshold(conv, result)
    now = thresholds.current
    if sweep_frames.removes_nothing(thresholds):
        low, high = thresholds.steps[0].low, thresholds.steps[-1].high
        st.info(
            f"No duplicates at any duplicate_threshold from {low:g} to {high:g}: dedupe "
            "removes nothing over the whole range, so there is no curve to draw. "
            f"{sweep_frames.closest_pair_text(views.similarity_frame(result), low)}",
            icon=":material/info:",
        )
    else:
        st.markdown(
            f"At **{params.duplicate_threshold:g}** dedupe removes "
            f"**{plural(now.removed_messages, 'message')}**, "
            f"{plural(now.removed_chars, 'character')}; the same holds for "
            f"{sweep_frames.threshold_span(now)}."
        )
        frame = sweep_frames.threshold_frame(thresholds)
        st.altair_chart(
            sweep_charts.threshold_steps(frame, params.duplicate_threshold), width="stretch"
        )
        common.table(
            frame[~frame["start"]].drop(columns=["threshold", "from", "start"]),
            column_config={
                "span": "duplicate_threshold",
                "removed_messages": st.column_config.NumberColumn("messages removed"),
                "removed_chars": st.column_config.NumberColumn(
                    "characters removed", format="localized"
                ),
                "removed": st.column_config.TextColumn("which", width="large"),
            },
        )

    st.subheader("Characters cut against max_message_chars")
    trims = cache.trim(conv, result)
    point = trims.current
    st.markdown(
        f"At **{params.max_message_chars:,}** trim cuts "
        f"**{plural(point.cut_chars, 'character')}** from "
        f"{plural(point.trimmed_messages, 'message')} ({point.sentence_cuts:,} at a "
        f"sentence end, {point.hard_cuts:,} hard), leaving "
        f"{plural(point.after_trim_chars, 'character')} for drop."
    )
    limit = sweep_frames.trim_view_limit(trims)
    st.altair_chart(
        sweep_charts.trim_curve(
            sweep_frames.trim_sweep_frame(trims, limit), params.max_message_chars
        ),
        width="stretch",
    )
    if limit < trims.max_chars_range[1]:
        st.caption(
            f"The chart stops at {limit:,}: from there up to "
            f"{trims.max_chars_range[1]:,} trim cuts nothing."
        )
    st.caption(
        "Characters cut count every message trim shortens, including any that drop removes "
        "afterwards; the messages trimmed are the unprotected ones dedupe leaves at the "
        "current threshold."
    )


page.run("Sensitivity", draw)
