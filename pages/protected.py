"""Protected: which messages the pin stage protected, why, and what they cost of the budget."""

import streamlit as st

from explorer.charts import views as charts
from explorer.frames import views
from explorer.session.cache import Compaction
from explorer.widgets import common, page


def draw(compaction: Compaction) -> None:
    result, budget = compaction.result, compaction.response["budget"]
    counts = views.protection_counts(result)
    frame = views.protected_frame(result)
    cols = st.columns(5)
    cols[0].metric("Protected messages", f"{len(frame):,} of {len(result.messages):,}")
    cols[1].metric("Pinned (pin)", counts["pin"])
    cols[2].metric("Kept role (role)", counts["role"])
    cols[3].metric("Recent (recent)", counts["recent"])
    cols[4].metric(
        "Protected characters",
        f"{budget['protected_chars']:,}",
        f"budget {budget['budget_chars']:,}",
        delta_color="off",
        delta_arrow="off",
    )
    if budget["protected_exceeds_budget"]:
        st.warning(
            f"The protected messages alone hold {budget['protected_chars']:,} characters, "
            f"more than the budget of {budget['budget_chars']:,}. Protected messages are "
            "never removed, so every unprotected message is dropped and the budget cannot "
            "be met. Lower keep_last_n, remove a role from keep_roles or unpin a message.",
            icon=":material/warning:",
        )
    if frame.empty:
        st.info("No message is protected with these parameters.", icon=":material/info:")
    else:
        st.altair_chart(
            charts.protected_against_budget(frame, budget["budget_chars"]), width="stretch"
        )
        common.table(
            frame.drop(columns=["index", "start", "end"]),
            column_config={
                "chars": st.column_config.NumberColumn("characters", format="localized"),
                "preview": st.column_config.TextColumn("text (start)", width="large"),
            },
        )


page.run("Protected", draw)
