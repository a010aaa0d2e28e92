"""Chart specs: fates in their colours with a legend, axis titles, tooltips, rules at the values."""

import json

import pytest

from compactor import run, validate
from explorer.charts import views as charts
from explorer.frames import views
from explorer.theme import BUDGET_COLOUR, FATE_COLOURS, FATES
from tests.explorer.requests import HOSTILE, hostile_request, rich_request


@pytest.fixture(scope="module")
def rich():
    return run(validate(rich_request()))


def units(spec):
    """Every single view in a (possibly layered) spec."""
    if "layer" in spec:
        for layer in spec["layer"]:
            yield from units(layer)
    else:
        yield spec


def rules(spec):
    return [u for u in units(spec) if u["mark"]["type"] == "rule"]


def rule_values(chart):
    """The values at which the chart draws its rules (each rule has its own one-row data)."""
    spec = chart.to_dict()
    return [spec["datasets"][u["data"]["name"]][0]["value"] for u in rules(spec)]


def assert_fate_colours(encoding, fates=FATES):
    colour = encoding["color"]
    assert colour["field"] == "fate"
    assert colour["scale"]["domain"] == list(fates)
    assert colour["scale"]["range"] == [FATE_COLOURS[f] for f in fates]
    assert colour["legend"] is not None and colour["title"] == "Fate"


def test_the_timeline_colours_by_fate_titles_its_axes_and_selects_by_index(rich):
    chart = charts.fate_timeline(views.fate_frame(rich))
    spec = chart.to_dict()
    assert_fate_colours(spec["encoding"])
    assert spec["encoding"]["x"]["title"] == "Message (input order)"
    assert spec["encoding"]["y"]["field"] == "bar_chars"  # original_chars, at least a floor
    assert spec["encoding"]["y"]["title"] == "Characters (input)"
    (param,) = spec["params"]
    assert param["name"] == charts.PICK
    assert param["select"]["fields"] == ["index"]
    assert {t["field"] for t in spec["encoding"]["tooltip"]} >= {"message", "fate", "preview"}
    static = charts.fate_timeline(views.fate_frame(rich), selectable=False).to_dict()
    assert "params" not in static


def test_the_waterfall_steps_through_the_stages_with_the_budget_rule(rich):
    frame = views.waterfall_frame(rich.totals)
    chart = charts.waterfall(frame, 600)
    spec = chart.to_dict()
    bars = next(u for u in units(spec) if u["mark"]["type"] == "bar")
    assert bars["encoding"]["x"]["sort"] == ["Input", "Dedupe", "Trim", "Drop", "Output"]
    assert bars["encoding"]["y"]["title"] == "Characters"
    colour = bars["encoding"]["color"]
    assert colour["scale"]["range"][1:] == [
        FATE_COLOURS["duplicate"],
        FATE_COLOURS["trimmed"],
        FATE_COLOURS["dropped"],
    ]
    assert rule_values(chart) == [600]
    (rule,) = rules(spec)
    assert rule["mark"]["color"] == BUDGET_COLOUR


def test_the_output_bar_has_only_surviving_fates_and_the_budget(rich):
    chart = charts.output_against_budget(views.output_frame(rich), 600)
    bars = next(u for u in units(chart.to_dict()) if u["mark"]["type"] == "bar")
    assert_fate_colours(bars["encoding"], ("protected", "verbatim", "trimmed"))
    assert rule_values(chart) == [600]


def test_the_protected_bar_is_drawn_in_the_protected_colour_against_the_budget(rich):
    chart = charts.protected_against_budget(views.protected_frame(rich), 600)
    bars = next(u for u in units(chart.to_dict()) if u["mark"]["type"] == "bar")
    assert bars["encoding"]["color"]["scale"]["range"] == [FATE_COLOURS["protected"]]
    assert rule_values(chart) == [600]


@pytest.mark.parametrize("by", ["index", "score"])
def test_scores_stack_the_components_mark_the_dropped_and_draw_the_drop_line(rich, by):
    frame = views.scores_frame(rich)
    line = views.drop_line(rich)
    chart = charts.scores(views.score_parts_frame(frame), line, by=by)
    spec = chart.to_dict()
    bars, marks = [u for u in units(spec) if u["mark"]["type"] in ("bar", "point")]
    assert bars["encoding"]["y"]["stack"] == "zero"
    assert bars["encoding"]["color"]["scale"]["domain"] == ["recency", "role", "topic overlap"]
    key = "drop_order" if by == "score" else "index"
    assert bars["encoding"]["x"]["sort"] == list(frame.sort_values(key)["message"])
    assert marks["encoding"]["x"]["sort"] == bars["encoding"]["x"]["sort"]
    assert marks["encoding"]["color"]["scale"]["range"] == [FATE_COLOURS["dropped"]]
    marked = spec["datasets"][marks["data"]["name"]]
    assert sorted(row["index"] for row in marked) == sorted(d.index for d in rich.dropping.dropped)
    assert rule_values(chart) == [line]
    assert spec["resolve"]["scale"]["color"] == "independent"


def test_without_drops_there_is_no_drop_line(rich):
    frame = views.scores_frame(rich)
    chart = charts.scores(views.score_parts_frame(frame), None)
    assert rules(chart.to_dict()) == []


def test_the_similarity_chart_draws_the_threshold(rich):
    chart = charts.similarity(views.similarity_frame(rich), 0.9)
    spec = chart.to_dict()
    points = next(u for u in units(spec) if u["mark"]["type"] == "circle")
    assert_fate_colours(points["encoding"])
    assert points["encoding"]["y"]["scale"]["domain"] == [0, 1]
    assert rule_values(chart) == [0.9]


def test_the_trim_chart_shows_kept_and_cut_off_and_the_limit(rich):
    chart = charts.trims(views.trim_bars(views.trim_frame(rich)), 200)
    bars = next(u for u in units(chart.to_dict()) if u["mark"]["type"] == "bar")
    assert bars["encoding"]["color"]["scale"]["domain"] == ["kept", "cut off"]
    assert bars["encoding"]["color"]["scale"]["range"][0] == FATE_COLOURS["trimmed"]
    assert rule_values(chart) == [200]


def test_topic_terms_are_sorted_by_rank(rich):
    spec = charts.topic_terms(views.topic_frame(rich)).to_dict()
    assert spec["encoding"]["y"]["sort"] == [term for term, _ in rich.analysis.topic_terms]
    assert spec["encoding"]["x"]["title"] == "Occurrences in the whole history"


def test_chart_data_carries_contents_as_plain_short_strings():
    """Tooltips show data values; vega-tooltip escapes them, so they must stay the raw text."""
    result = run(validate(hostile_request()))
    spec = charts.fate_timeline(views.fate_frame(result)).to_dict()
    text = json.dumps(spec, ensure_ascii=False)
    assert HOSTILE[0] in text  # the raw text, not pre-escaped (that would show &lt; literally)
    previews = [row["preview"] for rows in spec["datasets"].values() for row in rows]
    assert all(len(p) <= views.PREVIEW_CHARS for p in previews)
