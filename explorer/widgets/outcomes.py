"""Outcome widgets (SPEC part D): the k control, and one section per page that reads the engine's
outcome figures (Overview, Budget sweep, Replay, A/B compare, Strategies), each with the probe
recall of :mod:`explorer.widgets.probes` beside it when probes are given. Pages call one
function each; the figures come from :mod:`explorer.session.outcome_cache`, the tables from
:mod:`explorer.frames.outcomes`.

Anchors and probe answers are the conversation's own text: they appear in tables and code
blocks only, never in Markdown."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from compactor import CompactionResult
from compactor.analyses.outcomes import (
    BARE,
    FORMS,
    JUDGE,
    PROTECTED,
    ContinuationCheck,
    ReplayMisses,
    role_balance,
)
from compactor.model import Request
from compactor.strategies import StrategyComparison
from explorer import navigation
from explorer.charts import outcomes as charts
from explorer.frames import outcomes as frames
from explorer.session import outcome_cache, state
from explorer.session.cache import Compaction
from explorer.session.conversation import Conversation
from explorer.session.keys import FUTURE_WANTED_KEY
from explorer.widgets import common, probes, tuning

# The Conversation page's probe file, drawn by the probes widgets (kept here for its callers).
from explorer.widgets.probes import PROBE_FILE_KEY as PROBE_FILE_KEY
from explorer.widgets.probes import PROBE_TEXT_KEY as PROBE_TEXT_KEY
from explorer.widgets.probes import probes_panel as probes_panel

TIMELINE = "pages/timeline.py"
OPEN_PICK_KEY = "outcomes_open_message"
#: The k the user (or a link) asked for (the box shows it capped at n - 2).
WANTED_KEY = FUTURE_WANTED_KEY
RULE = (
    "The last k messages are the future, the others the past. The past is compacted with the "
    "sidebar's parameters; a future message needs an anchor (id, number, date, path, watched "
    "phrase) when an earlier message holds it too, and the need is met when one of its sources "
    "in the past is kept. Keep-last keeps the most recent whole messages that fit the same "
    "budget; random removes messages in a seeded random order until the rest fits (20 draws). "
    f"Judge: {JUDGE}."
)
#: The radio's words for each form of the baselines.
FORM_WORDS = {
    PROTECTED: "protected: keep first what the setting protects",
    BARE: "bare: recency or random over every message",
}
SHARE = st.column_config.NumberColumn(format="percent")


def future_control(messages: int) -> int:
    """The k number box (1 to n - 2, default 5), shared by every outcome view: the k asked
    for is kept apart from the box, so a short conversation's cap does not stick to the next."""
    low, high = frames.future_range(messages)
    st.session_state[state.FUTURE_KEY] = frames.clamp_future(
        st.session_state.get(WANTED_KEY), messages
    )
    value = st.number_input(
        "k: the last k messages are the future",
        min_value=low,
        max_value=high,
        step=1,
        key=state.FUTURE_KEY,
        on_change=_want,
        width=320,
        help=f"1 to {high} here. The past (the other messages) is compacted; the future's "
        "needs are judged.",
    )
    return int(value)


def _want() -> None:
    st.session_state[WANTED_KEY] = st.session_state[state.FUTURE_KEY]


def baselines_control() -> str:
    """The baselines' form every outcome view compares with (SPEC part D): protected by default
    (keep-last and random keep first, whole, the messages the setting protects by keep_roles
    and pins), or bare; the choice holds across the pages."""
    st.session_state[state.BASELINES_KEY] = state.baselines_form()
    value = st.radio(
        "Baselines",
        FORMS,
        key=state.BASELINES_KEY,
        format_func=FORM_WORDS.get,
        horizontal=True,
        on_change=_want_form,
        help="Protected: keep-last and random first keep, whole, what the setting protects "
        "(messages of keep_roles, pinned ones; not the last keep_last_n), then apply recency or "
        "random to the rest with the budget left, so a kept system prompt is compared fairly. "
        "Bare: they may drop it and spend its characters on other messages.",
    )
    return str(value)


def _want_form() -> None:
    st.session_state[state.BASELINES_WANTED_KEY] = st.session_state[state.BASELINES_KEY]


def current_check(result: CompactionResult, k: int) -> ContinuationCheck:
    conv = state.conversation()
    found = outcome_cache.continuation(conv, result, k, tuning.watched_phrases())
    return found.in_form(state.baselines_form())


def baselines_caption(check: ContinuationCheck) -> None:
    """Say which form the baselines are of, when the setting protects something."""
    note = frames.baselines_note(check)
    if note:
        st.caption(note)


def show_invalid(check: ContinuationCheck) -> bool:
    """Say why there is no figure (the past is not a valid request); True when so."""
    if check.valid:
        return False
    common.show_problems(
        f"The past, the first {check.past_messages:,} messages, is not a valid request, so "
        "there is no figure. Choose a smaller k, or load a longer conversation.",
        check.problems,
    )
    return True


def no_needs(check: ContinuationCheck) -> bool:
    """Say that the future needs nothing from the past; True when so."""
    if check.setting is not None and check.setting.needs:
        return False
    st.info(
        f"None of the last {check.future:,} messages needs an anchor that an earlier message "
        "holds: there is nothing to judge.",
        icon=":material/info:",
    )
    return True


def recall_metrics(check: ContinuationCheck) -> None:
    setting, keep_last, r = check.setting, check.keep_last, check.random
    assert setting is not None and keep_last is not None
    cols = st.columns(4)
    cols[0].metric(
        "Needed-later recall",
        frames.percent(setting.recall),
        f"{setting.met:,} of {setting.needs:,} needs met",
        delta_color="off",
        delta_arrow="off",
    )
    cols[1].metric(
        frames.baseline_label(check).capitalize(), frames.percent(keep_last.recall), delta=None
    )
    cols[2].metric(
        f"{frames.baseline_label(check, frames.RANDOM).capitalize()} ({r.draws} draws)",
        frames.percent(r.mean),
        f"{frames.percent(r.low)} to {frames.percent(r.high)} (2.5-97.5%)",
        delta_color="off",
        delta_arrow="off",
    )
    cols[3].metric(f"Lift over {frames.baseline_label(check)}", frames.signed_points(check.lift))


def needs_section(compaction: Compaction) -> ContinuationCheck:
    """Overview: what the next k messages need, beside keep-last and random; the unmet needs,
    each able to open its message; the role balance; the probes when a file is given. Returns
    the continuation check it showed."""
    result = compaction.result
    st.subheader("What the next k messages need")
    st.caption(RULE)
    k = future_control(len(result.messages))
    baselines_control()
    check = current_check(result, k)
    if not show_invalid(check) and not no_needs(check):
        baselines_caption(check)
        recall_metrics(check)
        common.table(
            frames.role_recall_frame(check),
            column_config={
                "recall": SHARE,
                "keep_last": st.column_config.NumberColumn(
                    frames.baseline_label(check), format="percent"
                ),
            },
        )
        unmet_table(frames.unmet_frame(check))
    left, right = st.columns([2, 3], gap="large")
    with left:
        st.markdown("**Role balance**")
        st.caption("Each role's share of the input's characters and of the output's.")
        st.altair_chart(
            charts.role_balance(frames.balance_frame(role_balance(result))), width="stretch"
        )
    with right:
        probes.probes_figures(result)
    return check


def unmet_table(frame: pd.DataFrame) -> None:
    if frame.empty:
        st.success("Every need of the future was kept.", icon=":material/check_circle:")
        return
    st.markdown(f"**Unmet needs ({len(frame):,})**")
    common.table(
        frame.drop(columns=["index"]),
        column_config={
            "message": st.column_config.TextColumn("needed by", width="small"),
            "anchor": st.column_config.TextColumn("anchor", width="medium"),
            "lost": st.column_config.TextColumn("where each past source was lost", width="large"),
        },
    )
    options = list(dict.fromkeys(int(i) for i in frame["index"]))
    left, right = st.columns([2, 1], vertical_alignment="bottom")
    if st.session_state.get(OPEN_PICK_KEY) not in options:
        st.session_state[OPEN_PICK_KEY] = options[0]
    picked = left.selectbox(
        "Message that needs them", options, key=OPEN_PICK_KEY, format_func=lambda i: f"#{i}"
    )
    if right.button(
        "Open it in the fate timeline",
        key="outcomes_open",
        icon=":material/open_in_new:",
        on_click=_pick,
        args=(picked,),
        width="stretch",
    ):
        st.switch_page(navigation.file_of(TIMELINE))


def _pick(index: int) -> None:
    st.session_state[state.PICKER_KEY] = index


def curve_section(result: CompactionResult, budgets: pd.DataFrame, extent: int) -> None:
    """Budget sweep: needed-later recall at every budget, on the axis of the budget charts
    (``budgets``, a budget steps frame), then the probe recall's when probes are given."""
    st.subheader("Needed-later recall against the budget")
    k = future_control(len(result.messages))
    baselines_control()
    check = current_check(result, k)
    if not show_invalid(check) and not no_needs(check):
        low, high = int(budgets["budget"].min()), int(budgets["budget"].max())
        current = check.budget_chars
        step = check.at(current)
        st.caption(
            f"The past (all but the last {check.future:,} messages) compacted at every budget, "
            "each line exact from one run. At the current budget of "
            f"{current:,}: this setting {frames.percent(step.setting)}, "
            f"{frames.baseline_label(check)} {frames.percent(step.keep_last)}, "
            f"{frames.baseline_label(check, frames.RANDOM)} {frames.percent(step.random.mean)} "
            f"({frames.percent(step.random.low)} to {frames.percent(step.random.high)}). "
            f"{frames.baselines_note(check)}"
        )
        frame = frames.curve_frame(check, high)
        st.altair_chart(
            charts.recall_curve(
                frame, current, (low, high), extent, names=frames.curve_names(check)
            ),
            width="stretch",
        )
    probes.curve_section(result, budgets, extent)


def replay_misses(
    runs: Sequence[Any], request: Request, watched: Sequence[str]
) -> dict[str, ReplayMisses]:
    """Replay: the misses of each replayed loop (cached per replay)."""
    conv = state.conversation()
    return {r.loop: outcome_cache.misses(conv, r.replay, request, watched) for r in runs}


def misses_chart(misses: Mapping[str, ReplayMisses]) -> None:
    """Replay: the misses per turn by role of the message that needed, one row per setting."""
    st.subheader("Needs missed per turn")
    st.caption(
        "A message misses a need when the history it arrives to holds no kept occurrence of an "
        "anchor it uses from an earlier message: the fact the compacted model no longer had."
    )
    frame = frames.misses_frame(misses)
    if frame.empty:
        st.info("No need was missed in these replays.", icon=":material/check_circle:")
        return
    st.altair_chart(charts.misses_per_turn(frame), width="stretch")


def ab_section(conv: Conversation, a: Compaction, b: Compaction) -> None:
    """A/B compare: needed-later recall of A and B, each beside its keep-last and random."""
    if a.result is None or b.result is None:
        return
    st.subheader("What the next k messages need, under A and under B")
    k = future_control(len(a.result.messages))
    form = baselines_control()
    watched = tuning.watched_phrases()
    checks = {
        side: outcome_cache.continuation(conv, o.result, k, watched).in_form(form)
        for side, o in (("A", a), ("B", b))
    }
    st.caption(
        f"Judge: {JUDGE}. Each side "
        "is beside keep-last and random at its own budget, in the form its baselines column "
        "names (protected: what that side's keep_roles and pins protect is kept first)."
    )
    for side, check in checks.items():
        if not check.valid:
            common.show_problems(f"{side}: the past is not a valid request.", check.problems)
    common.table(frames.ab_frame(checks), column_config=_recall_columns())
    probes.ab_figures({"A": a.result, "B": b.result})


def strategies_section(
    result: CompactionResult,
    keep_last_messages: float | None,
    drop_tool_parts: bool,
    trim_encoding: str | None,
    params: Mapping[str, Mapping[str, Any]] | None = None,
    comparison: StrategyComparison | None = None,
) -> None:
    """Strategies: each strategy run on the past (with the page's options for the seed trim,
    and strategies' own ``params``) and judged on the future's needs, by the spans each
    returns verbatim; beside it, when probes are given, each strategy's probe recall on the
    whole conversation (``comparison``, the page's lineup)."""
    st.subheader("What the next k messages need, by strategy")
    k = future_control(len(result.messages))
    baselines_control()
    check = current_check(result, k)
    needed = None
    if not show_invalid(check) and not no_needs(check):
        conv = state.conversation()
        past = outcome_cache.past_strategies(
            conv,
            result,
            check,
            None if keep_last_messages is None else int(keep_last_messages),
            bool(drop_tool_parts),
            trim_encoding,
            params,
        )
        found = outcome_cache.needs(conv, result.request, tuning.watched_phrases())
        st.caption(
            f"Every strategy compacts the past (all but the last {check.future:,} messages) at "
            "the same budget; the same judge reads what each returned: a need is met when a "
            "source lies whole in a part of its message returned verbatim (a placeholder holds "
            f"none). Judge: {JUDGE}; anchor-keep's note says why its figure flatters it. "
            f"{frames.baselines_note(check)}"
        )
        needed = frames.strategy_frame(found, past, check)
    probe_columns = None if comparison is None else probes.strategy_columns(result, comparison)
    if probe_columns is not None:
        needed = frames.with_probes(needed, probe_columns)
    if needed is not None:
        common.table(
            needed.drop(columns=["key"]),
            column_config=_recall_columns(check) | probes.probe_column_config(),
        )


def _recall_columns(check: ContinuationCheck | None = None) -> dict[str, Any]:
    keep_last = frames.baseline_label(check)
    return {
        "recall": st.column_config.NumberColumn("needed-later recall", format="percent"),
        "keep_last": st.column_config.NumberColumn(keep_last, format="percent"),
        "random": st.column_config.NumberColumn(
            f"{frames.baseline_label(check, frames.RANDOM)} (mean)", format="percent"
        ),
        "random_low": st.column_config.NumberColumn("random 2.5%", format="percent"),
        "random_high": st.column_config.NumberColumn("random 97.5%", format="percent"),
        "lift": common.points_column(
            f"lift over {keep_last}",
            help="Over keep-last at the same size: the budget, or for a strategy over the "
            "budget its own output size",
        ),
        "chars": st.column_config.NumberColumn("characters", format="localized"),
        "budget": st.column_config.TextColumn("budget"),
        "note": st.column_config.TextColumn(
            "note", help="Why a figure may flatter a strategy under this judge", width="large"
        ),
        "keep_last_at_size": common.share_column(
            f"{keep_last} at its size",
            help="Keep-last (in the form the radio chose) at a budget of this strategy's output "
            "size",
        ),
        "random_at_size": common.share_column(
            f"{frames.baseline_label(check, frames.RANDOM)} at its size",
            help="Random (mean) at a budget of this strategy's output size",
        ),
    }
