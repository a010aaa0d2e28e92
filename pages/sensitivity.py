"""Sensitivity: what dedupe removes against duplicate_threshold and what trim cuts against
max_message_chars, over each parameter's whole range."""

import streamlit as st

from explorer import router, state, tuning, tuning_charts, tuning_compute, ui

router.ensure()
st.title("Sensitivity")
with ui.guarded():
    outcome = ui.require_result()
    if outcome is not None:
        result = outcome.result
        conv = state.conversation()
        params = result.request.params
        st.caption(
            "Each chart moves one parameter over its whole range with the others as in the "
            "sidebar; the dashed line is the current value. Protected messages are never "
            "removed or cut, so keep_last_n and keep_roles shape both curves."
        )

        st.subheader("Duplicates removed against duplicate_threshold")
        thresholds = tuning_compute.threshold(conv, result)
        now = thresholds.current
        st.markdown(
            f"At **{params.duplicate_threshold:g}** dedupe removes **{now.removed_messages:,}** "
            f"message(s), {now.removed_chars:,} characters; the same holds for "
            f"{tuning.threshold_span(now)}."
        )
        frame = tuning.threshold_frame(thresholds)
        st.altair_chart(
            tuning_charts.threshold_steps(frame, params.duplicate_threshold), width="stretch"
        )
        st.dataframe(
            frame[~frame["start"]].drop(columns=["threshold", "from", "start"]),
            hide_index=True,
            width="stretch",
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
        trims = tuning_compute.trim(conv, result)
        point = trims.current
        st.markdown(
            f"At **{params.max_message_chars:,}** trim cuts **{point.cut_chars:,}** characters "
            f"from {point.trimmed_messages:,} message(s) ({point.sentence_cuts:,} at a sentence "
            f"end, {point.hard_cuts:,} hard), leaving {point.after_trim_chars:,} characters for "
            "drop."
        )
        limit = tuning.trim_view_limit(trims)
        st.altair_chart(
            tuning_charts.trim_curve(tuning.trim_frame(trims, limit), params.max_message_chars),
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
