"""The page menu across the top of every page: one drop-down per section of
:data:`explorer.navigation.PAGES`, so the sidebar holds only the conversation and its parameters.

Streamlit's own navigation cannot be used for it: the explorer is a classic multipage app
(``pages/``), whose navigation Streamlit draws flat in the sidebar or not at all
(``client.showSidebarNavigation = false``), and ``st.navigation(position="top")`` would replace
the ``pages/`` folder.
"""

from __future__ import annotations

import streamlit as st

from explorer import navigation

#: The menu's container key (``st-key-page_menu`` in the page, for the browser tests).
KEY = "page_menu"


def draw(current: str) -> None:
    """The sections in a row, the one that holds the page titled ``current`` marked."""
    with st.container(horizontal=True, gap="small", key=KEY):
        for section, specs in navigation.sections().items():
            here = any(spec.title == current for spec in specs)
            with st.popover(section, type="primary" if here else "secondary"):
                for spec in specs:
                    st.page_link(spec.path, label=spec.title, icon=spec.icon)
