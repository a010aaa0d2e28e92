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


def draw(compaction: Compaction) -> None:
    result = compaction.result
    sweep = cache.budget(state.conversation(), result)
    frame = sweep_frames.with_survival(views.fate_frame(result), sweep)
    common.fate_legend()
    note, choice = st.columns([3, 1], vertical_alignment="bottom")
    scale = choice.segmented_control(
        "Bar height",
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
    labels = detail.option_label(frame)
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


page.run("Fate timeline", draw)
