"""Walkthrough: pin, dedupe, trim and drop one step at a time, large enough to project."""

import html

import streamlit as st

from compactor import CompactionResult
from compactor.analyses import Step, Walkthrough
from explorer.frames import compare as compare_frames
from explorer.frames import safe_text, views
from explorer.session import cache, state
from explorer.session.cache import Compaction
from explorer.walkthrough import charts as walk_charts
from explorer.walkthrough import frames as walk_frames
from explorer.widgets import common, page
from explorer.widgets import tuning as tuning_widgets

#: The step's heading, summary and rule: on the page, and in presentation mode.
TYPE = {
    False: {"heading": 2.1, "summary": 1.45, "rule": 1.05, "chart": 280, "box": 320},
    True: {"heading": 2.9, "summary": 2.0, "rule": 1.5, "chart": 400, "box": 520},
}
HEADING = "font-size:{heading}rem;font-weight:700;line-height:1.2;margin:0.4rem 0 0.2rem 0"
SUMMARY = "font-size:{summary}rem;line-height:1.45;margin:0.2rem 0 0.6rem 0"
RULE = "font-size:{rule}rem;opacity:0.75;margin:0"
#: Dedupe pairs shown at once (each is two texts side by side).
PAIRS_PER_PAGE = 5


def draw(compaction: Compaction) -> None:
    result = compaction.result
    walk = cache.steps(state.conversation(), result)
    # the whole page body is the stage that presentation mode enlarges (its CSS is scoped to
    # this container's key, and only drawn while the mode is on)
    with st.container(key=tuning_widgets.STAGE_KEY):
        note, switch = st.columns([3, 1], vertical_alignment="center")
        note.caption(
            f"{len(result.messages):,} messages, {walk.input_chars:,} characters, a budget of "
            f"{walk.budget:,}. Step through the four stages; each shows what it did and why."
        )
        with switch:
            presenting = tuning_widgets.presentation_toggle()
        show_step(result, walk, presenting)


def show_step(result: CompactionResult, walk: Walkthrough, presenting: bool) -> None:
    sizes = TYPE[presenting]
    font = walk_charts.PRESENTATION_FONT if presenting else walk_charts.PROJECTOR_FONT
    labels = {s.order: walk_frames.step_option(s) for s in walk.steps}
    order = tuning_widgets.step_picker(labels)
    step = walk.steps[order - 1]
    final = order == len(walk.steps)
    # The explorer's own words and numbers only (the engine's summaries name messages by
    # number, never by content); escaped all the same.
    st.html(
        f'<div style="{HEADING.format(**sizes)}">Step {step.order} of {len(walk.steps)}: '
        f"{html.escape(step.title)}</div>"
        f'<div style="{SUMMARY.format(**sizes)}">{html.escape(step.summary)}</div>'
        f'<div style="{RULE.format(**sizes)}">Rule: {html.escape(step.rule)}</div>'
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

    # in presentation mode each chart takes the whole width (their labels are large)
    left, right = [st.container()] * 2 if presenting else st.columns([2, 3], gap="large")
    with left:
        totals = walk_frames.walk_totals_frame(walk, order)
        st.altair_chart(
            walk_charts.walk_totals(totals, walk.budget, sizes["chart"], font), width="stretch"
        )
    with right:
        states = walk_frames.walk_messages_frame(step, result.request.contents, final)
        st.altair_chart(
            walk_charts.walk_messages(states, final, sizes["chart"], font), width="stretch"
        )
        st.caption("Outlined: the messages this step acted on. Faded: what is gone.")

    events = walk_frames.walk_events_frame(step)
    st.subheader(f"What {step.stage} did, message by message ({len(events):,})")
    if events.empty:
        st.info(f"{step.stage.capitalize()} did nothing here.", icon=":material/info:")
    elif presenting:
        # a static table: its text takes the presentation's size, and it is as long as it is
        table = walk_frames.events_table(events).style.format(
            "{:,}", subset=list(walk_frames.EVENT_NUMBERS)
        )
        st.table(table, hide_index=True)
    else:
        common.table(
            events,
            height="content",  # every event at once, never a small scroll box
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
    if step.stage == "dedupe":
        show_pairs(result, step, sizes["box"])


def show_pairs(result: CompactionResult, step: Step, box: int) -> None:
    """Each pair dedupe compared, side by side with their shared words marked (as on the
    Duplicates page; the texts are escaped, never Markdown)."""
    pairs = walk_frames.dedupe_pairs(step)
    if not pairs:
        return
    st.subheader(f"The pairs, side by side ({len(pairs):,})")
    st.caption("Marked: the words the two messages share (their overlap is shared / all words).")
    shown = common.page_slice(len(pairs), PAIRS_PER_PAGE, "pairs", "walkthrough_pairs_page")
    contents = result.request.contents
    for event in pairs[shown]:
        shared, _, _ = views.word_sets(result, event.other, event.index)
        with st.container(border=True):
            st.text(f"#{event.index} ({event.role}) {event.action}: {event.reason}")
            sides = walk_frames.pair_sides(event)
            for column, index, caption in zip(
                st.columns(2, gap="medium"), (event.other, event.index), sides, strict=True
            ):
                column.caption(caption)
                column.html(safe_text.highlighted_html(contents[index], shared, box))


page.run("Walkthrough", draw)
