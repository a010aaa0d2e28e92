"""The Replay page's panels, top to bottom, once the replays have run: the summary lines for a
design review, what is sent and what a prompt cache can reuse per turn, the drift (a click on a
loss opens its turn), every turn and every loss, and the history the model sees at a turn."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd
import streamlit as st

from compactor.analyses.outcomes import ReplayMisses
from compactor.analyses.pricing import price_histories
from compactor.model import Request
from explorer.frames import cost as cost_frames
from explorer.frames import outcomes as outcome_frames
from explorer.replay import charts, frames, replay_cache
from explorer.replay.runs import ReplayRun
from explorer.replay.widgets import ONLY_WATCHED_KEY
from explorer.widgets import common, outcomes, pricing

TURN_KEY = "replay_turn"
VIEW_KEY = "replay_view"
DRIFT_KEY = "replay_drift"
LAST_LOSS_KEY = "replay_last_loss"
MARK_KEY = "replay_marked"
LOSSES_KEY = "replay_every_loss"


def drift_noun() -> str:
    """What the drift counts: the watched facts when the controls ask for them alone."""
    return "watched facts" if st.session_state.get(ONLY_WATCHED_KEY) else "anchors"


def summary(
    runs: Sequence[ReplayRun], request: Request, watched: list[str], noun: str
) -> dict[str, ReplayMisses]:
    """One line per replay for a design review; returns each replay's misses (what the future
    needed that the replay no longer sent), for the misses chart."""
    st.caption("For a design review (copy with the button at the right):")
    misses = outcomes.replay_misses(runs, request, watched)
    for run in runs:
        line = f"{frames.summary_line(run, noun)} {outcome_frames.miss_clause(misses[run.loop])}"
        st.code(line, language=None, wrap_lines=True)
    return misses


def turns_of(
    runs: Sequence[ReplayRun], encoding: str | None
) -> tuple[pd.DataFrame, dict[str, list[int]] | None]:
    """The turns frame of every replay and, with an ``encoding``, the tokens each sent."""
    sent = {run.loop: replay_cache.tokens_sent(run, encoding) for run in runs} if encoding else None
    return frames.turns_frame(runs, sent), sent


def sent_and_reused(
    turns: pd.DataFrame,
    sent: Mapping[str, Sequence[int]] | None,
    encoding: str | None,
    budget_chars: int,
) -> None:
    """Side by side: the characters sent per turn against the budget, and the share a prompt
    cache can reuse."""
    left, right = st.columns(2)
    with left:
        st.subheader("Characters sent per turn")
        st.vega_lite_chart(spec=charts.sent_spec(turns, budget_chars), width="stretch")
        if sent:
            st.caption(frames.tokens_sentence(sent, encoding))
    with right:
        st.subheader("Cache-reusable share per turn")
        st.vega_lite_chart(spec=charts.prefix_spec(turns), width="stretch")
        st.caption(frames.smoothing_sentence(turns))


def drift(turns: pd.DataFrame, runs: Sequence[ReplayRun], noun: str) -> None:
    """What is lost so far, turn by turn; a click on a loss opens its turn in the history."""
    st.subheader(f"Drift: {noun} lost so far")
    st.caption(
        f"{frames.drift_sentence(turns, noun)} Click a loss (a diamond) to see the turn and "
        "the message where it happened."
    )
    event = st.vega_lite_chart(
        spec=charts.drift_spec(turns, frames.loss_points(runs)),
        width="stretch",
        key=DRIFT_KEY,
        on_select="rerun",
        selection_mode=charts.LOSS,
    )
    picked = charts.picked_loss(event)
    if picked is not None and picked != st.session_state.get(LAST_LOSS_KEY):
        # a new click moves the slider and the view; an old selection does not undo a move
        loop, turn, index = picked
        if loop in {run.loop for run in runs}:
            st.session_state[VIEW_KEY] = loop
            st.session_state[TURN_KEY] = turn
            st.session_state[MARK_KEY] = index
    st.session_state[LAST_LOSS_KEY] = picked


def every_turn(turns: pd.DataFrame, noun: str, encoding: str | None) -> None:
    """Every turn's figures, in an expander."""
    with st.expander(f"Every turn ({len(turns):,} rows)"):
        columns = {
            "stable_share": st.column_config.NumberColumn("stable share", format="percent"),
            "stable_share_smoothed": st.column_config.NumberColumn(
                "stable share, recent turns", format="percent"
            ),
            "anchors_lost_ever": st.column_config.NumberColumn(
                f"{noun} lost so far", help="Lost at this turn or before; never falls."
            ),
            "anchors_missing": st.column_config.NumberColumn(
                f"{noun} not in what is sent",
                help="Of the messages so far, none of their occurrences is whole in what is "
                "sent at this turn; falls when the turn's new message repeats them.",
            ),
            "anchors_back": st.column_config.NumberColumn(
                f"{noun} back", help="Missing the turn before, back with this turn's message."
            ),
        }
        if encoding:
            columns["tokens_out"] = st.column_config.NumberColumn(
                f"{encoding} tokens out", format="localized"
            )
        common.table(turns, column_config=columns)


def every_loss(runs: Sequence[ReplayRun]) -> None:
    """Every loss, in an expander drawn only when open (on a long replay, tens of thousands of
    rows); nothing when no replay lost anything."""
    losses = sum(len(run.losses) for run in runs)
    if losses:
        every = st.expander(f"Every loss ({losses:,})", key=LOSSES_KEY, on_change="rerun")
        if every.open:
            with every:
                common.table(frames.losses_frame(runs).drop(columns=["lost_so_far"]))


def history(runs: Sequence[ReplayRun]) -> None:
    """The history the model sees: a replay and a turn picked (the last turn at first), its
    messages, and the message a clicked loss marks."""
    st.subheader("The history the model sees")
    by_loop = {run.loop: run for run in runs}
    if st.session_state.get(VIEW_KEY) not in by_loop:
        st.session_state[VIEW_KEY] = runs[0].loop
    run = by_loop[st.radio("Loop", list(by_loop), key=VIEW_KEY, horizontal=True)]
    last = len(run.replay.histories) - 1
    if not 0 <= st.session_state.get(TURN_KEY, -1) <= last:
        st.session_state[TURN_KEY] = last
    turn = st.slider("Turn", 0, last, key=TURN_KEY)
    marked = st.session_state.get(MARK_KEY)
    shown = frames.marked_history(run, turn, marked)
    st.caption(frames.history_sentence(shown, turn))
    common.table(
        shown,
        column_config={
            frames.LOST_HERE: st.column_config.CheckboxColumn(frames.LOST_HERE, width="small"),
            "original_chars": "characters recorded",
            "content": st.column_config.TextColumn("content", width="large"),
        },
    )
    lost = shown[shown[frames.LOST_HERE]]
    if len(lost):
        row = lost.iloc[0]
        st.caption(f"Message {marked} at turn {turn} ({row['fate']}):")
        st.text(row["content"])


def cost(runs: Sequence[ReplayRun], misses: Mapping[str, ReplayMisses]) -> None:
    """What each loop's task costs at a chosen model's prices (docs/cost.md): every call's
    cache reads, cache writes, uncached input and output, beside the needs each loop met."""
    st.subheader("Cost of the task")
    st.caption(COST_RULE)
    model = pricing.choose_model("replay")
    if model is None:
        return
    costs = {run.loop: price_histories(run.replay.histories, run.recorded, model) for run in runs}
    recall = {
        loop: (m.needs - len(m.misses)) / m.needs if m.needs else None for loop, m in misses.items()
    }
    first = next(iter(costs.values()))
    st.caption(f"{cost_frames.cost_sentence(costs, model)} {cost_frames.tokens_note(first, model)}")
    common.table(cost_frames.loops_frame(costs, recall))
    with st.expander("Every call"):
        common.table(cost_frames.turns_frame(costs))


COST_RULE = (
    "A call is a turn the recorded assistant answered (and the last turn, when the log ends on "
    "a pending message). Its prompt is what the loop sends; the leading messages equal to the "
    "last call's are cache reads, the rest is written to the cache (or billed as input when the "
    "model has no cache-write price, or the prompt is under its minimum cacheable prefix); the "
    "assistant's recorded answer is its output. Calls are assumed within the cache lifetime: "
    "the import keeps no timestamps."
)
