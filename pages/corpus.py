"""Corpus: evaluate a grid of settings over many conversations, see which settings keep the most
anchors for their characters, and open the conversations a setting treats worst; and evaluate
another strategy of the registry over a grid of its own parameters."""

import streamlit as st

from explorer.corpus import labelled as corpus_questions
from explorer.corpus import results as corpus_results
from explorer.corpus import strategy as corpus_strategy
from explorer.corpus import widgets as corpus
from explorer.widgets import page

RULE = (
    "Every setting of the grid compacts every conversation of the corpus, at each budget: one "
    "row per conversation, setting and budget, equal to what compacting that one request gives. "
    "A setting is on the frontier when no other setting keeps more anchors with fewer output "
    "characters; the chart joins the frontier of each budget (the settings of that budget no "
    "other of it beats) and names its settings."
)


def draw() -> None:
    st.caption(RULE)
    corpus.loader()
    loaded = corpus.current()
    if loaded is None:
        st.info(
            "Load a corpus to evaluate: a file of many conversations, or a folder of them.",
            icon=":material/info:",
        )
        return
    st.subheader("Grid")
    st.text(f"Corpus: {loaded.name}, {len(loaded.items):,} conversations.")
    corpus_questions.panel(loaded)
    loaded = corpus.current() or loaded  # asking questions makes a corpus of its own
    grid = corpus.grid_form()
    if grid is not None:
        corpus.run(loaded, *grid)
    corpus_results.pick_run(loaded)
    shown = corpus_results.shown_run(loaded)
    if shown is None:
        st.info("Run the grid to see how each setting does.", icon=":material/info:")
    else:
        corpus_results.results(loaded, shown)
    corpus_strategy.panel(loaded)


page.run_input("Corpus", draw)
