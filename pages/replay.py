"""Replay: the conversation sent through an agent loop that compacts on every turn (SPEC part C),
two loops side by side: what is sent against the budget, what a prompt cache can reuse, which
anchors drift away and where, and the history the model sees at any turn."""

import streamlit as st

from compactor.analyses import parse_phrases
from explorer.replay import panels
from explorer.replay import widgets as controls
from explorer.session import state
from explorer.session.cache import Compaction
from explorer.session.keys import PHRASES_KEY
from explorer.widgets import outcomes, page
from explorer.widgets.tuning import MAX_PHRASES

RULE = (
    "The loop starts with the first message; each turn adds the next one and, as the loop "
    "says, shrinks the history, which is what the model is sent that turn. The stable prefix is "
    "the leading messages equal to the turn before's: what a provider's prompt cache can reuse. "
    "An anchor is lost at a turn when none of its occurrences so far is still sent whole."
)


def draw(compaction: Compaction) -> None:
    conversation, params = state.conversation(), state.params()
    watched = parse_phrases(st.session_state.get(PHRASES_KEY) or "")[:MAX_PHRASES]
    st.caption(RULE)
    runs = controls.runs(conversation, params, watched)
    if runs is None:  # a long conversation, waiting for the user to ask
        return
    if not runs:
        st.info("Choose a loop to replay.", icon=":material/info:")
        return
    noun = panels.drift_noun()
    misses = panels.summary(runs, compaction.result.request, watched, noun)
    encoding = state.token_encoding()
    turns, sent = panels.turns_of(runs, encoding)
    panels.sent_and_reused(turns, sent, encoding, params["budget_chars"])
    panels.drift(turns, runs, noun)
    outcomes.misses_chart(misses)
    panels.cost(runs, misses)
    panels.every_turn(turns, noun, encoding)
    panels.every_loss(runs)
    panels.history(runs)


page.run("Replay", draw)
