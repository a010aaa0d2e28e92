"""Driving the explorer with AppTest: start, load a conversation, move parameters, read."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pandas as pd
import pyarrow as pa
import streamlit as st
from streamlit.testing.v1 import AppTest

from compactor import CompactionResult, run, validate
from compactor.contract import AUTO_LIMITS
from compactor.wording import PERCENT_FORMAT, POINTS_FORMAT
from explorer.session import state
from explorer.session.conversation import Conversation, params_from
from explorer.widgets.page import FRIENDLY_ERROR
from harness.app_server import ROOT

#: The entry AppTest runs (app.py's one call, from a folder with no pages/ beside it).
APP = ROOT / "harness" / "explorer_entry.py"
TIMEOUT = 60
WIDGET = {
    "budget_chars": ("number_input", state.PARAM_KEYS["budget_chars"]),
    "keep_last_n": ("slider", state.PARAM_KEYS["keep_last_n"]),
    "keep_roles": ("multiselect", state.PARAM_KEYS["keep_roles"]),
    "duplicate_threshold": ("slider", state.PARAM_KEYS["duplicate_threshold"]),
    "max_message_chars": ("slider", state.PARAM_KEYS["max_message_chars"]),
}


def start(query: dict[str, str] | None = None) -> AppTest:
    """A fresh session of the app, run once (on the default page)."""
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    if query:
        at.query_params.update(query)
    return at.run()


def load(at: AppTest, request: dict[str, Any], label: str = "Test conversation") -> AppTest:
    """Load ``request`` (messages and parameters) as the conversation, as an import would."""
    conv = Conversation(
        messages=tuple(request["messages"]),
        params=params_from(request, {}),
        label=label,
        source="loaded",
    )
    at.session_state[state.PENDING_KEY] = (conv, None)
    return at.run()


def goto(at: AppTest, path: str) -> AppTest:
    """Open the page at ``path`` (``pages/timeline.py``, as the navigation names it)."""
    return at.switch_page(os.path.relpath(ROOT / path, APP.parent)).run()


def assert_clean(at: AppTest) -> None:
    """No exception reached the page and no view failed."""
    assert not at.exception, [e.value for e in at.exception]
    assert FRIENDLY_ERROR not in [e.value for e in at.error]


def widget(at: AppTest, name: str):
    kind, key = WIDGET[name]
    return getattr(at, kind)(key=key)


def set_param(at: AppTest, name: str, value: Any) -> AppTest:
    return widget(at, name).set_value(value).run()


def params(at: AppTest) -> dict[str, Any]:
    """The parameters the sidebar shows."""
    out = {name: widget(at, name).value for name in WIDGET}
    out["keep_roles"] = list(out["keep_roles"])
    return out


def request_of(at: AppTest) -> dict[str, Any]:
    """The request the app holds: its conversation with the sidebar's parameters."""
    return at.session_state[state.CONVERSATION_KEY].request(params(at))


def engine(at: AppTest) -> CompactionResult:
    """What the engine itself says about the app's current request."""
    return run(validate(request_of(at), limits=AUTO_LIMITS))


def arrow_frame(data: bytes) -> pd.DataFrame:
    """A data set Streamlit sent to the browser (Arrow IPC stream bytes) as a data frame."""
    return pa.ipc.open_stream(data).read_pandas()


def charts(at: AppTest) -> list[tuple[dict[str, Any], dict[str, pd.DataFrame]]]:
    """Each Vega-Lite chart on the page: its spec and its datasets by name."""
    out = []
    for chart in at.get("vega_lite_chart"):
        spec = json.loads(chart.proto.spec)
        data = {d.name: arrow_frame(d.data.data) for d in chart.proto.datasets}
        out.append((spec, data))
    return out


def chart_rows(at: AppTest, column: str) -> pd.DataFrame:
    """The first dataset on the page that has ``column``."""
    for _, data in charts(at):
        for frame in data.values():
            if column in frame.columns:
                return frame
    raise AssertionError(f"no chart data with a {column!r} column")


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def table(at: AppTest, column: str, *, as_shown: bool = False) -> pd.DataFrame:
    """The first data frame on the page with ``column``, its shares 0..1 as the engine gives
    them (a table shows shares and lifts times 100: ``compactor.wording``), or ``as_shown``."""
    for frame in at.dataframe:
        if column in frame.value.columns:
            return frame.value if as_shown else in_shares(frame)
    raise AssertionError(f"no table with a {column!r} column")


def column_formats(frame: Any) -> dict[str, str]:
    """Each configured column's number format in a data frame element."""
    config = json.loads(frame.proto.columns or "{}")
    return {
        name: column.get("type_config", {}).get("format")
        for name, column in config.items()
        if isinstance(column, dict)
    }


def in_shares(frame: Any) -> pd.DataFrame:
    """A table's values with its percent and points columns back in shares 0..1."""
    value = frame.value
    scaled = [
        name
        for name, form in column_formats(frame).items()
        if form in (PERCENT_FORMAT, POINTS_FORMAT) and name in value.columns
    ]
    return value.assign(**{n: value[n] / 100 for n in scaled}) if scaled else value


def static_table(at: AppTest, column: str) -> pd.DataFrame:
    """The first static table (``st.table``) on the page with ``column``."""
    for frame in at.table:
        if column in frame.value.columns:
            return frame.value
    raise AssertionError(f"no static table with a {column!r} column")


#: One move of each parameter away from the rich request's values (budget 600, keep_last_n 2,
#: keep_roles [system], duplicate_threshold 0.9, max_message_chars 200); each changes the run.
MOVES = [
    ("budget_chars", 1500),
    ("budget_chars", 250),
    ("keep_last_n", 6),
    ("keep_roles", ["system", "tool"]),
    ("duplicate_threshold", 0.5),
    ("max_message_chars", 120),
]


def on_page(path: str, request: dict[str, Any]) -> AppTest:
    """A fresh session with ``request`` loaded, on the page at ``path``."""
    at = load(start(), request)
    return goto(at, path)


def follows_the_engine(path, request, reported, expected, move, at=None) -> None:
    """The page reports what the engine says, before and after ``move``, and the move shows.

    ``at`` is an app already on the page (set up beyond ``path`` and ``request``), if any.
    """
    at = on_page(path, request) if at is None else at
    assert_clean(at)
    before, before_expected = reported(at), expected(engine(at))
    assert before == before_expected
    name, value = move
    set_param(at, name, value)
    assert_clean(at)
    assert params(at)[name] == value
    after, after_expected = reported(at), expected(engine(at))
    assert after == after_expected
    if after_expected != before_expected:
        assert after != before


def page_text(at: AppTest) -> str:
    """Every text the page shows (Markdown, captions, text, notices, JSON, code), to search."""
    kinds = ("markdown", "caption", "text", "info", "warning", "error", "code")
    parts = [str(e.value) for kind in kinds for e in at.get(kind)]
    parts += [str(e.value) for e in at.json]
    return "\n".join(parts)


class _Download(dict):
    """A recorded download: a callable's data is called when a test first reads it (as the
    button calls it on a click), so a page's deferred files cost nothing unless read."""

    def __getitem__(self, key: str) -> Any:
        value = super().__getitem__(key)
        if key == "data" and callable(value):
            value = value()
            self[key] = value
        return value


@contextmanager
def downloads() -> Iterator[dict[str, Any]]:
    """What each download button is given during the AppTest runs inside the block, by label (the
    last run's): ``{"data": str | bytes, "file_name", "mime"}``, a callable's data called.

    AppTest keeps the files in a media store that is gone after the run, so the buttons are
    recorded on their way in: ``st.download_button`` and the same method of every container.
    """
    found: dict[str, Any] = {}
    container = type(st.sidebar)
    originals = (st.download_button, container.download_button)

    def record(label: str, data: Any, file_name: str | None = None, mime: str | None = None):
        found[label] = _Download(data=data, file_name=file_name, mime=mime)

    def on_page(label: str, data: Any, *args: Any, **kwargs: Any) -> Any:
        record(label, data, kwargs.get("file_name"), kwargs.get("mime"))
        return originals[0](label, data, *args, **kwargs)

    def in_container(self: Any, label: str, data: Any, *args: Any, **kwargs: Any) -> Any:
        record(label, data, kwargs.get("file_name"), kwargs.get("mime"))
        return originals[1](self, label, data, *args, **kwargs)

    st.download_button = on_page
    container.download_button = in_container
    try:
        yield found
    finally:
        st.download_button, container.download_button = originals
