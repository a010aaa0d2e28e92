"""Walkthrough: pin, dedupe, trim and drop one step at a time, large enough to project."""

import html

import streamlit as st

from explorer.charts import walkthrough as walk_charts
from explorer.frames import compare as compare_frames
from explorer.frames import walkthrough as walk_frames
from explorer.session import cache, state
from explorer.session.cache import Outcome
from explorer.widgets import common, page
from explorer.widgets import tuning as tuning_widgets

HEADING = "font-size:2.1rem;font-weight:700;line-height:1.2;margin:0.4rem 0 0.2rem 0"
SUMMARY = "font-size:1.45rem;line-height:1.45;margin:0.2rem 0 0.6rem 0"
RULE = "font-size:1.05rem;opacity:0.75;margin:0"


def draw(outcome: Outcome) -> None:
    result = outcome.result
    walk = cache.steps(state.conversation(), result)
    st.caption(
        f"{len(result.messages):,} messages, {walk.input_chars:,} characters, a budget of "
        f"{walk.budget:,}. Step through the four stages; each shows what it did and why."
    )
    labels = {s.order: walk_frames.step_option(s) for s in walk.steps}
    order = tuning_widgets.step_picker(labels)
    step = walk.steps[order - 1]
    final = order == len(walk.steps)
    # The explorer's own words and numbers only (the engine's summaries name messages by
    # number, never by content); escaped all the same.
    st.html(
        f'<div style="{HEADING}">Step {step.order} of {len(walk.steps)}: '
        f"{html.escape(step.title)}</div>"
        f'<div style="{SUMMARY}">{html.escape(step.summary)}</div>'
        f'<div style="{RULE}">Rule: {html.escape(step.rule)}</div>'
    )
    cols = st.columns(3)
    cols[0].metric("Characters before", f"{step.chars_before:,}")
    cols[1].metric(
        "Characters after",
        f"{step.chars_after:,}",
        compare_frames.change_text(step.chars_before, step.chars_after, same="no change"),
        delta_color="off",
        delta_arrow="off",
    )
    cols[2].metric(
        "Budget",
        f"{step.budget:,}",
        f"over by {step.chars_after - step.budget:,}"
        if step.over_budget
        else f"{step.budget - step.chars_after:,} to spare",
        delta_color="red" if step.over_budget else "green",
        delta_arrow="off",
    )

    left, right = st.columns([2, 3], gap="large")
    with left:
        st.altair_chart(
            walk_charts.walk_totals(walk_frames.walk_totals_frame(walk, order), walk.budget),
            width="stretch",
        )
    with right:
        contents = result.request.contents
        st.altair_chart(
            walk_charts.walk_messages(
                walk_frames.walk_messages_frame(step, contents, final), final
            ),
            width="stretch",
        )
        st.caption("Outlined: the messages this step acted on. Faded: what is gone.")

    events = walk_frames.walk_events_frame(step)
    st.subheader(f"What {step.stage} did, message by message ({len(events):,})")
    if events.empty:
        st.info(f"{step.stage.capitalize()} did nothing here.", icon=":material/info:")
    else:
        common.table(
            events,
            row_height=66,  # over 4rem, so a long "why" wraps onto a second line
            column_config={
                "why": st.column_config.TextColumn("why", width="large"),
                "chars_before": st.column_config.NumberColumn(
                    "before",
                    format="localized",
                    help="The message's characters before this step",
                ),
                "chars_after": st.column_config.NumberColumn(
                    "after", format="localized", help="The message's characters after it"
                ),
                "total_after": st.column_config.NumberColumn(
                    "running total",
                    format="localized",
                    help="Characters present in the whole history after this event",
                ),
                "over_budget": st.column_config.CheckboxColumn("over budget"),
            },
        )


page.run("Walkthrough", draw)
