"""Overview: what the compaction kept, in numbers, stage by stage, and message by message (the
page the explorer opens on)."""

import streamlit as st

from explorer.charts import views as charts
from explorer.frames import views
from explorer.overview import widgets as overview
from explorer.session.cache import Compaction
from explorer.widgets import common, outcomes, page
from explorer.widgets import report as report_widgets
from explorer.widgets import setting as setting_widgets
from explorer.widgets import tuning as tuning_widgets

REPORT_KEY = "overview_download_report"


def draw(compaction: Compaction) -> None:
    # the page body is the stage presentation mode enlarges (as on the Walkthrough)
    with st.container(key=tuning_widgets.STAGE_KEY):
        body(compaction)


def body(compaction: Compaction) -> None:
    result, response = compaction.result, compaction.response
    switch, report = st.columns([1, 1], vertical_alignment="center")
    with switch:
        tuning_widgets.presentation_toggle()
    with report:
        report_widgets.decision(result, REPORT_KEY)
    budget_chars = response["budget"]["budget_chars"]
    overview.introduce(response)
    overview.headline(response)
    common.pairing_warning(result)
    overview.pin_the_task(result)

    st.subheader("What each stage did")
    overview.stages(result)

    left, right = st.columns([3, 2], gap="large")
    with left:
        st.subheader("Characters through the stages")
        st.altair_chart(
            charts.waterfall(views.waterfall_frame(result.totals), budget_chars), width="stretch"
        )
    with right:
        st.subheader("The output against the budget")
        st.altair_chart(
            charts.output_against_budget(views.output_frame(result), budget_chars),
            width="stretch",
        )
        overview.fate_counts(result)

    st.subheader("Every message's fate")
    overview.fate_timeline(result)
    overview.recommend_when_below(outcomes.needs_section(compaction))

    st.subheader("This setting, for your agent and CI")
    st.caption(setting_widgets.HELP + " The Output page shows the code.")
    setting_widgets.ship("overview_download_setting")


page.run("Overview", draw)
