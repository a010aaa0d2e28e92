"""Watched facts: where phrases that matter (an order id, a date, a name) end up, and from which
budget they survive."""

import streamlit as st

from compactor.analyses import parse_phrases
from explorer.frames import checks
from explorer.session import cache, keys, state
from explorer.widgets import common, page
from explorer.widgets import tuning as tuning_widgets

MATCHING = (
    "A phrase matches wherever the text equals it ignoring case (any run of spaces or line "
    "breaks matches any other), accents counting. A fact survives when its message is "
    "returned and the phrase lies within the returned text: a trim that cuts inside or before "
    "it cuts it away at every budget."
)


def draw() -> None:
    text = st.text_area(
        "Phrases to watch, one per line",
        key=keys.PHRASES_KEY,
        persist_state="session",
        max_chars=keys.PHRASES_MAX_CHARS,
        height=140,
        placeholder="an order id, a date, a name...\nAC-1234\n12 March\nLeila",
        help="Kept while you visit other pages.",
    )
    st.caption(MATCHING)
    phrases = parse_phrases(text or "")
    if len(phrases) > tuning_widgets.MAX_PHRASES:
        st.warning(
            f"Watching the first {tuning_widgets.MAX_PHRASES} of {len(phrases):,} phrases.",
            icon=":material/warning:",
        )
        phrases = phrases[: tuning_widgets.MAX_PHRASES]
    compaction = page.require_result()
    if compaction is not None and not phrases:
        st.info("Enter a phrase above to see where it ends up.", icon=":material/info:")
    elif compaction is not None:
        result = compaction.result
        facts = cache.facts(state.conversation(), result, phrases)
        budget_range = cache.budget(state.conversation(), result).budget_range
        frame = checks.facts_frame(facts, budget_range)
        kept = int(frame["survives"].sum())
        cols = st.columns(3)
        cols[0].metric("Phrases watched", f"{len(frame):,}")
        cols[1].metric(
            "Survive now",
            f"{kept:,}",
            f"budget {result.request.params.budget_chars:,}",
            delta_color="off",
            delta_arrow="off",
        )
        cols[2].metric("Not in the history", f"{int((frame['status'] == 'not found').sum()):,}")
        st.subheader("Each phrase")
        common.table(
            frame,
            column_config={
                "phrase": st.column_config.TextColumn("phrase"),
                "status": st.column_config.TextColumn(
                    "now",
                    help="verbatim: returned; cut away: its message is returned but trimmed "
                    "before it; removed: its messages are duplicates or dropped",
                ),
                "survives": st.column_config.CheckboxColumn("survives now"),
                "messages": st.column_config.NumberColumn(
                    "messages", help="How many messages contain it"
                ),
                "where": st.column_config.TextColumn("which", width="medium"),
                "survives_from_budget": st.column_config.NumberColumn(
                    "survives from budget", format="localized"
                ),
                "smallest_budget": st.column_config.TextColumn("smallest budget that keeps it"),
            },
        )
        found = checks.fact_messages_frame(facts)
        if not found.empty:
            st.subheader("Each message containing a phrase")
            common.table(
                found.drop(columns=["index"]),
                column_config={
                    "fate": st.column_config.TextColumn("message fate"),
                    "at": st.column_config.TextColumn(
                        "first occurrence", help="Character positions in the message"
                    ),
                    "kept_chars": st.column_config.NumberColumn(
                        "characters returned when kept", format="localized"
                    ),
                    "status": "phrase now",
                    "survives_from_budget": st.column_config.NumberColumn(
                        "survives from budget", format="localized"
                    ),
                },
            )


page.run_input("Watched facts", draw)
