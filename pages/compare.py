"""A/B: the same history with two parameter sets side by side, the messages that differ marked."""

import streamlit as st

from explorer import router, state, tuning, tuning_charts, tuning_compute, tuning_ui, ui

DIFF_BACKGROUND = "background-color: #FFF3C4"

router.ensure()
st.title("A/B compare")
with ui.guarded():
    conv = state.conversation()
    a = state.params()
    tuning_ui.start_b(conv, a)
    st.caption(
        "A is the sidebar's parameters; B is set here and starts as a copy of A. Both compact "
        "the same history."
    )
    tuning_ui.b_controls()
    b = tuning_ui.b_params()
    both = tuning_compute.ab(conv, a, b)
    for side, outcome in (("A", both.a), ("B", both.b)):
        if outcome.result is None:
            ui.show_problems(
                f"Parameters {side} break the input schema; nothing was compacted.",
                outcome.errors,
            )
    comparison = both.comparison
    if comparison is not None:
        params = tuning.param_rows(a, b)
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
            ui.table(params)
        with right:
            st.subheader("Totals")
            ui.table(
                tuning.ab_totals(comparison),
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

        st.subheader("Every message under A and under B")
        ui.fate_legend()
        st.caption("Outlined: the messages whose fate or returned text differs.")
        st.altair_chart(tuning_charts.ab_strip(tuning.ab_long(comparison)), width="stretch")

        frame = tuning.ab_frame(comparison)
        only = st.toggle("Only the messages that differ", key="ab_only_differing")
        if only:
            frame = frame[frame["differs"]]
        styled = frame.drop(columns=["index"]).style.apply(
            lambda row: [DIFF_BACKGROUND if row["differs"] else "" for _ in row], axis=1
        )
        ui.table(
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
