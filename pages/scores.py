"""Scores: why drop removed what it removed, component by component, against the drop line."""

import streamlit as st

from compactor import contract
from explorer.charts import views as charts
from explorer.frames import views, words
from explorer.session.cache import Compaction
from explorer.widgets import common, page


def draw(compaction: Compaction) -> None:
    result = compaction.result
    st.caption(contract.SCORING_NOTE)
    frame = views.scores_frame(result)
    line = views.drop_line(result)
    if frame.empty:
        st.info(
            "No message reached the drop stage unprotected, so nothing was scored.",
            icon=":material/info:",
        )
    else:
        if line is None:
            st.success("Nothing was dropped: the budget held after trim.", icon=":material/check:")
        else:
            st.markdown(
                f"**Drop line {line:g}**: the highest score that was dropped. Drop removed "
                f"{len(result.dropping.dropped):,} messages, lowest score first, until the "
                "budget held."
            )
        order = st.segmented_control(
            "Order the bars by",
            ["input order", "drop order"],
            default="input order",
            key="scores_order",
        )
        by = "score" if order == "drop order" else "index"
        st.altair_chart(charts.scores(views.score_parts_frame(frame), line, by=by), width="stretch")
        common.table(
            frame.drop(columns=["recency_part", "role_part", "topic_part"]),
            column_config={
                "index": None,
                "role_weight": st.column_config.NumberColumn("role weight"),
                # the same as the drop order for a dropped message, empty for the others
                "drop_rank": None,
                "score": st.column_config.NumberColumn("score", format="%.6f"),
                "recency": st.column_config.NumberColumn("recency", format="%.4f"),
                "topic_overlap": st.column_config.NumberColumn("topic overlap", format="%.4f"),
                "drop_order": st.column_config.NumberColumn(
                    "drop order",
                    help="Position in the order drop would remove messages (1 goes first)",
                ),
                "chars": st.column_config.NumberColumn("characters", format="localized"),
            },
        )
    st.subheader("Topic terms")
    topics = views.topic_frame(result)
    st.caption(
        f"The {len(topics)} most frequent words longer than three characters in the whole "
        "history; a message's topic overlap is the share of its distinct words among them."
    )
    if topics.empty:
        st.info("This history has no word longer than three characters.")
    else:
        st.altair_chart(charts.topic_terms(topics), width="stretch")
        markup_terms(result)


def markup_terms(result) -> None:
    """Which topic terms the importer's ``[tool call ...]`` text feeds, and scores without it."""
    terms = words.markup_terms_frame(result)
    fed = terms[terms["in_markup"] > 0]
    if fed.empty:
        return
    st.subheader("Terms from import markup")
    st.markdown(
        f"The importer writes each tool call as `[tool call NAME id=ID]` text, so its own words "
        f"count as topic terms: **{len(fed):,}** of the terms occur in that markup (the table "
        "counts them). The contract counts them like any word; below, the scores the "
        "same formula gives without the markup's words (the tool's name and the call's id stay)."
    )
    common.table(
        terms,
        column_config={
            "rank": st.column_config.NumberColumn("rank"),
            "count": st.column_config.NumberColumn("count", format="localized"),
            "in_markup": st.column_config.NumberColumn("in import markup", format="localized"),
            "from_markup": st.column_config.CheckboxColumn("mostly markup"),
        },
    )
    if st.toggle("Show the scores without import markup", key="scores_without_markup"):
        scores = words.markup_scores_frame(result)
        moved = int(scores["moves"].sum())
        st.caption(
            f"{moved:,} of {len(scores):,} scored messages change place in the drop order "
            "without the markup's words. The engine's result is unchanged: this only explains it."
        )
        common.table(
            scores,
            column_config={
                "score": st.column_config.NumberColumn("score (contract)", format="%.6f"),
                "score_without": st.column_config.NumberColumn("without markup", format="%.6f"),
                "drop_order": st.column_config.NumberColumn("drop order"),
                "drop_order_without": st.column_config.NumberColumn("without markup"),
                "moves": st.column_config.CheckboxColumn("moves"),
            },
        )


page.run("Scores", draw)
