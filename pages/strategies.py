"""Strategies: every strategy of the registry (memory-compact, keep-last-N, the seed-003 trim,
LangChain's trim_messages, the peers' context editing, masking, pruning and truncation, and
anchor-keep) on the same history at the same character budget, message by message, one of them
with its own parameters; and, on a button, the seed-003 LLM compact through a configured
provider, with the anchors its summary lost."""

import streamlit as st

from compactor.contract import LIMITS
from compactor.errors import ProblemError
from compactor.providers import INSTALL_HINT, PROVIDERS_ENV
from compactor.strategies import DROP_OLDEST
from explorer.charts import compare as compare_charts
from explorer.frames import compare as compare_frames
from explorer.frames.views import STRIP_BINS, TIMELINE_WINDOW
from explorer.session import llm, state
from explorer.session.cache import Compaction
from explorer.strategies import frames as llm_frames
from explorer.strategies import widgets as strategies
from explorer.widgets import common, outcomes, page
from explorer.widgets import focus as focus_widgets
from explorer.widgets import report as report_widgets


def draw(compaction: Compaction) -> None:
    result = compaction.result
    budget = result.request.params.budget_chars
    st.caption(
        f"Every strategy gets the same character budget, the sidebar's budget_chars "
        f"({budget:,}); memory-compact also uses the sidebar's other parameters."
    )
    options = strategies.own_parameters(strategies.options_form())
    focus = focus_widgets.focus_box(result.request, "strategies_focus")
    options = strategies.with_focus(options, focus)
    comparison = strategies.compare(result, options)
    totals = compare_frames.strategy_totals(comparison)
    st.subheader("Totals")
    st.caption(strategies.input_caption(comparison))
    strategies.totals_table(totals)
    strategies.download_setting(comparison, state.params())
    st.caption("How each strategy was run")
    # a static table, so the longer settings wrap; the explorer's and engine's words only
    st.table(compare_frames.strategy_settings(totals), hide_index=True)
    strategies.unavailable_notes(comparison, options)
    st.altair_chart(compare_charts.strategy_totals(totals, budget), width="stretch")
    report_widgets.decision(result, "strategies_download_report", comparison)
    outcomes.strategies_section(
        result,
        options.keep_last_messages,
        options.drop_tool_parts,
        options.trim_encoding,
        options.params,
        comparison,
    )
    strategies.task_costs(result, comparison)

    st.subheader("What each strategy keeps")
    long = compare_frames.strategy_long(comparison)
    order = compare_frames.strategy_order(comparison)
    count = len(result.messages)
    if count <= TIMELINE_WINDOW:
        st.altair_chart(compare_charts.strategy_strip(long, order), width="stretch")
    else:  # a cell per message would be thousands of hairlines: runs, said as such
        runs = compare_frames.strategy_runs(long, STRIP_BINS)
        width = -(-count // STRIP_BINS)
        st.altair_chart(compare_charts.strategy_runs_strip(runs, order), width="stretch")
        st.caption(
            f"{count:,} messages: each cell is a run of {width:,} consecutive messages, "
            "coloured by what most of them got (its tooltip counts each); the table below has "
            "every message."
        )
    strategies.messages_table(comparison)
    strategies.focus_section(comparison)

    seed = comparison.result(DROP_OLDEST)
    st.subheader("What drop-oldest counted (its stats block)")
    st.caption(f"{seed.how}")
    st.json(dict(seed.stats or {}), expanded=True)
    llm_section(result)


def llm_section(result) -> None:
    """LLM compact (seeds/003) beside memory-compact, run on a button: a call costs money."""
    st.subheader("LLM compact (a language model summarises, through a provider)")
    registry, problems = llm.providers()
    if problems:
        common.show_problems("The providers file cannot be used.", problems)
        return
    if not len(registry):
        st.info(
            f"No provider is configured. Name a providers TOML file in {PROVIDERS_ENV} before "
            "starting the explorer (docs/llm-compact.md shows one for OpenAI and one for a local "
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
