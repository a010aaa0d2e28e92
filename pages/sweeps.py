"""Budget sweep: the output at every budget, and from which budget each message is kept."""

import streamlit as st

from explorer.charts import sweeps as sweep_charts
from explorer.frames import sweeps as sweep_frames
from explorer.session import cache, state
from explorer.session.cache import Compaction
from explorer.widgets import common, outcomes, page, tuning


def draw(compaction: Compaction) -> None:
    result = compaction.result
    sweep = cache.budget(state.conversation(), result)
    current = sweep.current
    low, high = sweep.budget_range
    st.caption(
        "Pin, dedupe, trim and the scores do not depend on the budget, so one run says what "
        "comes out at every budget from "
        f"{low:,} to {high:,}: drop removes the same messages in the same order, and stops "
        "sooner the larger the budget. The other parameters stay as in the sidebar."
    )
    encoding = state.token_encoding()
    if encoding is not None:
        report = cache.tokens(state.conversation(), result, encoding)
        st.markdown(
            f"In {encoding} tokens: {report.budget.sentence}, at this conversation's "
            f"{report.budget.chars_per_token:.2f} characters per token (the characters / 4 "
            f"estimate says {sweep.current_budget / 4:,.0f})."
        )
    cols = st.columns(4)
    cols[0].metric("Current budget", f"{sweep.current_budget:,}")
    cols[1].metric("Characters out", f"{current.output_chars:,}")
    cols[2].metric("Messages out", f"{current.output_messages:,}")
    everything = sweep.steps[-1]
    if everything.dropped_messages == 0:
        cols[3].metric(
            "Nothing dropped from",
            f"{everything.from_budget:,}",
            f"{everything.output_messages:,} messages, {everything.output_chars:,} characters",
            delta_color="off",
            delta_arrow="off",
            help="The smallest budget at which drop removes nothing (duplicates are removed "
            "at every budget).",
        )
    else:
        cols[3].metric(
            "Nothing dropped from",
            "beyond the range",
            f"{everything.dropped_messages:,} still dropped at {high:,}",
            delta_color="off",
            delta_arrow="off",
            help="Even the schema's largest budget leaves drop something to remove.",
        )

    frame = sweep_frames.budget_steps_frame(sweep)
    st.subheader("The output against the budget")
    st.caption(
        "Each step is a budget from which one more message fits. Hover a point for the "
        "messages kept from that budget. Below the dotted line the output fits the budget; "
        "a step above it means the protected messages alone exceed the budget."
    )
    st.altair_chart(sweep_charts.budget_chars(frame, sweep.current_budget), width="stretch")
    st.altair_chart(sweep_charts.budget_messages(frame, sweep.current_budget), width="stretch")
    if frame["end"].any() and sweep_frames.budget_view_limit(sweep) < high:
        st.caption(
            f"The charts stop at {frame['budget'].max():,}; nothing changes from there "
            f"up to the schema's maximum of {high:,}."
        )

    anchors_section(result, sweep.current_budget, sweep_charts.budget_axis_extent(frame))
    outcomes.curve_section(result, frame, sweep_charts.budget_axis_extent(frame))

    st.subheader("From which budget each message is kept")
    table = sweep_frames.survival_frame(sweep, result)
    order = st.segmented_control(
        "Order",
        ["input order", "survival budget"],
        default="input order",
        key="sweeps_order",
    )
    if order == "survival budget":
        table = table.sort_values(
            ["survives_from_budget", "index"], na_position="last", kind="stable"
        )
    common.table(
        table.drop(columns=["index", "rule"]),
        column_config={
            "kept_now": st.column_config.CheckboxColumn(
                "kept now", help=f"In the output at the budget of {sweep.current_budget:,}"
            ),
            "fate": st.column_config.TextColumn(
                "fate now", help=f"At the budget of {sweep.current_budget:,}"
            ),
            "chars": st.column_config.NumberColumn(
                "characters when kept",
                format="localized",
                help=f"After any trim; {common.MISSING} when no budget keeps it",
            ),
            "survives_from_budget": st.column_config.NumberColumn(
                "survives from budget",
                format="localized",
                help="The smallest budget_chars at which it is in the output; "
                f"{common.MISSING} when no budget in range keeps it",
            ),
            "kept_from": st.column_config.TextColumn("in words", width="medium"),
            "preview": st.column_config.TextColumn("text (start)", width="large"),
        },
    )


def anchors_section(result, current: int, extent: int) -> None:
    """Retained anchors against the budget, beside the characters out."""
    st.subheader("Anchors kept against the budget")
    report = cache.anchors(state.conversation(), result, tuning.watched_phrases())
    if not report.anchors:
        st.info("No anchor in this conversation.", icon=":material/info:")
        return
    st.caption(
        "The ids, numbers, dates, paths and names of the Anchors page: the share kept at every "
        "budget, beside the share of the input's characters that comes out. One run says both "
        "(an anchor is kept from the smallest budget that returns a message holding it)."
    )
    st.markdown(sweep_frames.retention_sentence(report))
    frame = sweep_frames.retention_frame(report, result.totals.input)
    st.altair_chart(sweep_charts.retention(frame, current, extent), width="stretch")


page.run("Budget sweep", draw)
