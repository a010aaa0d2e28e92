"""Tuning chart specs: step lines over the engine's numbers, the current value as a rule, fates
and strategy outcomes in the fate colours, tooltips."""

from dataclasses import replace

import pytest

from compactor import run, validate
from compactor.analyses._ab import compare_params
from compactor.analyses._sweeps import budget_sweep, threshold_sweep, trim_sweep
from compactor.analyses._walkthrough import walkthrough
from compactor.strategies import CUT, REMOVED, REPLACED, VERBATIM
from compactor.strategies._lineup import compare_strategies
from explorer.charts import compare as compare_charts
from explorer.charts import sweeps as sweep_charts
from explorer.charts import views as charts
from explorer.frames import compare as compare_frames
from explorer.frames import sweeps as sweep_frames
from explorer.frames import views
from explorer.theme import BUDGET_COLOUR, FATE_COLOURS, FATES
from explorer.walkthrough import charts as walk_charts
from explorer.walkthrough import frames as walk_frames
from tests.explorer.requests import rich_request


@pytest.fixture(scope="module")
def rich():
    return run(validate(rich_request()))


def units(spec):
    if "layer" in spec:
        for layer in spec["layer"]:
            yield from units(layer)
    else:
        yield spec


def marks(spec, kind):
    return [u for u in units(spec) if u["mark"]["type"] == kind]


def rule_values(spec):
    return [spec["datasets"][u["data"]["name"]][0]["value"] for u in marks(spec, "rule")]


def data_of(spec, unit):
    return spec["datasets"][unit["data"]["name"]]


def test_budget_charts_are_step_lines_with_the_current_budget(rich):
    sweep = budget_sweep(rich)
    frame = sweep_frames.budget_steps_frame(sweep)
    for chart, field in (
        (sweep_charts.budget_chars(frame, 600), "output_chars"),
        (sweep_charts.budget_messages(frame, 600), "output_messages"),
    ):
        spec = chart.to_dict()
        assert rule_values(spec) == [600]
        (rule,) = marks(spec, "rule")
        assert rule["mark"]["color"] == BUDGET_COLOUR
        steps = [u for u in marks(spec, "line") if u["mark"].get("interpolate") == "step-after"]
        (line,) = steps
        assert line["encoding"]["y"]["field"] == field
        assert [r[field] for r in data_of(spec, line)] == list(frame[field])
        (points,) = marks(spec, "point")
        fields = {t["field"] for t in points["encoding"]["tooltip"]}
        assert {"budget", "output_chars", "output_messages", "joins"} <= fields
    diagonal = marks(sweep_charts.budget_chars(frame, 600).to_dict(), "line")[0]
    assert diagonal["mark"]["strokeDash"]  # output = budget, dotted


def test_the_timeline_tooltip_gains_the_survival_budget_and_keeps_its_selection(rich):
    frame = sweep_frames.with_survival(views.fate_frame(rich), budget_sweep(rich))
    spec = sweep_charts.survival_tooltip(charts.fate_timeline(frame)).to_dict()
    fields = [t["field"] for t in spec["encoding"]["tooltip"]]
    assert "kept_from" in fields and fields.index("kept_from") == fields.index("preview") - 1
    assert spec["params"][0]["name"] == charts.PICK
    assert {r["kept_from"] for r in spec["datasets"][spec["data"]["name"]]} >= {
        "always kept (protected)"
    }


def test_the_threshold_chart_steps_over_the_range_with_the_current_threshold(rich):
    frame = sweep_frames.threshold_frame(threshold_sweep(rich))
    spec = sweep_charts.threshold_steps(frame, 0.9).to_dict()
    assert rule_values(spec) == [0.9]
    (line,) = marks(spec, "line")
    assert line["mark"]["interpolate"] == "step-before"
    assert line["encoding"]["x"]["scale"]["domain"] == [0.5, 1.0]
    (points,) = marks(spec, "point")
    assert len(data_of(spec, points)) == len(frame) - 1  # no point at the line's start


def test_the_trim_chart_spans_its_frame_and_marks_the_current_limit(rich):
    sweep = trim_sweep(rich)
    frame = sweep_frames.trim_sweep_frame(sweep, sweep_frames.trim_view_limit(sweep))
    spec = sweep_charts.trim_curve(frame, 200).to_dict()
    assert rule_values(spec) == [200]
    (line,) = marks(spec, "line")
    assert line["encoding"]["x"]["scale"]["domain"] == [80, int(frame["max_message_chars"].max())]
    assert line["encoding"]["y"]["field"] == "cut_chars"
    (points,) = marks(spec, "point")
    (hover,) = spec["params"]
    assert hover["select"]["nearest"] is True and hover["select"]["on"] == "pointerover"
    assert "trim_hover" in points["encoding"]["opacity"]["condition"]["param"]


def test_the_ab_strip_colours_fates_and_outlines_what_differs(rich):
    b = replace(rich.request.params, budget_chars=1500)
    comparison = compare_params(rich.request, rich.request.params, b)
    spec = compare_charts.ab_strip(compare_frames.ab_long(comparison)).to_dict()
    colour = spec["encoding"]["color"]
    assert colour["scale"]["domain"] == list(FATES)
    assert colour["scale"]["range"] == [FATE_COLOURS[f] for f in FATES]
    assert spec["encoding"]["y"]["sort"] == ["A", "B"]
    assert "differs" in spec["encoding"]["stroke"]["condition"]["test"]


def test_the_strategy_strip_uses_the_fate_colours_of_the_same_meaning(rich):
    comparison = compare_strategies(rich.request)
    spec = compare_charts.strategy_strip(
        compare_frames.strategy_long(comparison), compare_frames.strategy_order(comparison)
    ).to_dict()
    colour = spec["encoding"]["color"]
    assert colour["scale"]["domain"] == ["verbatim", "cut", "replaced", "removed"]
    assert colour["scale"]["range"] == [
        FATE_COLOURS["verbatim"],
        FATE_COLOURS["trimmed"],
        compare_charts.KEPT_COLOURS["replaced"],
        FATE_COLOURS["dropped"],
    ]
    assert compare_charts.KEPT_COLOURS["replaced"] not in FATE_COLOURS.values()
    # every way a strategy handles a message has its colour and its legend entry (issue 40:
    # a clearing strategy's cells were white, with none)
    kept = set(compare_frames.strategy_long(comparison)["kept"])
    assert kept <= {VERBATIM, CUT, REPLACED, REMOVED} == set(colour["scale"]["domain"])
    assert "cleared" in colour["legend"]["labelExpr"]
    assert spec["encoding"]["y"]["sort"] == compare_frames.strategy_order(comparison)
    frame = compare_frames.strategy_totals(comparison)
    totals = compare_charts.strategy_totals(frame, 600).to_dict()
    assert rule_values(totals) == [600]
    (bars,) = marks(totals, "bar")
    assert bars["encoding"]["y"]["scale"]["paddingInner"] > 0  # a gap between bars
    assert totals["height"] == {"step": 30}  # each strategy its own band, however many
    over = {r["strategy"]: r["met"] for r in data_of(totals, bars)}
    shown = frame[frame["available"]]
    assert over == {
        s: "within the budget" if o <= 600 else "over the budget"
        for s, o in zip(shown["strategy"], shown["output_chars"], strict=True)
    }
    assert "over the budget" in over.values()  # a strategy that keeps no budget (clearing)


@pytest.mark.parametrize("upto", [1, 3])
def test_walk_totals_show_only_the_steps_reached_on_a_fixed_axis(rich, upto):
    walk = walkthrough(rich)
    spec = walk_charts.walk_totals(walk_frames.walk_totals_frame(walk, upto), walk.budget).to_dict()
    (bars,) = marks(spec, "bar")
    assert bars["encoding"]["x"]["scale"]["domain"] == ["Input", "Pin", "Dedupe", "Trim", "Drop"]
    assert [r["stage"] for r in data_of(spec, bars)] == ["Input", "Pin", "Dedupe", "Trim"][
        : upto + 1
    ]
    assert rule_values(spec) == [walk.budget]
    assert spec["config"]["axis"]["labelFontSize"] == walk_charts.PROJECTOR_FONT


def test_walk_messages_name_undecided_messages_until_drop(rich):
    walk = walkthrough(rich)
    contents = rich.request.contents
    for step, final in ((walk.steps[1], False), (walk.steps[3], True)):
        frame = walk_frames.walk_messages_frame(step, contents, final)
        spec = walk_charts.walk_messages(frame, final).to_dict()
        whole, present = marks(spec, "bar")
        domain = whole["encoding"]["color"]["scale"]["domain"]
        assert ("verbatim" in domain) == final and (walk_frames.UNDECIDED in domain) != final
        assert present["encoding"]["y"]["field"] == "chars"
        assert whole["encoding"]["y"]["field"] == "original_chars"
        assert "acted" in whole["encoding"]["stroke"]["condition"]["test"]
