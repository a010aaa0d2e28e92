"""Replay: the conversation sent through an agent loop that compacts on every turn (SPEC part C),
two settings side by side: what is sent against the budget, what a prompt cache can reuse, which
anchors drift away and where, and the history the model sees at any turn."""

import streamlit as st

from compactor.analyses import parse_phrases
from explorer.frames import outcomes as outcome_frames
from explorer.replay import cache as replay_cache
from explorer.replay import charts, frames
from explorer.replay import widgets as controls
from explorer.session import state
from explorer.session.cache import Outcome
from explorer.session.keys import PHRASES_KEY
from explorer.widgets import common, outcomes, page
from explorer.widgets.tuning import MAX_PHRASES

TURN_KEY = "replay_turn"
VIEW_KEY = "replay_view"
DRIFT_KEY = "replay_drift"
LAST_LOSS_KEY = "replay_last_loss"
MARK_KEY = "replay_marked"
LOSSES_KEY = "replay_every_loss"

RULE = (
    "The loop starts with the first message; each turn adds the next one and, as the setting "
    "says, shrinks the history, which is what the model is sent that turn. The stable prefix is "
    "the leading messages equal to the turn before's: what a provider's prompt cache can reuse. "
    "An anchor is lost at a turn when none of its occurrences so far is still sent whole."
)


def picked_loss(event) -> tuple[str, int, int] | None:
    points = ((event or {}).get("selection") or {}).get(charts.LOSS) or []
    for point in points:
        try:
            return str(point["setting"]), int(point["turn"]), int(point["index"])
        except (KeyError, TypeError, ValueError):
            continue
    return None


def draw(outcome: Outcome) -> None:
    conversation, params = state.conversation(), state.params()
    watched = parse_phrases(st.session_state.get(PHRASES_KEY) or "")[:MAX_PHRASES]
    st.caption(RULE)
    runs = controls.runs(conversation, params, watched)
    if not runs:
        st.info("Choose a setting to replay.", icon=":material/info:")
        return
    noun = "watched facts" if st.session_state.get(controls.ONLY_WATCHED_KEY) else "anchors"
    st.caption("For a design review (copy with the button at the right):")
    misses = outcomes.replay_misses(runs, outcome.result.request, watched)
    for run in runs:
        line = f"{frames.summary_line(run, noun)} {outcome_frames.miss_clause(misses[run.setting])}"
        st.code(line, language=None, wrap_lines=True)
    encoding = state.token_encoding()
    sent = (
        {run.setting: replay_cache.tokens_sent(run, encoding) for run in runs} if encoding else None
    )
    turns = frames.turns_frame(runs, sent)
    left, right = st.columns(2)
    with left:
        st.subheader("Characters sent per turn")
        st.vega_lite_chart(spec=charts.sent_spec(turns, params["budget_chars"]), width="stretch")
        if sent:
            st.caption(frames.tokens_sentence(sent, encoding))
    with right:
        st.subheader("Cache-reusable share per turn")
        st.vega_lite_chart(spec=charts.prefix_spec(turns), width="stretch")
        st.caption(frames.smoothing_sentence(turns))
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
    by_setting = {run.setting: run for run in runs}
    picked = picked_loss(event)
    if picked is not None and picked != st.session_state.get(LAST_LOSS_KEY):
        # a new click moves the slider and the view; an old selection does not undo a move
        setting, turn, index = picked
        if setting in by_setting:
            st.session_state[VIEW_KEY] = setting
            st.session_state[TURN_KEY] = turn
            st.session_state[MARK_KEY] = index
    st.session_state[LAST_LOSS_KEY] = picked
    outcomes.misses_chart(misses)
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
    losses = sum(len(run.losses) for run in runs)
    if losses:
        # drawn only when open: on a long replay, tens of thousands of rows
        every = st.expander(f"Every loss ({losses:,})", key=LOSSES_KEY, on_change="rerun")
        if every.open:
            with every:
                common.table(frames.losses_frame(runs).drop(columns=["lost_so_far"]))

    st.subheader("The history the model sees")
    if st.session_state.get(VIEW_KEY) not in by_setting:
        st.session_state[VIEW_KEY] = runs[0].setting
    run = by_setting[st.radio("Setting", list(by_setting), key=VIEW_KEY, horizontal=True)]
    last = len(run.replay.histories) - 1
    if not 0 <= st.session_state.get(TURN_KEY, -1) <= last:
        st.session_state[TURN_KEY] = last
    turn = st.slider("Turn", 0, last, key=TURN_KEY)
    history = frames.history_frame(run, turn)
    marked = st.session_state.get(MARK_KEY)
    history.insert(0, "lost here", history["index"].eq(marked).fillna(False))
    sent = history["position"].notna()
    st.caption(
        f"Turn {turn}: {int(sent.sum()):,} messages, {int(history.loc[sent, 'chars'].sum()):,} "
        f"characters sent; {int((~sent).sum()):,} recorded messages already gone."
    )
    common.table(
        history,
        column_config={
            "lost here": st.column_config.CheckboxColumn("lost here", width="small"),
            "original_chars": "characters recorded",
            "content": st.column_config.TextColumn("content", width="large"),
        },
    )
    shown = history[history["lost here"]]
    if len(shown):
        row = shown.iloc[0]
        st.caption(f"Message {marked} at turn {turn} ({row['fate']}):")
        st.text(row["content"])


page.run("Replay", draw)
