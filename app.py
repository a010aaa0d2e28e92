"""The compaction explorer: ``streamlit run app.py`` opens it on the dispatcher example.

This script is the entry and the first page, Overview: what the compaction kept, in numbers,
stage by stage, and message by message. The other pages are the scripts in pages/ (Streamlit's
multipage folder); :mod:`explorer.widgets.page` gives every page the same setup and sidebar.
"""

import streamlit as st

from explorer.charts import views as charts
from explorer.frames import anchors as anchor_frames
from explorer.frames import stages as stage_frames
from explorer.frames import views
from explorer.session import cache, edits, state
from explorer.session.cache import Outcome
from explorer.widgets import common, outcomes, page, tuning
from explorer.widgets import tokens as token_widgets


def draw(outcome: Outcome) -> None:
    result, response = outcome.result, outcome.response
    loss, budget = response["loss"], response["budget"]
    cols = st.columns([1, 1, 1, 1.6, 1])  # the budget can read "short by 46,662"
    cols[0].metric(
        "Characters out",
        f"{loss['output_chars']:,}",
        f"-{loss['input_chars'] - loss['output_chars']:,} of {loss['input_chars']:,}",
        delta_color="off",
    )
    cols[1].metric(
        "Messages out",
        f"{loss['output_messages']:,}",
        f"-{loss['dropped_messages']:,} of {loss['input_messages']:,}",
        delta_color="off",
    )
    cols[2].metric("Retained characters", f"{loss['retained_char_ratio']:.2%}")
    cols[3].metric(
        "Budget",
        "met" if budget["budget_met"] else f"short by {budget['shortfall_chars']:,}",
        f"{budget['output_chars']:,} of {budget['budget_chars']:,}",
        delta_color="green" if budget["budget_met"] else "red",
        delta_arrow="off",
    )
    cols[4].metric(
        "Protected characters",
        f"{budget['protected_chars']:,}",
        "exceed the budget" if budget["protected_exceeds_budget"] else "within the budget",
        delta_color="red" if budget["protected_exceeds_budget"] else "off",
        delta_arrow="off",
    )
    if budget["protected_exceeds_budget"]:
        st.warning(
            f"The protected messages alone hold {budget['protected_chars']:,} characters, "
            f"more than the budget of {budget['budget_chars']:,}: every unprotected message "
            "is dropped and the budget cannot be met.",
            icon=":material/warning:",
        )
    common.pairing_warning(result)
    pin_the_task(result)

    st.subheader("What each stage did")
    # A static table, so a long "which" wraps instead of being cut at the column's edge.
    # st.table renders Markdown: it holds the explorer's own words only, made literal.
    encoding = state.token_encoding()
    tokens = None if encoding is None else cache.tokens(state.conversation(), result, encoding)
    st.table(stage_frames.stage_table(result, tokens), hide_index=True)
    if tokens is not None:
        token_widgets.stage_table(tokens)
    report = cache.anchors(state.conversation(), result, tuning.watched_phrases())
    if report.anchors:
        st.caption(
            f"Anchors (ids, numbers, dates, paths): {report.kept_count:,} of "
            f"{len(report.anchors):,} kept; "
            + "; ".join(anchor_frames.stage_sentences(report))
            + "."
        )
        st.page_link("pages/anchors.py", label="See every anchor", icon=":material/anchor:")
    acted = stage_frames.stage_messages(result)
    if len(acted):
        with st.expander(f"Every message a stage acted on ({len(acted):,})"):
            common.table(
                acted.drop(columns=["index"]),
                height=min(420, 38 + 35 * len(acted)),
                column_config={
                    "stage": st.column_config.TextColumn("Stage", width="small"),
                    "message": st.column_config.TextColumn("Message", width="small"),
                    "role": st.column_config.TextColumn("Role", width="small"),
                    "what": st.column_config.TextColumn("What the stage did", width="large"),
                },
            )

    left, right = st.columns([3, 2], gap="large")
    with left:
        st.subheader("Characters through the stages")
        st.altair_chart(
            charts.waterfall(views.waterfall_frame(result.totals), budget["budget_chars"]),
            width="stretch",
        )
    with right:
        st.subheader("The output against the budget")
        st.altair_chart(
            charts.output_against_budget(views.output_frame(result), budget["budget_chars"]),
            width="stretch",
        )
        common.table(
            views.fate_counts(result),
            column_config={
                "fate": "Fate",
                "messages": "Messages",
                "input_chars": st.column_config.NumberColumn("Characters in", format="localized"),
                "output_chars": st.column_config.NumberColumn("Characters out", format="localized"),
            },
        )

    st.subheader("Every message's fate")
    common.fate_legend()
    st.altair_chart(
        charts.fate_timeline(views.fate_frame(result), height=260, selectable=False),
        width="stretch",
    )
    st.page_link(
        "pages/timeline.py",
        label="Open a message in the fate timeline",
        icon=":material/arrow_forward:",
    )
    outcomes.needs_section(outcome)


def pin_the_task(result) -> None:
    """One click keeps the task: pin the first user message when it is not protected."""
    first = edits.first_user_index(state.conversation())
    if first is None or result.messages[first].protected:
        return
    fate = result.messages[first].fate.value
    left, right = st.columns([3, 1], vertical_alignment="center")
    left.info(
        f"The first user message (#{first}), the task in most agent runs, is not protected: "
        f"it is {fate} now.",
        icon=":material/flag:",
    )
    right.button(
        "Keep the first user message",
        key="pin_first_user",
        on_click=edits.set_pin,
        args=(first, True),
        icon=":material/keep:",
        width="stretch",
    )


page.run("Overview", draw)
