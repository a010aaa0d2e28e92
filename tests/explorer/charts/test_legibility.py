"""Charts a person can read and use: ink that shows on the light and the dark theme, value labels
that the budget line never strikes through, timeline bars tall enough to click, budget charts
whose x axes line up, and the walkthrough's charts in presentation type."""

import json
import math
import re

import pandas as pd
import pytest

from compactor import run, validate
from compactor.analyses._sweeps import budget_sweep, threshold_sweep, trim_sweep
from compactor.analyses._walkthrough import walkthrough
from compactor.samples import load_sample, load_samples
from explorer.charts import layout
from explorer.charts import sweeps as sweep_charts
from explorer.charts import views as charts
from explorer.frames import sweeps as sweep_frames
from explorer.frames import views
from explorer.theme import CANVAS_INK, INK
from explorer.walkthrough import charts as walk_charts
from explorer.walkthrough import frames as walk_frames
from tests.explorer.charts.test_layout import every_chart
from tests.explorer.requests import rich_request

#: Colours that vanish on one of Streamlit's themes: near-black on dark, white on light (the
#: white halo the waterfall's labels had).
INVISIBLE = re.compile(r'"#(000000|111111|222222|3B3B3B|FFFFFF)"', re.IGNORECASE)


@pytest.fixture(scope="module")
def rich():
    return run(validate(rich_request()))


@pytest.fixture(scope="module")
def dispatcher():
    return run(validate(load_sample("dispatcher").request))


def units(spec):
    if "layer" in spec:
        for layer in spec["layer"]:
            yield from units(layer)
    else:
        yield spec


def of_mark(spec, kind):
    return [u for u in units(spec) if u["mark"]["type"] == kind]


def all_charts(result):
    budget = result.request.params.budget_chars
    walk = walkthrough(result)
    sweep = budget_sweep(result)
    steps = sweep_frames.budget_steps_frame(sweep)
    trim = trim_sweep(result)
    out = dict(every_chart(result))
    out |= {
        "budget_chars": sweep_charts.budget_chars(steps, budget),
        "budget_messages": sweep_charts.budget_messages(steps, budget),
        "threshold": sweep_charts.threshold_steps(
            sweep_frames.threshold_frame(threshold_sweep(result)), 0.9
        ),
        "trim_curve": sweep_charts.trim_curve(
            sweep_frames.trim_sweep_frame(trim, sweep_frames.trim_view_limit(trim)), 200
        ),
        "walk_totals": walk_charts.walk_totals(walk_frames.walk_totals_frame(walk, 4), budget),
        "walk_messages": walk_charts.walk_messages(
            walk_frames.walk_messages_frame(walk.steps[1], result.request.contents, False), False
        ),
    }
    return out


# --- ink ------------------------------------------------------------------------------------


def test_no_chart_paints_in_a_colour_one_theme_hides(rich):
    for name, chart in all_charts(rich).items():
        text = json.dumps(chart.to_dict())
        assert not INVISIBLE.search(text), name


def test_rules_labels_and_outlines_are_in_the_pages_ink(rich, dispatcher):
    for name, chart in all_charts(rich).items():
        spec = chart.to_dict()
        for rule in of_mark(spec, "rule"):
            if name == "scores":  # the drop line is drawn in the colour of the fate "dropped"
                continue
            assert rule["mark"]["color"] == INK, name
    budget = dispatcher.request.params.budget_chars
    spec = charts.waterfall(views.waterfall_frame(dispatcher.totals), budget).to_dict()
    (labels,) = of_mark(spec, "text")
    assert labels["mark"]["color"] == INK and "stroke" not in labels["mark"]  # no white halo
    timeline = charts.fate_timeline(views.fate_frame(dispatcher)).to_dict()
    assert timeline["encoding"]["stroke"]["condition"]["value"] == INK


def test_a_chart_streamlit_draws_on_a_canvas_uses_a_colour_a_canvas_can_paint():
    """A canvas cannot paint "currentColor" (it paints black): thousands of rows get a mid grey."""
    assert layout.ink(pd.DataFrame({"a": range(10)})) == INK
    assert layout.ink(pd.DataFrame({"a": range(layout.CANVAS_ROWS + 1)})) == CANVAS_INK
    largest = run(validate(load_sample("largest").request))
    trim = trim_sweep(largest)
    frame = sweep_frames.trim_sweep_frame(trim, sweep_frames.trim_view_limit(trim))
    assert len(frame) > layout.CANVAS_ROWS
    spec = sweep_charts.trim_curve(frame, 4000).to_dict()
    colours = {u["mark"]["color"] for u in units(spec)}
    assert colours == {CANVAS_INK}


# --- labels clear of the budget line --------------------------------------------------------


def label_spans(tops, rule, height, font):
    """Each label's pixel span (bottom, top) above the axis's 0, as the chart places it."""
    domain_top = layout.labelled_top(tops, rule, height, font)
    at = layout.clear_of_rule(list(tops), rule, domain_top, height, font)
    scale = height / domain_top
    spans = [(a * scale + layout.LABEL_GAP, a * scale + layout.label_band(font)) for a in at]
    return spans, rule * scale, domain_top


def test_the_dispatchers_output_label_stands_above_the_budget_line(dispatcher):
    """The issue's case: 371 characters out under a budget of 400; the line read "-371"."""
    frame = views.waterfall_frame(dispatcher.totals)
    budget = dispatcher.request.params.budget_chars
    spec = charts.waterfall(frame, budget, height=260).to_dict()
    (labels,) = of_mark(spec, "text")
    rows = spec["datasets"][labels["data"]["name"]]
    output = next(r for r in rows if r["step"] == "Output")
    assert output["high"] == 371 and output["label_at"] == budget
    assert next(r for r in rows if r["step"] == "Input")["label_at"] == 466  # far from the line


@pytest.mark.parametrize("sample", load_samples(), ids=lambda s: s.slug)
@pytest.mark.parametrize("budget", [100, 300, 400, 1_000, 3_000, 6_000, 120_000])
def test_no_waterfall_label_is_struck_through_by_the_budget_line(sample, budget):
    result = run(validate({**sample.request, "budget_chars": budget}))
    frame = views.waterfall_frame(result.totals)
    spans, rule, domain_top = label_spans(frame["high"], budget, 260, charts.WATERFALL_FONT)
    for bottom, top in spans:
        assert not (bottom - 2 <= rule <= top + 2), (bottom, rule, top)
        assert top <= 260  # inside the plot
    spec = charts.waterfall(frame, budget, height=260).to_dict()
    (bars,) = of_mark(spec, "bar")
    assert bars["encoding"]["y"]["scale"] == {"domain": [0, domain_top], "nice": False}


def test_walkthrough_totals_keep_clear_of_the_budget_line_at_every_size(dispatcher):
    walk = walkthrough(dispatcher)
    frame = walk_frames.walk_totals_frame(walk, 4)
    for font, height in ((walk_charts.PROJECTOR_FONT, 280), (walk_charts.PRESENTATION_FONT, 400)):
        size = round(font * 1.2)
        spans, rule, _ = label_spans(frame["chars"], walk.budget, height, size)
        assert all(not (bottom - 2 <= rule <= top + 2) for bottom, top in spans)
        spec = walk_charts.walk_totals(frame, walk.budget, height, font).to_dict()
        (labels,) = of_mark(spec, "text")
        assert labels["mark"]["fontSize"] == size
        assert [r["label_at"] for r in spec["datasets"][labels["data"]["name"]]] == [
            466,
            466,
            400,
            400,
            400,
        ]


# --- clickable timeline bars ----------------------------------------------------------------


def tool_trace():
    """A 4-character tool result beside an 8,000-character one (the issue's case)."""
    return pd.DataFrame(
        {
            "index": [0, 1, 2],
            "message": ["#0", "#1", "#2"],
            "fate": ["protected", "verbatim", "verbatim"],
            "original_chars": [8_000, 4, 300],
            "chars": [8_000, 4, 300],
            "score": [None, 0.5, 0.6],
        }
    )


@pytest.mark.parametrize("scale", list(charts.SCALES))
def test_every_timeline_bar_is_tall_enough_to_click(scale):
    height = 260
    spec = charts.fate_timeline(tool_trace(), height=height, scale=scale).to_dict()
    (bar,) = [t for t in spec["transform"] if t.get("as") == "bar_chars"]
    floor = float(re.search(r"max\(datum\.original_chars, ([0-9.e+-]+)\)", bar["calculate"])[1])
    y = spec["encoding"]["y"]
    assert y["field"] == "bar_chars" and y["stack"] is None
    low, top = y["scale"]["domain"]
    if scale == "log":
        assert y["scale"]["type"] == "log" and low == 1
        pixels = height * math.log(floor) / math.log(top)
    else:
        pixels = height * floor / top
    assert pixels == pytest.approx(charts.MIN_BAR_PX)
    assert top == 8_000
    # the tooltip gives the real length, never the drawn one
    tooltip = {t["field"]: t["title"] for t in spec["encoding"]["tooltip"]}
    assert tooltip["original_chars"] == "Characters in" and "bar_chars" not in tooltip


def test_the_log_timeline_ticks_at_powers_of_ten():
    spec = charts.fate_timeline(tool_trace(), scale="log").to_dict()
    assert spec["encoding"]["y"]["axis"]["values"] == [1, 10, 100, 1000]
    assert spec["encoding"]["y"]["title"] == "Characters (input, log scale)"


# --- budget charts that line up ---------------------------------------------------------------


@pytest.mark.parametrize("sample", ["dispatcher", "repeated-questions", "largest"])
def test_the_two_budget_charts_have_y_axes_of_one_width_and_one_x_axis(sample):
    result = run(validate(load_sample(sample).request))
    frame = sweep_frames.budget_steps_frame(budget_sweep(result))
    budget = result.request.params.budget_chars
    axes = []
    for chart in (
        sweep_charts.budget_chars(frame, budget),
        sweep_charts.budget_messages(frame, budget),
    ):
        spec = chart.to_dict()
        steps = [u for u in of_mark(spec, "line") if u["mark"].get("interpolate")]
        (line,) = steps
        axes.append((line["encoding"]["y"]["axis"], line["encoding"]["x"]["scale"]["domain"]))
    (chars_axis, chars_x), (messages_axis, messages_x) = axes
    assert chars_x == messages_x
    assert chars_axis["minExtent"] == chars_axis["maxExtent"] == messages_axis["minExtent"]
    assert messages_axis["minExtent"] == messages_axis["maxExtent"]
    # wide enough for the longest label (the characters' axis may run on to a rounder number)
    widest = len(f"{int(frame['output_chars'].max() * 1.2):,}")
    assert chars_axis["minExtent"] >= 7 * widest


# --- the walkthrough in presentation type ----------------------------------------------------


def test_the_walkthrough_charts_take_the_presentation_font(rich):
    walk = walkthrough(rich)
    totals = walk_frames.walk_totals_frame(walk, 2)
    states = walk_frames.walk_messages_frame(walk.steps[1], rich.request.contents, False)
    for chart in (
        walk_charts.walk_totals(totals, walk.budget, 400, walk_charts.PRESENTATION_FONT),
        walk_charts.walk_messages(states, False, 400, walk_charts.PRESENTATION_FONT),
    ):
        spec = chart.to_dict()
        assert spec["height"] == 400
        assert spec["config"]["axis"]["labelFontSize"] == walk_charts.PRESENTATION_FONT
        assert spec["config"]["legend"]["labelFontSize"] == walk_charts.PRESENTATION_FONT
    assert walk_charts.PRESENTATION_FONT > walk_charts.PROJECTOR_FONT
