"""Graded compactions: each compaction the loaded log recorded, its summary beside every
strategy at the same size, judged on what the conversation needed afterwards."""

import streamlit as st

from compactor.analyses import GradedCompaction
from compactor.analyses.pricing import graded_costs
from explorer.graded import frames as graded_frames
from explorer.session import cache, state
from explorer.session.cache import Compaction
from explorer.widgets import common, page, pricing

NONE_RECORDED = (
    "The loaded conversation has no recorded compaction. Import a Claude Code transcript "
    "(a compact_boundary record and its isCompactSummary message) or a Codex rollout (a "
    "compacted item) on the Conversation page to grade the summaries the tool wrote."
)
HOW = (
    "At each compaction, every strategy compacts the history before it with budget_chars set to "
    "the characters of the summary the tool wrote (at least 100), and each is judged on the "
    "messages after it, up to the next compaction: needed-later recall (a later message uses an "
    "anchor the history held; the summary keeps it when the anchor's text occurs in it), "
    "re-read recall (a file the agent read before it and read again after it, with no edit "
    "between, is held when half of the earlier result's characters were kept verbatim, or, for "
    "the summary, half of its lines occur in it) and the history's anchors kept. The sidebar's "
    "parameters apply to memory-compact, except the budget."
)


def draw(compaction: Compaction) -> None:
    conv = state.conversation()
    if not conv.compactions:
        st.info(NONE_RECORDED, icon=":material/info:")
        return
    st.caption(HOW)
    graded = cache.graded(conv, compaction.result)
    st.metric("Recorded compactions", f"{len(graded.compactions):,}")
    model = pricing.choose_model("graded")
    for g in graded.compactions:
        st.subheader(graded_frames.title(g))
        with st.expander(f"History before it: {g.past_messages:,} messages", expanded=False):
            common.table(graded_frames.history_frame(conv.messages, g.compaction.boundary))
        st.caption(f"The summary the tool wrote ({len(g.compaction.summary):,} characters)")
        st.text(g.compaction.summary or "(the log holds no summary text)")
        if not g.valid:
            common.show_problems("This compaction cannot be graded", g.problems)
            continue
        said = graded_frames.verdict(g)
        if said:
            st.write(said)
        costs = graded_costs(g, model) if model is not None else None
        if costs is not None:
            st.caption(graded_frames.cost_sentence(g, costs, model.name))
        common.table(
            graded_frames.lineup_frame(g, costs),
            column_config={
                "recorded": st.column_config.CheckboxColumn(
                    "recorded", help="The summary the tool wrote"
                ),
                "chars": st.column_config.NumberColumn("characters", format="localized"),
                "size": st.column_config.TextColumn(
                    "size",
                    help="At the summary's size: at most 10% more characters than it. A "
                    "strategy over that is flagged and not compared.",
                ),
                "recall": common.share_column(
                    "needed-later recall", help="Met needs / needs after it"
                ),
                "needs_met": "needs met",
                "reread_recall": common.share_column(
                    "re-read recall",
                    help="Judge: re-read. Files read again after it whose earlier result this "
                    "kept / files read again",
                ),
                "rereads_held": "re-reads held",
                "anchors_kept": "anchors kept",
                "cost": st.column_config.NumberColumn(
                    "cost (USD)",
                    format="$%.4f",
                    help="The summary call and the cache rewrite after it (docs/cost.md)",
                ),
            },
        )
        draw_rereads(g)


def draw_rereads(g: GradedCompaction) -> None:
    """The re-read judge in words, then the files read again and the repeats, one click away."""
    said = graded_frames.rereads_said(g)
    if said is None:
        return
    st.caption(said)
    found = g.rereads
    if found.rereads or found.searches or found.commands:
        with st.expander(f"Read again after it: {len(found.rereads):,} files", expanded=False):
            common.table(
                graded_frames.rereads_frame(g),
                column_config={
                    "before": "read at message",
                    "before_lines": "its lines",
                    "chars": st.column_config.NumberColumn("characters", format="localized"),
                    "after": "read again at message",
                    "after_lines": "lines read again",
                    "chars_again": st.column_config.NumberColumn(
                        "characters read again", format="localized"
                    ),
                },
            )
            st.caption("Searches and commands run again (counted apart, not needs)")
            common.table(graded_frames.repeats_frame(g))


page.run("Graded compactions", draw)
