"""The Strategies page's parts: the options of the seed-003 trim and of semantic dedupe, the
comparison they ask for, and its tables with their headers and notes."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

import pandas as pd
import streamlit as st

from compactor import CompactionResult
from compactor.analyses.pricing import ModelPrice
from compactor.contract import LIMITS
from compactor.model import Request
from compactor.strategies import (
    FOCUS,
    LANGCHAIN,
    LANGCHAIN_HINT,
    SEMANTIC_DEDUPE,
    SettingError,
    StrategyComparison,
)
from compactor.text import DEFAULT_ENCODING, tokens_available
from compactor.text import SEMANTIC_THRESHOLD as DEFAULT_THRESHOLD
from explorer.frames import compare as compare_frames
from explorer.frames import safe_text
from explorer.frames import tokens as token_frames
from explorer.session import cache, state
from explorer.strategies import frames as strategy_frames
from explorer.widgets import common, pricing, strategy_form
from explorer.widgets import setting as setting_widgets

TOKEN_RULE = (
    "Tokens are estimated as ceil(characters / 4) per message, summed over the messages "
    "returned: the recency trim's rule of thumb, not a tokenizer count. drop-oldest "
    "fits maxTokensEstimate = ceil(budget_chars / 4) under the same rule, or counted with a "
    "real tokenizer when its option says so."
)
#: What the seed-003 trim counts maxTokensEstimate with: its estimate, or a tokenizer.
TRIM_COUNTERS = ("the estimate (characters / 4)", *token_frames.ENCODINGS)


@dataclass(frozen=True)
class StrategyOptions:
    """What the options form asks of the strategies beyond the sidebar's parameters."""

    keep_last_messages: int | None = None  # the seed-003 trim's keepLastMessages; None: not set
    drop_tool_parts: bool = False
    semantic_threshold: float | None = None  # None: no memory-compact with semantic dedupe
    trim_encoding: str | None = None  # None: maxTokensEstimate by the estimate
    #: A strategy's own parameters by its name (the others run with the lineup's).
    params: dict[str, dict[str, Any]] = field(default_factory=dict)


def options_from(
    keep_last: float | None,
    drop_tools: bool,
    counter: str,
    tokenizer_missing: bool,
    semantic: bool,
    threshold: float,
) -> StrategyOptions:
    """The options as the form's widgets give them: a tokenizer only when one is installed and
    chosen, a meaning threshold only when semantic dedupe is on."""
    estimate = tokenizer_missing or counter == TRIM_COUNTERS[0]
    return StrategyOptions(
        keep_last_messages=None if keep_last is None else int(keep_last),
        drop_tool_parts=bool(drop_tools),
        semantic_threshold=float(threshold) if semantic else None,
        trim_encoding=None if estimate else counter,
    )


def options_form() -> StrategyOptions:
    """The bordered form of the seed-003 trim's and semantic dedupe's options."""
    with st.container(border=True):
        st.markdown("**Options of drop-oldest (the recency trim) and of semantic dedupe**")
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
            help="The estimate ceil(characters / 4) per message, or a real tokenizer: "
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
    return options_from(keep_last, drop_tools, counter, missing is not None, semantic, threshold)


def own_parameters(options: StrategyOptions) -> StrategyOptions:
    """The bordered form of one strategy's own parameters (a strategy picked, an input per
    parameter): ``options`` with them, when they are valid."""
    with st.container(border=True):
        st.markdown("**A strategy's own parameters**")
        st.caption(
            "The others run with the lineup's: the registry's example where a peer's defaults "
            "do nothing. A trigger left empty follows the budget."
        )
        name, params = strategy_form.strategy_choice("strategies_own")
    if params is None:
        return options
    return replace(options, params={name: params})


def compare(result: CompactionResult, options: StrategyOptions) -> StrategyComparison:
    """Every strategy on the current conversation at ``result``'s budget, with ``options``."""
    return cache.strategies(
        state.conversation(),
        result,
        keep_last_messages=options.keep_last_messages,
        drop_tool_parts=options.drop_tool_parts,
        semantic_threshold=options.semantic_threshold,
        trim_encoding=options.trim_encoding,
        params=options.params,
    )


def input_caption(comparison: StrategyComparison) -> str:
    return (
        f"Input: {comparison.input_messages:,} messages, {comparison.input_chars:,} "
        f"characters, about {comparison.input_tokens_estimate:,} tokens. {TOKEN_RULE}"
    )


def totals_table(totals: pd.DataFrame) -> None:
    """Each strategy's output in characters, tokens and messages, and whether it met the budget."""
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


def unavailable_notes(comparison: StrategyComparison, options: StrategyOptions) -> None:
    """Say which strategies could not run for a missing optional package, and how to add it."""
    if not comparison.result(LANGCHAIN).available:
        st.warning(
            "LangChain's trim_messages is not shown: the optional langchain-core package is "
            "not installed. Install it in the project's environment and restart the "
            "explorer:",
            icon=":material/extension_off:",
        )
        st.code(LANGCHAIN_HINT, language="bash")
    if options.semantic_threshold is not None:
        by_meaning = comparison.result(SEMANTIC_DEDUPE)
        if not by_meaning.available:
            st.info(by_meaning.unavailable, icon=":material/extension_off:")


def messages_table(comparison: StrategyComparison) -> None:
    """Message by message, what each strategy that ran kept of it, headed by its name."""
    names = {o.key: o.name for o in comparison.results if o.available}
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


#: The most messages the focus section shows, kept text and all.
FOCUS_SHOWN = 30


def with_focus(options: StrategyOptions, focus: str | None) -> StrategyOptions:
    """``options`` with focus given ``focus`` (None: focus's own default, the pending turn)."""
    if focus is None:
        return options
    own = dict(options.params.get(FOCUS, {}))
    return replace(options, params={**options.params, FOCUS: {**own, "focus": focus}})


def focus_section(comparison: StrategyComparison) -> None:
    """What focus kept, the focus terms highlighted in the kept text (escaped text with marks,
    never content as HTML or Markdown)."""
    focus = comparison.result(FOCUS)
    st.subheader("What focus kept")
    if not focus.available:
        st.caption(focus.unavailable or "focus did not run")
        return
    source = focus.parameters.get("focus_from", "")
    terms = list(focus.parameters.get("focus_terms", ()))
    st.caption(
        safe_text.markdown_literal(
            f"The focus: {source}. Its terms (at most 30 shown): {', '.join(terms) or 'none'}. "
            "Each message focus returned, whole or cut to its kept parts, the terms marked."
        )
    )
    kept = strategy_frames.focus_kept(focus)
    for row in kept.head(FOCUS_SHOWN).itertuples():
        st.caption(
            safe_text.markdown_literal(
                f"#{row.message} · {row.role} · {row.kept} · terms: {', '.join(row.terms) or '-'}"
            )
        )
        st.html(safe_text.terms_html(row.text, terms, height=200))
    if len(kept) > FOCUS_SHOWN:
        st.caption(f"The first {FOCUS_SHOWN} of {len(kept):,} kept messages are shown.")


#: Above this many messages or characters the cost per task waits for a button (each strategy
#: is replayed turn by turn: seconds on a short chat, minutes on a long session).
TASK_COST_MESSAGES = 60
TASK_COST_CHARS = 100_000
TASK_COST_KEY = "strategies_task_cost"


def task_costs(result: CompactionResult, comparison: StrategyComparison) -> None:
    """Each strategy's cost per task at a chosen model, beside the needs its replay met."""
    st.subheader("Cost per task")
    st.caption(
        "Each strategy compacts the history on every turn of the conversation (a replay, as on "
        "the Replay page) at the sidebar's budget with the lineup's parameters; each call is "
        "priced at the model chosen: cache reads for the messages unchanged since the last "
        "call, cache writes for the rest, and the recorded answers as output (docs/cost.md). "
        "A strategy that rewrites the start of the history each turn pays for it here."
    )
    model = pricing.choose_model("strategies")
    if model is None:
        return
    request = result.request
    small = (
        len(request.messages) <= TASK_COST_MESSAGES
        and sum(len(c) for c in request.contents) <= TASK_COST_CHARS
    )
    wanted = small or st.button(
        f"Price the task for every strategy ({len(request.messages):,} messages)",
        key=TASK_COST_KEY,
    )
    if not wanted:
        return
    encoding = DEFAULT_ENCODING if tokens_available() else None
    keys = [o.key for o in comparison.results if o.available]
    frame = _task_costs(
        json.dumps(request.to_dict()),
        tuple(keys),
        json.dumps(model.to_dict()),
        encoding,
        _request=request,
        _model=model,
    )
    how = "o200k_base tokens" if encoding else "tokens estimated as characters / 4"
    st.caption(
        f"Counted in {how}; approximate for {model.name} unless its tokenizer is that one. "
        "Calls are assumed within the cache lifetime (the import keeps no timestamps)."
    )
    common.table(
        frame,
        column_config={
            "cost per task (USD)": st.column_config.NumberColumn(
                "cost per task (USD)", format="$%.4f"
            )
        },
    )


@st.cache_data(show_spinner="Replaying every strategy...", max_entries=8)
def _task_costs(
    request_key: str,
    keys: tuple[str, ...],
    model_key: str,
    encoding: str | None,
    *,
    _request: Request,
    _model: ModelPrice,
) -> pd.DataFrame:
    """Cached by the request's and the model's JSON (the objects themselves are not hashed)."""
    return strategy_frames.task_costs_frame(_request, keys, _model, encoding)


def download_setting(comparison: StrategyComparison, sidebar: dict[str, Any]) -> None:
    """Pick a strategy of the table and download it as a ``compaction.toml``: its strategy and
    parameters as run here, at this budget."""
    ran = [r for r in comparison.results if r.available]
    if not ran:
        return
    left, right = st.columns([3, 1], vertical_alignment="bottom")
    key = left.selectbox(
        "Setting of the strategy", [r.key for r in ran], key="strategies_setting_pick"
    )
    chosen = next(r for r in ran if r.key == key)
    try:
        setting = strategy_frames.strategy_setting(chosen, sidebar)
    except SettingError as error:
        left.info(
            "No setting file for this row: " + "; ".join(p.message for p in error.problems),
            icon=":material/tune:",
        )
        return
    with right:
        setting_widgets.download(setting, "strategies_download")
