"""Anchors: the ids, numbers, dates, paths and names a later turn may need verbatim, and which of
them the current setting keeps, loses (at which stage) and from which budget it keeps them."""

import streamlit as st

from explorer.frames import anchors as anchor_frames
from explorer.session import cache, state
from explorer.session.cache import Compaction
from explorer.widgets import common, page, tuning

RULE = (
    "An anchor is an exact string found by fixed patterns: identifiers that mix letters and "
    "digits, numbers with a unit or currency, times and dates, URLs, e-mail addresses, file "
    "paths and code names; the phrases on Watched facts are anchors of kind watched. It is kept "
    "when at least one occurrence is in a returned message, within the returned text."
)


def draw(compaction: Compaction) -> None:
    result = compaction.result
    report = cache.anchors(state.conversation(), result, tuning.watched_phrases())
    st.caption(RULE)
    if not report.anchors:
        st.info("No anchor in this conversation.", icon=":material/info:")
        return
    cols = st.columns(3)
    total = len(report.anchors)
    lost = total - report.kept_count
    cols[0].metric("Anchors", f"{total:,}")
    # Shares of the anchors, not changes: no arrow and no colour (an up arrow on "27% kept"
    # reads as a gain where 73% were lost).
    for column, label, count in ((cols[1], "Kept", report.kept_count), (cols[2], "Lost", lost)):
        column.metric(
            label,
            f"{count:,}",
            f"{count / total:.0%} of the anchors",
            delta_color="off",
            delta_arrow="off",
        )
    st.markdown("; ".join(anchor_frames.stage_sentences(report)) + ".")
    st.subheader("By kind")
    common.table(anchor_frames.kinds_frame(report))
    st.subheader("Every anchor")
    frame = anchor_frames.anchors_frame(report)
    kinds = sorted(frame["kind"].unique())
    chosen = st.multiselect("Kinds", kinds, default=kinds, key="anchors_kinds")
    only_lost = st.toggle("Only the lost ones", key="anchors_only_lost")
    shown = frame[frame["kind"].isin(chosen)]
    if only_lost:
        shown = shown[shown["status"] != "kept"]
    common.table(
        shown.drop(columns=["survives_from_budget"]),
        column_config={
            "anchor": st.column_config.TextColumn("anchor", width="medium"),
            "lost_at": "lost at",
            "survives_from": "kept from budget_chars",
        },
    )
    if report.not_found:
        st.caption(f"{len(report.not_found):,} watched phrases occur nowhere in the conversation.")


page.run("Anchors", draw)
