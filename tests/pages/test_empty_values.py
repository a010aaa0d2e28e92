"""No page shows "None", "nan" or "<NA>": an empty table cell is an em dash, a tooltip never
says "null", on every page of every sample, and with every stage, B and watched phrases acting."""

import json

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from compactor.samples import load_samples
from explorer.navigation import PAGES
from explorer.session.keys import B_KEYS, PHRASES_KEY
from explorer.widgets.common import MISSING
from harness.apptest import arrow_frame, assert_clean, goto, start

#: Text a cell or a tooltip shows for a missing value when nothing replaces it.
#: ("none" in lower case is the explorer's word for an empty list of messages, so it is not here.)
LEAKS = {"None", "nan", "NaN", "<NA>", "null", "NaT"}
#: Every stage acts on this link (as in the browser tests), so every column has something.
ACTING = {"sample": "repeated-questions", "budget_chars": "1200", "max_message_chars": "100"}


def leaking(series: pd.Series) -> pd.Series:
    """The cells a table would draw as None/nan: missing values, or text that says so."""
    if series.dtype == object or pd.api.types.is_string_dtype(series):
        said = series.map(lambda v: isinstance(v, str) and v.strip() in LEAKS).astype(bool)
        return series.isna().astype(bool) | said
    return series.isna()


def tooltip_fields(spec) -> set[str]:
    """The data fields any layer of a Vega-Lite spec shows in its tooltip."""
    found: set[str] = set()
    if isinstance(spec, dict):
        for key, value in spec.items():
            if key == "tooltip":
                items = value if isinstance(value, list) else [value]
                found |= {i["field"] for i in items if isinstance(i, dict) and "field" in i}
            found |= tooltip_fields(value)
    elif isinstance(spec, list):
        for value in spec:
            found |= tooltip_fields(value)
    return found


def leaks_on(at, where: str) -> list[str]:
    """Every cell and tooltip value of the page that would read None/nan/null."""
    problems = []
    for number, frame in enumerate(at.dataframe):
        config = json.loads(frame.proto.columns or "{}")
        data = frame.value
        for column in data.columns:
            if config.get(str(column), {}).get("hidden"):
                continue
            bad = leaking(data[column])
            if not bad.any():
                continue
            missing_only = data[column][bad].isna().all()
            if missing_only and frame.proto.placeholder == MISSING:
                continue  # drawn as an em dash
            problems.append(f"{where}: table {number}, column {column!r}: {bad.sum()} cells")
    for number, table in enumerate(at.table):
        for column in table.value.columns:
            if leaking(table.value[column]).any():
                problems.append(f"{where}: static table {number}, column {column!r}")
    for number, chart in enumerate(at.get("vega_lite_chart")):
        fields = tooltip_fields(json.loads(chart.proto.spec))
        for dataset in chart.proto.datasets:
            data = arrow_frame(dataset.data.data)
            for column in sorted(fields & set(data.columns)):
                if leaking(data[column]).any():
                    problems.append(f"{where}: chart {number}, tooltip field {column!r}")
    return problems


def every_page(at, name: str) -> list[str]:
    problems = []
    for spec in PAGES:
        at = goto(at, spec.path)
        assert_clean(at)
        problems += leaks_on(at, f"{name} {spec.path}")
    return problems


@pytest.mark.parametrize(
    "sample",
    [pytest.param(s, marks=pytest.mark.slow) if s.slug == "largest" else s for s in load_samples()],
    ids=lambda s: s.slug,
)
def test_no_page_shows_none_on_a_sample(sample):
    assert every_page(start({"sample": sample.slug}), sample.slug) == []


def test_no_page_shows_none_when_every_stage_b_and_watched_phrases_act():
    at = start(ACTING)
    at.session_state[PHRASES_KEY] = "train\nSintra\nnot in this history at all"
    at = goto(at, "pages/compare.py")
    at.number_input(key=B_KEYS["budget_chars"]).set_value(600).run()
    assert every_page(at, "acting") == []


def test_the_check_finds_every_kind_of_leak():
    """The check itself: it passes an em-dash placeholder and hidden columns, nothing else."""

    def page():
        import altair as alt
        import pandas as pd
        import streamlit as st

        numbers = pd.DataFrame({"n": pd.array([1, None], dtype="Int64"), "hidden": [None, "x"]})
        st.dataframe(numbers, placeholder="—", column_config={"hidden": None})  # fine
        st.dataframe(numbers[["n"]])  # drawn as "None"
        st.dataframe(pd.DataFrame({"text": ["a", "nan"]}), placeholder="—")  # "nan" as text
        st.table(pd.DataFrame({"id": ["a", None]}))
        shown = pd.DataFrame({"x": [1, 2], "score": [0.5, None]})
        st.altair_chart(alt.Chart(shown).mark_point().encode(x="x:Q", tooltip=["score:Q"]))

    at = AppTest.from_function(page).run()
    assert leaks_on(at, "page") == [
        "page: table 1, column 'n': 1 cells",
        "page: table 2, column 'text': 1 cells",
        "page: static table 0, column 'id'",
        "page: chart 0, tooltip field 'score'",
    ]
