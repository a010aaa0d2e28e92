"""Fate timeline: every input message in order, coloured by fate; pick one to see why."""

import streamlit as st

from explorer.charts import sweeps as sweep_charts
from explorer.charts import views as charts
from explorer.frames import sweeps as sweep_frames
from explorer.frames import views
from explorer.session import cache, state
from explorer.session.cache import Compaction
from explorer.session.keys import PICKER_KEY
from explorer.timeline import detail
from explorer.widgets import common, page

CHART_KEY = "timeline_chart"
LAST_PICK_KEY = "timeline_last_pick"
SCALE_KEY = "timeline_scale"
WINDOW_KEY = "timeline_window"


def draw(compaction: Compaction) -> None:
    result = compaction.result
    sweep = cache.budget(state.conversation(), result)
    whole = sweep_frames.with_survival(views.fate_frame(result), sweep)
    common.fate_legend()
    frame = window(whole)
    note, choice = st.columns([2, 1], vertical_alignment="bottom")
    scale = choice.segmented_control(
        "Bar height (characters)",
        list(charts.SCALES),
        format_func=charts.SCALES.get,
        default="linear",
        key=SCALE_KEY,
        required=True,
        persist_state="session",
        help="A log scale shows short messages beside very long ones.",
    )
    note.caption(
        "Bar height is the message's characters; every bar is at least "
        f"{charts.MIN_BAR_PX} pixels tall, so even the shortest message can be clicked (its "
        "tooltip gives the exact length). Click a bar to open it below."
    )
    event = st.altair_chart(
        sweep_charts.survival_tooltip(charts.fate_timeline(frame, scale=scale or "linear")),
        width="stretch",
        key=CHART_KEY,
        on_select="rerun",
        selection_mode=charts.PICK,
    )
    picked = detail.picked_index(event.get("selection") if event else None, charts.PICK)
    labels = detail.option_label(whole)  # every message, whatever the window shows
    shown, last = detail.next_choice(
        picked,
        st.session_state.get(LAST_PICK_KEY),
        st.session_state.get(PICKER_KEY),
        list(labels),
    )
    st.session_state[LAST_PICK_KEY] = last
    st.session_state[PICKER_KEY] = shown
    index = st.selectbox("Message", list(labels), key=PICKER_KEY, format_func=labels.get)
    detail.draw(result, index, sweep.survival[index])


def window(whole):
    """The messages the timeline draws: all of them, or for a long conversation a window of
    :data:`~explorer.frames.views.TIMELINE_WINDOW` under a strip of the whole (the data and the
    message picker stay whole)."""
    count, size = len(whole), views.TIMELINE_WINDOW
    if count <= size:
        return whole
    picked = st.session_state.get(PICKER_KEY)
    default = views.window_start(count, picked if isinstance(picked, int) else None)
    start = st.number_input(
        f"Timeline window: first message (of {count:,})",
        0,
        count - size,
        default,
        step=size // 2,
        key=WINDOW_KEY,
        width=320,
        help=f"The timeline draws {size} messages at a time, each bar wide enough to click.",
    )
    start = int(start)
    last = start + size - 1
    strip = views.fate_strip(whole)
    st.altair_chart(charts.fate_strip(strip, (start, last)), width="stretch")
    st.caption(
        f"The whole conversation above ({count:,} messages in {strip['bin'].nunique():,} runs "
        f"of up to {int(strip['last'].iloc[0]) + 1:,}, characters stacked by fate; the box is the "
        f"window). The timeline below shows #{start} to #{last} ({size} of {count:,} messages); "
        "every figure and the message picker cover them all."
    )
    return whole.iloc[start : start + size]


page.run("Fate timeline", draw)
