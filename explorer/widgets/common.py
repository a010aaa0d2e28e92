"""Small drawing helpers every page uses: tables, problem tables, the page picker, the legend."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pandas as pd
import streamlit as st

from compactor import CompactionResult
from compactor.errors import Problem
from compactor.wording import PERCENT_FORMAT as PERCENT
from compactor.wording import POINTS_FORMAT as POINTS
from explorer import navigation
from explorer.frames import checks, views
from explorer.frames.imports import problem_row_height, problem_rows
from explorer.session import cache, state
from explorer.theme import FATE_COLOURS, FATE_MEANINGS, FATES

#: What a table shows in a cell that has no value (a duplicate's survival budget, an unscored
#: message's drop rank): never "None", "nan" or "<NA>".
MISSING = "—"


def share_column(label: str | None = None, **kwargs: Any) -> Any:
    """A column of shares 0..1 shown as percentages with one decimal (``66.7%``)."""
    return st.column_config.NumberColumn(label, format=PERCENT, **kwargs)


def points_column(label: str | None = None, **kwargs: Any) -> Any:
    """A column of differences of shares (lifts) shown in percentage points (``+3.1 pp``)."""
    return st.column_config.NumberColumn(label, format=POINTS, **kwargs)


def table(data: Any, **kwargs: Any) -> Any:
    """``st.dataframe`` as every page draws it: full width, no index, and an em dash in an empty
    cell (numbers stay numbers, so they still sort and align as numbers). Shares and lifts
    follow the one convention of :mod:`compactor.wording` (issue 36): a column shown as a
    percentage (:func:`share_column`, or Streamlit's ``"percent"``) has one decimal, a lift
    (:func:`points_column`) is in percentage points; the frame keeps its shares 0..1 and the
    table shows them times 100."""
    kwargs.setdefault("hide_index", True)
    kwargs.setdefault("width", "stretch")
    kwargs.setdefault("placeholder", MISSING)
    data, kwargs["column_config"] = shown_in_percent(data, kwargs.get("column_config"))
    return st.dataframe(data, **kwargs)


def shown_in_percent(data: Any, config: dict[str, Any] | None) -> tuple[Any, Any]:
    """``data`` and ``config`` with every share or lift column times 100 and formatted as
    :data:`PERCENT` or :data:`POINTS` (a frame is copied, never changed)."""
    if not config or not isinstance(data, pd.DataFrame):
        return data, config
    config = dict(config)
    scaled = []
    for name, column in config.items():
        form = column.get("type_config", {}) if isinstance(column, dict) else {}
        if form.get("format") in ("percent", PERCENT, POINTS) and name in data.columns:
            shape = POINTS if form["format"] == POINTS else PERCENT
            config[name] = {**column, "type_config": {**form, "format": shape}}
            scaled.append(name)
    if scaled:
        data = data.assign(**{n: pd.to_numeric(data[n], errors="coerce") * 100 for n in scaled})
    return data, config


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
    problems = list(problems)
    # rows tall enough that a long problem wraps in its cell instead of ending at the edge
    table(
        problem_rows(problems),
        row_height=problem_row_height(problems),
        column_config={"problem": st.column_config.TextColumn("problem", width="large")},
    )


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


PAIRING_PAGE = "pages/pairing.py"


def pairing_warning(result: CompactionResult) -> None:
    """A warning linking to the Tool pairs page when compaction split a call from its result."""
    check = cache.pairing(state.conversation(), result)
    if check.report.ok:
        return
    st.warning(checks.pairing_summary(check.report), icon=":material/call_split:")
    st.page_link(
        navigation.file_of(PAIRING_PAGE),
        label="See every tool call and its result",
        icon=":material/arrow_forward:",
    )
