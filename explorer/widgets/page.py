"""The explorer's frame: the entry's routing (page setup, the shared sidebar, Streamlit's
navigation) and the one opening of every page (its title and a guarded body).

``app.py`` calls :func:`route` on every run: it sets the page up, draws the sidebar once and hands
over to the page the address names, through ``st.navigation`` over
:data:`explorer.navigation.PAGES` (the menu across the top, one drop-down per section). Every
page script in ``pages/`` is one call::

    page.run("Scores", draw)          # draw(compaction) runs only when the request is valid

so each page looks the same however it was reached, and an unexpected error becomes a friendly
message, never a traceback.

A page opened by its address as the very first request to a fresh server is the one case that
needs care: until ``st.navigation`` has run once in the server, Streamlit routes such a request
the legacy way (the ``pages/`` folder's script alone, without the entry). :func:`run` sees that
the entry did not run and runs again through it, on the same page and with the same query.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import streamlit as st

from compactor.samples import DEFAULT_SAMPLE
from explorer import navigation
from explorer.session import cache, state
from explorer.session.cache import Compaction
from explorer.session.sample_cache import sample_conversations, sample_descriptions
from explorer.widgets import sidebar
from explorer.widgets.common import show_problems

log = logging.getLogger("explorer")

#: Set by the entry on each run before the page runs (:func:`route`), taken by :func:`run`.
ROUTED_KEY = "page_routed"
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


def configure() -> None:
    """The page's configuration, sent before the navigation: the browser takes a page's icon
    as the tab's icon only while the configuration has not set one, and the pages' material
    icons would be fetched from another site (the explorer loads nothing from other sites; an
    emoji icon becomes an inline SVG)."""
    st.set_page_config(
        page_title="Compaction explorer",
        page_icon="🗜️",
        layout="wide",
        initial_sidebar_state="expanded",
    )


def setup() -> None:
    """Configure the page, prepare the session's state and draw the shared sidebar."""
    configure()
    samples = sample_conversations()
    state.start(samples, DEFAULT_SAMPLE if DEFAULT_SAMPLE in samples else next(iter(samples)))
    with guarded():
        sidebar.draw(samples, sample_descriptions())
        state.sync_url(state.conversation(), state.params())
        sidebar.notices()


def pages() -> dict[str, list[Any]]:
    """Streamlit's pages, by section, as :data:`explorer.navigation.PAGES` lists them."""
    return {
        section: [
            st.Page(
                spec.file,
                title=spec.title,
                icon=spec.icon,
                url_path=spec.url_path or None,
                default=spec.default,
            )
            for spec in specs
        ]
        for section, specs in navigation.sections().items()
    }


def route() -> None:
    """The entry's run: set up, draw the sidebar once, then run the page the address names."""
    setup()
    chosen = st.navigation(pages(), position="top")
    st.session_state[ROUTED_KEY] = True
    chosen.run()


def _through_the_entry() -> None:
    """Make sure this run came through :func:`route`. When it did not (a page's address as a
    fresh server's first request, which Streamlit routes the legacy way: the ``pages/`` script
    alone), hand the routing to Streamlit's navigation and run again at once, through the entry,
    on the same page and with the same query. Nothing has been drawn yet, so no widget of this
    run is left for the user to touch."""
    if st.session_state.pop(ROUTED_KEY, False):
        return
    configure()
    st.navigation(pages(), position="top")  # from now on, every run starts at the entry
    st.rerun()


def current() -> Compaction:
    """The engine's compaction of the loaded conversation with the sidebar's parameters."""
    return cache.compaction(state.conversation(), state.params())


def require_result() -> Compaction | None:
    """The current compaction, or None after showing why there is no result (schema errors)."""
    compaction = current()
    if compaction.result is None:
        show_problems(
            "The current request breaks the input schema; nothing was compacted.", compaction.errors
        )
        return None
    return compaction


def open_at_top() -> None:
    """Ask the next page drawn to start at its top (call it before ``st.switch_page``)."""
    st.session_state[TOP_KEY] = True


def _title(title: str) -> None:
    st.title(title)
    if st.session_state.pop(TOP_KEY, False):
        st.html(_TO_TOP, width="content", unsafe_allow_javascript=True)


def run(title: str, draw: Callable[[Compaction], None]) -> None:
    """A page of the compaction: its title, then ``draw`` the current valid compaction."""
    _through_the_entry()
    _title(title)
    with guarded():
        compaction = require_result()
        if compaction is not None:
            draw(compaction)


def run_input(title: str, draw: Callable[[], None]) -> None:
    """A page that works before there is a valid result (the Conversation page, Watched facts)."""
    _through_the_entry()
    _title(title)
    with guarded():
        draw()
