"""The one opening of every page: page setup, the shared sidebar, the page menu, the title, and a
guarded body.

The explorer is a classic Streamlit multipage app: ``app.py`` is the first page (Overview) and
Streamlit discovers the others in ``pages/``. Its own page list is hidden
(``client.showSidebarNavigation = false``); the menu above the title draws the sections of
:data:`explorer.navigation.PAGES` (:mod:`explorer.widgets.menu`). Every page is one call::

    page.run("Scores", draw)          # draw(outcome) runs only when the request is valid

so each page looks the same however it was reached, and an unexpected error becomes a friendly
message, never a traceback.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import streamlit as st

from compactor.samples import DEFAULT_SAMPLE
from explorer.session import cache, state
from explorer.session.cache import Outcome
from explorer.session.samples import sample_conversations, sample_descriptions
from explorer.widgets import menu, sidebar
from explorer.widgets.common import show_problems

log = logging.getLogger("explorer")

#: Set when a page is opened from another (``open_at_top``): the next page starts at its top.
TOP_KEY = "page_open_at_top"
#: Scrolls the main area to its top. Streamlit keeps the main area's scroll when a page
#: switches, so a page opened from far down another (the Corpus page's "Open with this
#: setting") would open in its middle. The explorer's own constant text, never content.
_TO_TOP = (
    "<script>for (const id of ['stMain', 'stAppViewContainer']) {"
    "const area = document.querySelector(`[data-testid='${id}']`);"
    "if (area) area.scrollTop = 0;} window.scrollTo(0, 0);</script>"
)

FRIENDLY_ERROR = (
    "Something went wrong while drawing this view. Your conversation and parameters are kept; "
    "try another view or change a parameter. If it happens again, download the request on the "
    "Output page and report it with the request attached."
)


@contextmanager
def guarded() -> Iterator[None]:
    """Run a page body; an unexpected error becomes a friendly message, never a traceback.

    Streamlit's own control flow (``st.rerun``, ``st.stop``) derives from BaseException and
    passes through untouched.
    """
    try:
        yield
    except Exception:
        log.exception("a view failed")
        st.error(FRIENDLY_ERROR, icon=":material/error:")


def setup() -> None:
    """Configure the page, prepare the session's state and draw the shared sidebar."""
    st.set_page_config(
        page_title="Compaction explorer",
        # an emoji icon becomes an inline SVG; a material icon would be fetched from another
        # site, and the explorer loads nothing from other sites
        page_icon="🗜️",
        layout="wide",
        initial_sidebar_state="expanded",
    )
    samples = sample_conversations()
    state.start(samples, DEFAULT_SAMPLE if DEFAULT_SAMPLE in samples else next(iter(samples)))
    state.keep_sidebar_values()
    with guarded():
        sidebar.draw(samples, sample_descriptions())
        state.sync_url(state.conversation(), state.params())
        sidebar.notices()


def current() -> Outcome:
    """The engine's outcome for the loaded conversation and the sidebar's parameters."""
    return cache.outcome(state.conversation(), state.params())


def require_result() -> Outcome | None:
    """The current outcome, or None after showing why there is no result (schema errors)."""
    outcome = current()
    if outcome.result is None:
        show_problems(
            "The current request breaks the input schema; nothing was compacted.", outcome.errors
        )
        return None
    return outcome


def open_at_top() -> None:
    """Ask the next page drawn to start at its top (call it before ``st.switch_page``)."""
    st.session_state[TOP_KEY] = True


def _title(title: str) -> None:
    st.title(title)
    if st.session_state.pop(TOP_KEY, False):
        st.html(_TO_TOP, width="content", unsafe_allow_javascript=True)


def run(title: str, draw: Callable[[Outcome], None]) -> None:
    """A page of the compaction: set up, title, then ``draw`` the current valid outcome."""
    setup()
    menu.draw(title)
    _title(title)
    with guarded():
        outcome = require_result()
        if outcome is not None:
            draw(outcome)


def run_input(title: str, draw: Callable[[], None]) -> None:
    """A page that works before there is a valid result (the Conversation page, Watched facts)."""
    setup()
    menu.draw(title)
    _title(title)
    with guarded():
        draw()
