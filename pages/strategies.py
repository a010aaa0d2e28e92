"""Strategies: memory-compact, keep-last-N, the seed-003 trim and LangChain's trim_messages on
the same history at the same character budget, message by message; and, on a button, the
seed-003 LLM compact through a configured provider, with the anchors its summary lost."""

import streamlit as st

from compactor.contract import LIMITS
from compactor.errors import ProblemError
from compactor.providers import INSTALL_HINT, PROVIDERS_ENV
from compactor.strategies import LANGCHAIN, LANGCHAIN_HINT, SEED_TRIM, SEMANTIC_DEDUPE
from compactor.text import SEMANTIC_THRESHOLD as DEFAULT_THRESHOLD
from explorer.charts import compare as compare_charts
from explorer.frames import compare as compare_frames
from explorer.frames import llm as llm_frames
from explorer.frames import tokens as token_frames
from explorer.session import cache, llm, state
from explorer.session.cache import Outcome
from explorer.widgets import common, outcomes, page

TOKEN_RULE = (
    "Tokens are estimated as ceil(characters / 4) per message, summed over the messages "
    "returned: the seed-003 trim's rule of thumb, not a tokenizer count. The seed-003 trim "
    "fits maxTokensEstimate = ceil(budget_chars / 4) under the same rule, or counted with a "
    "real tokenizer when its option says so."
)
#: What the seed-003 trim counts maxTokensEstimate with: its estimate, or a tokenizer.
TRIM_COUNTERS = ("the estimate (characters / 4)", *token_frames.ENCODINGS)


def draw(outcome: Outcome) -> None:
    result = outcome.result
    budget = result.request.params.budget_chars
    st.caption(
        f"Every strategy gets the same character budget, the sidebar's budget_chars "
        f"({budget:,}); memory-compact also uses the sidebar's other parameters."
    )
    with st.container(border=True):
        st.markdown("**Options of the seed-003 trim and of semantic dedupe**")
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
        missing = token_frames.unavailable_note()
        counter = left.selectbox(
            "maxTokensEstimate counted with",
            TRIM_COUNTERS,
            key="strategies_trim_counter",
            disabled=missing is not None,
            help="The seed's estimate, ceil(characters / 4) per message, or a real tokenizer: "
            "the trim then fits the same number of real tokens.",
        )
        if missing is not None:
            left.caption(f"A real tokenizer needs the tokens extra: {token_frames.INSTALL_COMMAND}")
        semantic = right.toggle(
            "Also memory-compact with semantic dedupe",
            key="strategies_semantic",
            persist_state="session",
            help="Dedupe also removes a message whose meaning is close to an earlier one of its "
            "role (wordllama embeddings; the semantic extra), whatever its word overlap.",
        )
        threshold = right.slider(
            "Meaning threshold (cosine)",
            0.2,
            0.95,
            DEFAULT_THRESHOLD,
            0.05,
            key="strategies_semantic_threshold",
            disabled=not semantic,
        )
    encoding = None if missing is not None or counter == TRIM_COUNTERS[0] else counter
    comparison = cache.strategies(
        state.conversation(),
        result,
        keep_last_messages=None if keep_last is None else int(keep_last),
        drop_tool_parts=bool(drop_tools),
        semantic_threshold=float(threshold) if semantic else None,
        trim_encoding=encoding,
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
        st.code(LANGCHAIN_HINT, language="bash")
    by_meaning = comparison.outcome(SEMANTIC_DEDUPE) if semantic else None
    if by_meaning is not None and not by_meaning.available:
        st.info(by_meaning.unavailable, icon=":material/extension_off:")
    st.altair_chart(compare_charts.strategy_totals(totals, budget), width="stretch")
    outcomes.strategies_section(result, keep_last, drop_tools, encoding)

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
    llm_section(result)


def llm_section(result) -> None:
    """LLM compact (seeds/003) beside memory-compact, run on a button: a call costs money."""
    st.subheader("LLM compact (seeds/003, through a provider)")
    registry, problems = llm.providers()
    if problems:
        common.show_problems("The providers file cannot be used.", problems)
        return
    if not len(registry):
        st.info(
            f"No provider is configured. Name a providers TOML file in {PROVIDERS_ENV} before "
            "starting the explorer (the README shows one for OpenAI and one for a local "
            f"Ollama); the clients come with the llm extra: {INSTALL_HINT}",
            icon=":material/key_off:",
        )
        return
    with st.container(border=True):
        cols = st.columns([1, 1, 1, 1])
        name = cols[0].selectbox("Provider", list(registry), key="llm_provider")
        provider = registry[name]
        model = cols[1].text_input("model", value=provider.config.model or "", key="llm_model")
        keep_last = cols[2].number_input(
            "keepLastMessages", 0, LIMITS["max_messages"], 4, key="llm_keep_last"
        )
        target = cols[3].number_input(
            "targetTokensEstimate (empty: none)", 64, None, None, key="llm_target"
        )
        instructions = st.text_area(
            "instructions (up to 2,000 characters)", max_chars=2000, key="llm_instructions"
        )
    request = llm.request_for(
        state.conversation().messages,
        name,
        model,
        int(keep_last),
        instructions or "",
        None if target is None else int(target),
    )
    answer = llm.stored(request, provider)
    if st.button(
        "Run LLM compact",
        key="llm_run",
        icon=":material/smart_toy:",
        help="Calls the provider (it may cost money); the answer is kept for this request.",
        disabled=answer is not None or not model.strip(),
    ):
        try:
            with st.spinner(f"Asking {name}..."):
                answer = llm.run(request, provider)
        except ProblemError as error:
            common.show_problems("LLM compact did not run.", error.problems)
            return
    if answer is None:
        st.caption("Nothing has been sent to the provider for this request yet.")
        return
    common.table(
        llm_frames.totals_frame(result, answer),
        column_config={
            "output_chars": st.column_config.NumberColumn("characters out", format="localized"),
            "output_messages": st.column_config.NumberColumn("messages out"),
            "anchors_kept": st.column_config.NumberColumn("anchors kept"),
            "model_tokens": st.column_config.NumberColumn("summary model tokens (reported)"),
        },
    )
    lost = llm_frames.lost_by_summary(result, answer)
    st.markdown(
        f"**{len(lost):,}** anchors (ids, numbers, paths, ...) that memory-compact keeps are in "
        "no message LLM compact returns:"
    )
    if len(lost):
        common.table(lost)
    st.caption("The compaction block, as the endpoint returns it")
    st.json(answer["compaction"], expanded=True)
    with st.expander("The messages LLM compact returns"):
        for i, message in enumerate(answer["messages"]):
            st.caption(f"#{i} · {message['role']}")
            st.text(message["content"])


page.run("Strategies", draw)
