"""Fate timeline: every message's fate as the engine decides it; a pick opens its detail."""

import pytest

from explorer.charts.views import MIN_BAR_PX
from harness.apptest import (
    MOVES,
    assert_clean,
    chart_rows,
    charts,
    engine,
    follows_the_engine,
    on_page,
)
from tests.explorer.requests import rich_request

PAGE = "pages/timeline.py"
SCALE_KEY = "timeline_scale"


def reported(at):
    rows = chart_rows(at, "fate").sort_values("index")
    return [(r.index, r.fate, r.original_chars, r.chars) for r in rows.itertuples()]


def expected(result):
    return [(t.index, t.fate.value, t.original_chars, t.chars) for t in result.messages]


@pytest.mark.parametrize("move", MOVES, ids=lambda m: f"{m[0]}={m[1]}")
def test_the_timeline_follows_the_engine(move):
    follows_the_engine(PAGE, rich_request(), reported, expected, move)


def detail_heading(at):
    return next(h.value for h in at.html if "Message #" in h.value)


def test_picking_in_the_chart_opens_the_message_and_the_picker_can_move_on():
    at = on_page(PAGE, rich_request())
    assert "Message #0 · system" in detail_heading(at)
    at.session_state["timeline_chart"] = {"selection": {"pick": [{"index": 4}]}}
    at.run()
    assert_clean(at)
    assert "Message #4 · user" in detail_heading(at)
    assert at.selectbox(key="timeline_message").value == 4
    assert any("overlap message #1's by 1.000" in m.value for m in at.markdown)
    at.selectbox(key="timeline_message").set_value(2).run()  # the chart still holds #4
    assert "Message #2 · assistant" in detail_heading(at)


def test_a_trimmed_message_shows_kept_and_cut_off_text_and_its_score():
    request = rich_request()
    at = on_page(PAGE, request)
    at.selectbox(key="timeline_message").set_value(2).run()
    assert_clean(at)
    content = request["messages"][2]["content"]
    trim = next(h.value for h in at.html if "✂" in h.value)
    assert "✂ hard cut at 200" in trim
    assert content[:200] in trim and content[200:] in trim
    scores = next(d.value for d in at.dataframe if "component" in d.value.columns)
    assert list(scores["component"]) == [
        "recency",
        "role weight",
        "topic overlap",
        "score (rounded)",
    ]


def test_a_message_without_a_trim_shows_its_full_text_as_text():
    request = rich_request()
    at = on_page(PAGE, request)
    at.selectbox(key="timeline_message").set_value(5).run()
    assert request["messages"][5]["content"] in [t.value for t in at.text]


def timeline_spec(at):
    return next(spec for spec, _ in charts(at) if spec.get("params"))


def test_the_bar_height_choice_switches_to_a_log_scale_and_keeps_the_pick():
    at = on_page(PAGE, rich_request())
    spec = timeline_spec(at)
    assert spec["encoding"]["y"]["scale"].get("type") is None  # linear, from 0
    assert spec["encoding"]["y"]["scale"]["domain"][0] == 0
    at.session_state["timeline_chart"] = {"selection": {"pick": [{"index": 3}]}}
    at.run()
    at.button_group(key=SCALE_KEY).set_value("log").run()
    assert_clean(at)
    spec = timeline_spec(at)
    assert spec["encoding"]["y"]["scale"]["type"] == "log"
    assert spec["params"][0]["name"] == "pick"  # still clickable
    assert at.selectbox(key="timeline_message").value == 3
    assert reported(at) == expected(engine(at))  # the same messages, only drawn differently
    assert any(f"at least {MIN_BAR_PX} pixels" in c.value for c in at.caption)
