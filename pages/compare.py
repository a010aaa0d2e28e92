"""A/B: the same history with two parameter sets side by side, the messages that differ marked."""

import streamlit as st

from explorer.charts import compare as compare_charts
from explorer.frames import compare as compare_frames
from explorer.session import cache, state
from explorer.theme import DIFF_ROW_BACKGROUND
from explorer.widgets import common, outcomes, page
from explorer.widgets import focus as focus_widgets
from explorer.widgets import setting as setting_widgets
from explorer.widgets import tuning as tuning_widgets

DIFF_BACKGROUND = f"background-color: {DIFF_ROW_BACKGROUND}"


def draw() -> None:
    conv = state.conversation()
    a = state.params()
    tuning_widgets.start_b(conv, a)
    st.caption(
        "A is the sidebar's parameters; B is set here and starts as a copy of A. Both compact "
        "the same history."
    )
    tuning_widgets.b_controls()
    b = tuning_widgets.b_params()
    both = cache.ab(conv, a, b)
    for side, compaction in (("A", both.a), ("B", both.b)):
        if compaction.result is None:
            common.show_problems(
                f"Parameters {side} break the input schema; nothing was compacted.",
                compaction.errors,
            )
    comparison = both.comparison
    if comparison is not None:
        params = compare_frames.param_rows(a, b)
        changed = list(params.loc[params["changed"], "parameter"])
        differing = comparison.differing
        if not changed:
            st.info("B equals A: change a B parameter above to compare.", icon=":material/info:")
        else:
            st.markdown(
                f"B changes **{', '.join(changed)}**: **{len(differing):,}** of "
                f"{len(comparison.messages):,} messages differ."
            )
        left, right = st.columns([2, 3], gap="large")
        with left:
            st.subheader("Parameters")
            common.table(params)
            setting_widgets.download_pair(a, b, "ab_download")
        with right:
            st.subheader("Totals")
            results = (both.a.result, both.b.result)
            watched = tuning_widgets.watched_phrases()
            reports = [cache.anchors(conv, r, watched) for r in results]
            lost = tuple(len(r.anchors) - r.kept_count for r in reports)
            split = tuple(len(cache.pairing(conv, r).report.issues) for r in results)
            common.table(
                compare_frames.ab_totals(comparison, lost, split),
                column_config={
                    "A": st.column_config.TextColumn("A", alignment="right"),
                    "B": st.column_config.TextColumn("B", alignment="right"),
                    "B vs A": st.column_config.TextColumn(
                        "B vs A",
                        help="B minus A, or same; for the budget, same or changed",
                        alignment="right",
                    ),
                },
            )

        outcomes.ab_section(conv, both.a, both.b)
        focus_widgets.focus_ab(both.a.result.request, both.b.result.request)

        st.subheader("Every message under A and under B")
        common.fate_legend()
        st.caption("Outlined: the messages whose fate or returned text differs.")
        st.altair_chart(
            compare_charts.ab_strip(compare_frames.ab_long(comparison)), width="stretch"
        )

        frame = compare_frames.ab_frame(comparison)
        only = st.toggle("Only the messages that differ", key="ab_only_differing")
        if only:
            frame = frame[frame["differs"]]
        styled = frame.drop(columns=["index"]).style.apply(
            lambda row: [DIFF_BACKGROUND if row["differs"] else "" for _ in row], axis=1
        )
        common.table(
            styled,
            column_config={
                "original_chars": st.column_config.NumberColumn(
                    "characters in", format="localized"
                ),
                "fate_a": "fate A",
                "chars_a": st.column_config.NumberColumn("characters A", format="localized"),
                "fate_b": "fate B",
                "chars_b": st.column_config.NumberColumn("characters B", format="localized"),
                "differs": st.column_config.CheckboxColumn(
                    "differs", help="The fate or the returned text differs"
                ),
                "fate_differs": st.column_config.CheckboxColumn("fate differs"),
            },
        )


page.run_input("A/B compare", draw)
