"""Fate timeline: every input message in order, coloured by fate; pick one to see why."""

import streamlit as st

from explorer import charts, detail, router, state, tuning, tuning_charts, tuning_compute, ui, views

CHART_KEY = "timeline_chart"
PICKER_KEY = "timeline_message"
LAST_PICK_KEY = "timeline_last_pick"

router.ensure()
st.title("Fate timeline")
with ui.guarded():
    outcome = ui.require_result()
    if outcome is not None:
        result = outcome.result
        sweep = tuning_compute.budget(state.conversation(), result)
        frame = tuning.with_survival(views.fate_frame(result), sweep)
        ui.fate_legend()
        st.caption("Bar height is the message's characters. Click a bar to open it below.")
        event = st.altair_chart(
            tuning_charts.survival_tooltip(charts.fate_timeline(frame)),
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
