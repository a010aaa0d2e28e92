"""Small drawing helpers every page uses: the error guard, tables, problem tables, the fate
legend."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import streamlit as st

from compactor.errors import Problem
from explorer import compute, state, views
from explorer.compute import Outcome
from explorer.loaders import problem_rows
from explorer.theme import FATE_COLOURS, FATE_MEANINGS, FATES

log = logging.getLogger("explorer")

#: What a table shows in a cell that has no value (a duplicate's survival budget, an unscored
#: message's drop rank): never "None", "nan" or "<NA>".
MISSING = "—"

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


def table(data: Any, **kwargs: Any) -> Any:
    """``st.dataframe`` as every page draws it: full width, no index, and an em dash in an empty
    cell (numbers stay numbers, so they still sort and align as numbers)."""
    kwargs.setdefault("hide_index", True)
    kwargs.setdefault("width", "stretch")
    kwargs.setdefault("placeholder", MISSING)
    return st.dataframe(data, **kwargs)


def page_slice(count: int, per_page: int, what: str, key: str) -> slice:
    """The items of the page the user picks (a number box appears only when there are pages)."""
    start, stop, pages = views.paginate(count, 1, per_page)
    if pages > 1:
        label = f"Page of {what}, 1 to {pages}"
        page = st.number_input(label, 1, pages, 1, key=key, width=320)
        start, stop, _ = views.paginate(count, int(page), per_page)
    return slice(start, stop)


def show_problems(title: str, problems: Iterable[Problem]) -> None:
    """An error box with a fixed title, then each problem (where, what) as plain table text.

    Problem texts can quote the input (a role that is not allowed, a key), so they never go
    through Markdown.
    """
    st.error(title, icon=":material/error:")
    table(problem_rows(problems))


def fate_legend_html() -> str:
    """The five fates with their colours and meanings (the explorer's own text only)."""
    items = "".join(
        f'<span style="display:inline-flex;align-items:center;margin:0 1.1rem 0.3rem 0;">'
        f'<span style="width:0.9rem;height:0.9rem;border-radius:3px;background:{FATE_COLOURS[f]};'
        f'display:inline-block;margin-right:0.4rem;"></span>'
        f'<span style="font-weight:600">{f}</span>&nbsp;'
        f'<span style="opacity:0.75">{FATE_MEANINGS[f]}</span></span>'
        for f in FATES
    )
    return f'<div style="display:flex;flex-wrap:wrap;font-size:0.9rem;">{items}</div>'


def fate_legend() -> None:
    st.html(fate_legend_html())


def current() -> Outcome:
    """The engine's outcome for the loaded conversation and the sidebar's parameters."""
    return compute.outcome(state.conversation(), state.params())


def require_result() -> Outcome | None:
    """The current outcome, or None after showing why there is no result (schema errors)."""
    outcome = current()
    if outcome.result is None:
        show_problems(
            "The current request breaks the input schema; nothing was compacted.",
            outcome.errors,
        )
        return None
    return outcome
