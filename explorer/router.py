"""The router: page setup, navigation, state and the shared sidebar, for app.py and every page.

Streamlit treats a ``pages/`` folder beside the main script as an old-style (v1) multipage app
until the process first calls ``st.navigation``: the first run on a fresh server (and every
``AppTest`` run) executes the page file directly, or app.py as a page. So every page starts with
:func:`ensure`, which runs the router itself when app.py did not run first, and the page looks
the same whichever way it was reached. On a real server that first run also gives the widgets
other ids than every later run would, so the user's first click would be lost: the router
reruns at once when it finds itself in such a run.
"""

from __future__ import annotations

import streamlit as st
from streamlit import config

try:  # private, used only to notice the server's first, old-style run (see above)
    from streamlit.runtime.pages_manager import PagesManager
except ImportError:  # pragma: no cover - a Streamlit without it has no old-style runs
    PagesManager = None

from compactor.samples import DEFAULT_SAMPLE
from explorer import navigation, sidebar, state, ui
from explorer.loaders import sample_conversations, sample_descriptions

ROUTED_KEY = "explorer_routed"


def setup() -> st.Page:
    """Configure the page, declare the navigation, prepare state and draw the sidebar."""
    st.set_page_config(
        page_title="Compaction explorer",
        # an emoji icon becomes an inline SVG; a page's material icon would be fetched from
        # fonts.gstatic.com, and the explorer loads nothing from other sites
        page_icon="🗜️",
        layout="wide",
        initial_sidebar_state="expanded",
    )
    legacy_run = PagesManager is not None and bool(PagesManager.uses_pages_directory)
    page = st.navigation(navigation.sections(), expanded=True)  # ends old-style runs for good
    if legacy_run and not config.get_option("global.appTest"):
        st.rerun()  # AppTest runs are all old-style, so their ids agree from run to run
    samples = sample_conversations()
    state.start(samples, DEFAULT_SAMPLE if DEFAULT_SAMPLE in samples else next(iter(samples)))
    with ui.guarded():
        sidebar.draw(samples, sample_descriptions())
        state.sync_url(state.conversation(), state.params())
        sidebar.notices()
    return page


def run() -> None:
    """app.py: set up, then run the page the user is on."""
    page = setup()
    st.session_state[ROUTED_KEY] = True
    page.run()


def ensure() -> None:
    """The first call of every page: set up unless app.py just did."""
    if not st.session_state.pop(ROUTED_KEY, False):
        setup()
