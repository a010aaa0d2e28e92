"""Strategies: memory-compact, keep-last-N, the seed-003 trim and LangChain's trim_messages on
the same history at the same character budget, message by message."""

import streamlit as st

from compactor.contract import LIMITS
from compactor.strategies.langchain_trim import INSTALL_HINT
from compactor.strategies.lineup import LANGCHAIN, SEED_TRIM
from explorer.charts import compare as compare_charts
from explorer.frames import compare as compare_frames
from explorer.session import cache, state
from explorer.session.cache import Outcome
from explorer.widgets import common, page

TOKEN_RULE = (
    "Tokens are estimated as ceil(characters / 4) per message, summed over the messages "
    "returned: the seed-003 trim's rule of thumb, not a tokenizer count. The seed-003 trim "
    "fits maxTokensEstimate = ceil(budget_chars / 4) under the same rule."
)


def draw(outcome: Outcome) -> None:
    result = outcome.result
    budget = result.request.params.budget_chars
    st.caption(
        f"Every strategy gets the same character budget, the sidebar's budget_chars "
        f"({budget:,}); memory-compact also uses the sidebar's other parameters."
    )
    with st.container(border=True):
        st.markdown("**Options of the seed-003 trim**")
        left, right = st.columns(2)
        keep_last = left.number_input(
            "keepLastMessages (empty: not set)",
            min_value=0,
            max_value=LIMITS["max_messages"],
            value=None,
            step=1,
            placeholder="not set",
            key="strategies_keep_last",
            persist_state="session",
            help="Keep only the last N messages before fitting the token estimate.",
        )
        drop_tools = right.toggle(
            "dropToolParts",
            key="strategies_drop_tool_parts",
            persist_state="session",
            help="Remove tool messages (role tool) and tool parts before fitting.",
        )
    comparison = cache.strategies(
        state.conversation(),
        result,
        keep_last_messages=None if keep_last is None else int(keep_last),
        drop_tool_parts=bool(drop_tools),
    )
    totals = compare_frames.strategy_totals(comparison)
    st.subheader("Totals")
    st.caption(
        f"Input: {comparison.input_messages:,} messages, {comparison.input_chars:,} "
        f"characters, about {comparison.input_tokens_estimate:,} tokens. {TOKEN_RULE}"
    )
    common.table(
        totals.drop(columns=["key", "available"]),
        column_config={
            "output_chars": st.column_config.NumberColumn("characters out", format="localized"),
            "tokens_estimate": st.column_config.NumberColumn(
                "tokens (estimate)", format="localized", help=TOKEN_RULE
            ),
            "output_messages": st.column_config.NumberColumn("messages out"),
            "cut_messages": st.column_config.NumberColumn("messages cut"),
            "budget_met": st.column_config.CheckboxColumn("budget met"),
            "how": None,  # in its own table below, wide enough to read
        },
    )
    st.caption("How each strategy was run")
    # a static table, so the longer settings wrap; the explorer's and engine's words only
    st.table(compare_frames.strategy_settings(totals), hide_index=True)
    missing = comparison.outcome(LANGCHAIN)
    if not missing.available:
        st.warning(
            "LangChain's trim_messages is not shown: the optional langchain-core package is "
            "not installed. Install it in the project's environment and restart the "
            "explorer:",
            icon=":material/extension_off:",
        )
        st.code(INSTALL_HINT, language="bash")
    st.altair_chart(compare_charts.strategy_totals(totals, budget), width="stretch")

    st.subheader("What each strategy keeps")
    st.altair_chart(
        compare_charts.strategy_strip(
            compare_frames.strategy_long(comparison), compare_frames.strategy_order(comparison)
        ),
        width="stretch",
    )
    names = {o.key: o.name for o in comparison.outcomes if o.available}
    common.table(
        compare_frames.strategy_messages(comparison).drop(columns=["index"]),
        column_config={
            "original_chars": st.column_config.NumberColumn("characters in", format="localized"),
            **{key: st.column_config.TextColumn(name) for key, name in names.items()},
            **{
                f"{key} chars": st.column_config.NumberColumn(
                    f"{name}: characters", format="localized"
                )
                for key, name in names.items()
            },
        },
    )

    seed = comparison.outcome(SEED_TRIM)
    st.subheader("The seed-003 trim's stats block")
    st.caption(f"{seed.how}")
    st.json(dict(seed.stats or {}), expanded=True)


page.run("Strategies", draw)
