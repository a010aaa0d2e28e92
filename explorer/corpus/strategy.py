"""The Corpus page's panel for another strategy of the registry: the strategy and its own
parameters, one parameter over a list of values (the grid), listed budgets, run over the loaded
corpus with a progress bar; the summary per setting and budget, by needed-later recall too.
The rows last for the session (the workspace keeps memory-compact's runs)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import streamlit as st

from compactor.errors import ProblemError
from compactor.evaluation import (
    default_workers,
    evaluate_strategy,
    grid_points,
    parse_grid_option,
    parse_strategy_grid,
    strategy_grid_points,
)
from compactor.strategies import STRATEGIES
from explorer.corpus import frames, labelled
from explorer.corpus import store as corpus_store
from explorer.session import state
from explorer.widgets import common, strategy_form

KEY = "corpus_other"
RESULT_KEY = "corpus_other_result"
NO_GRID = "(none: one setting)"
TITLE = "This strategy could not be evaluated on the corpus; nothing was kept."


@dataclass(frozen=True)
class StrategyRun:
    """One evaluation of a registry strategy over a corpus."""

    corpus: str  # the corpus's key
    name: str
    settings: tuple[dict[str, Any], ...]
    budgets: tuple[int, ...]
    rows: tuple[dict[str, Any], ...]
    seconds: float


def _asked(name: str, params: dict[str, Any]) -> tuple[list[dict[str, Any]], list[int]]:
    """The settings (``params`` with the varied parameter's values) and the budgets asked
    for; ProblemError names a bad value."""
    strategy = STRATEGIES[name]
    vary = st.session_state.get(f"{KEY}_vary", NO_GRID)
    grid = {}
    if vary != NO_GRID:
        values = st.session_state.get(f"{KEY}_values") or ""
        grid = dict([parse_strategy_grid(strategy, f"{vary}={values}")])
    listed = parse_grid_option(f"budget_chars={st.session_state.get(f'{KEY}_budgets') or ''}")[1]
    grid_points({}, {"budget_chars": listed})  # each budget checked by the schema
    return strategy_grid_points(strategy, params, grid), sorted(listed)


def panel(corpus: corpus_store.Corpus) -> None:
    """Draw the panel; run on its button; show the last run's summary for this corpus."""
    st.subheader("Another strategy over the corpus")
    with st.container(border=True):
        name, params = strategy_form.strategy_choice(KEY)
        strategy = STRATEGIES[name]
        cols = st.columns([1, 2, 2, 1])
        varied = [p.name for p in strategy.parameters if p.kind != "names"]
        cols[0].selectbox("Vary", [NO_GRID, *varied], key=f"{KEY}_vary")
        cols[1].text_input(
            "its values (commas)", key=f"{KEY}_values", placeholder="1, 3, 5", help="The grid"
        )
        st.session_state.setdefault(f"{KEY}_budgets", str(int(state.params()["budget_chars"])))
        cols[2].text_input("budget_chars (commas)", key=f"{KEY}_budgets")
        cols[3].number_input("Workers", 1, default_workers(), key=f"{KEY}_workers")
        pressed = st.button(f"Run {name}", key=f"{KEY}_run", icon=":material/play_arrow:")
    if pressed and params is not None:
        try:
            settings, budgets = _asked(name, params)
        except ProblemError as error:
            common.show_problems(TITLE, error.problems)
        else:
            _run(corpus, name, settings, budgets)
    done: StrategyRun | None = st.session_state.get(RESULT_KEY)
    if done is None or done.corpus != corpus.key:
        return
    st.caption(
        f"{done.name} over {len(corpus.items):,} conversations, {len(done.settings):,} "
        f"settings, in {done.seconds:.1f} s. Needed-later recall: the last 5 messages are the "
        "future, the rest compacted by the strategy at the budget; a need is met when a source "
        "lies whole in what it returns verbatim (a placeholder holds none)."
    )
    if any(r.get("probes") for r in done.rows):
        st.caption(
            labelled.judge_label(corpus) + ": strict, partial and answer recall pooled over the "
            "questions, read from what the strategy returns, beside keep-last and random at the "
            "same budget."
        )
    common.table(
        frames.strategy_summary(done.rows),
        column_config={
            "budget_met": st.column_config.NumberColumn("budget met", format="percent"),
            "chars_median": st.column_config.NumberColumn("chars (median)", format="localized"),
            "anchors_kept": st.column_config.NumberColumn("anchors kept", format="percent"),
            "tool_pairs_broken": st.column_config.NumberColumn("tool pairs broken"),
            "needed_recall": st.column_config.NumberColumn("needed-later recall", format="percent"),
            **{
                name: common.share_column(name.replace("_", " "))
                for name in frames.STRATEGY_PROBE_SHARES
            },
        },
    )


def _run(
    corpus: corpus_store.Corpus, name: str, settings: list[dict[str, Any]], budgets: list[int]
) -> None:
    total = len(corpus.items)
    bar = st.progress(0.0, text=f"Evaluating 0 of {total:,} conversations")

    def advance(done: int, total: int) -> None:
        bar.progress(done / max(total, 1), text=f"Evaluating {done:,} of {total:,} conversations")

    start = time.monotonic()
    try:
        rows = tuple(
            evaluate_strategy(
                corpus.items,
                name,
                settings,
                budgets,
                workers=int(st.session_state.get(f"{KEY}_workers") or 1),
                progress=advance,
            )
        )
    except ProblemError as error:
        bar.empty()
        common.show_problems(TITLE, error.problems)
        return
    bar.empty()
    seconds = time.monotonic() - start
    st.session_state[RESULT_KEY] = StrategyRun(
        corpus.key, name, tuple(settings), tuple(budgets), rows, seconds
    )
