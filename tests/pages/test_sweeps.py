"""Budget sweep: the survival table and the step charts are the engine's sweep of the request."""

import pandas as pd
import pytest

from compactor.analyses._sweeps import budget_sweep
from compactor.analyses.anchors import anchor_report
from compactor.analyses.outcomes import continuation_check
from compactor.samples import load_samples
from explorer.frames import sweeps as sweep_frames
from harness.apptest import (
    MOVES,
    assert_clean,
    chart_rows,
    charts,
    engine,
    follows_the_engine,
    goto,
    metrics,
    start,
    table,
)
from tests.explorer.requests import rich_request

PAGE = "pages/sweeps.py"


def values(series):
    """A column as Python ints, None where it is empty."""
    return [None if pd.isna(v) else int(v) for v in series]


def reported(at):
    survival = table(at, "kept_from")
    steps = next(
        frame
        for _, data in charts(at)
        for frame in data.values()
        if "output_messages" in frame.columns
    )
    return {
        "survival": list(
            zip(survival["message"], values(survival["survives_from_budget"]), strict=True)
        ),
        "labels": list(survival["kept_from"]),
        "kept_now": list(survival["kept_now"]),
        "steps": [
            (int(r.budget), int(r.output_chars), int(r.output_messages)) for r in steps.itertuples()
        ],
        "metrics": {
            k: metrics(at)[k] for k in ("Current budget", "Characters out", "Messages out")
        },
    }


def expected(result):
    sweep = budget_sweep(result)
    frame = sweep_frames.budget_steps_frame(sweep)
    return {
        "survival": [(f"#{s.index}", s.survives_from_budget) for s in sweep.survival],
        "labels": [sweep_frames.survival_label(s, sweep.budget_range) for s in sweep.survival],
        "kept_now": [t.survived for t in result.messages],
        "steps": [
            (int(r.budget), int(r.output_chars), int(r.output_messages)) for r in frame.itertuples()
        ],
        "metrics": {
            "Current budget": f"{result.request.params.budget_chars:,}",
            "Characters out": f"{result.totals.output:,}",
            "Messages out": f"{len(result.survivors):,}",
        },
    }


@pytest.mark.parametrize("move", MOVES, ids=lambda m: f"{m[0]}={m[1]}")
def test_the_budget_sweep_follows_the_engine(move):
    follows_the_engine(PAGE, rich_request(), reported, expected, move)


@pytest.mark.parametrize("sample", load_samples(), ids=lambda s: s.slug)
def test_every_sample_gets_its_sweep(sample):
    at = goto(start({"sample": sample.slug}), PAGE)
    assert_clean(at)
    assert reported(at) == expected(engine(at))
    budgets = [
        v
        for _, data in charts(at)
        for f in data.values()
        if "value" in f.columns
        for v in f["value"]
    ]
    result = engine(at)
    marks = 3 if anchor_report(result).anchors else 2  # the anchors chart marks it too
    # the page's k: 5 by default, at most n - 2 so that the past keeps two messages
    check = continuation_check(result.request, future=min(5, len(result.messages) - 2))
    marks += bool(check.valid and check.setting.needs)  # and the needed-later recall curve
    assert budgets.count(int(sample.request["budget_chars"])) == marks


def test_the_order_switch_sorts_by_survival_budget():
    at = goto(start(), PAGE)
    at.button_group(key="sweeps_order").set_value("survival budget").run()
    assert_clean(at)
    shown = values(table(at, "kept_from")["survives_from_budget"])
    known = [v for v in shown if v is not None]
    assert known == sorted(known) and shown[len(known) :] == [None] * (len(shown) - len(known))


def y_axes(spec):
    """The y axis of each layer that names one (the step line)."""
    return [
        layer["encoding"]["y"]["axis"]
        for layer in spec.get("layer", [])
        if "axis" in layer["encoding"].get("y", {})
    ]


@pytest.mark.parametrize("sample", ["dispatcher", "largest"])
def test_the_budget_charts_line_up(sample):
    """Their y axes have one fixed width and their x axes one domain, so the budgets of the
    characters chart stand over the same budgets of the messages and anchors charts."""
    at = goto(start({"sample": sample}), PAGE)
    assert_clean(at)
    specs = [spec for spec, _ in charts(at)]
    assert len(specs) == 4  # characters, messages, anchors; then the needed-later recall curve
    (chars_axis,), (messages_axis,), (anchors_axis,) = (y_axes(s) for s in specs[:3])
    assert anchors_axis["minExtent"] == anchors_axis["maxExtent"] == chars_axis["maxExtent"]
    recall_axes = y_axes(specs[3])
    assert recall_axes and all(a["minExtent"] == chars_axis["maxExtent"] for a in recall_axes)
    assert chars_axis["minExtent"] == chars_axis["maxExtent"]
    assert (messages_axis["minExtent"], messages_axis["maxExtent"]) == (
        chars_axis["minExtent"],
        chars_axis["maxExtent"],
    )
    domains = [
        layer["encoding"]["x"]["scale"]["domain"]
        for spec in specs
        for layer in spec["layer"]
        if "scale" in layer["encoding"].get("x", {})
    ]
    assert len(domains) >= 2 and all(d == domains[0] for d in domains)


def anchor_curve(at):
    frame = chart_rows(at, "anchor_share")
    sentence = next(m.value for m in at.markdown if m.value.startswith("At the current budget"))
    steps = [(int(r.budget), int(r.anchors_kept), int(r.output_chars)) for r in frame.itertuples()]
    return steps, sentence


def expected_curve(result):
    report = anchor_report(result)
    frame = sweep_frames.retention_frame(report, result.totals.input)
    steps = [(int(r.budget), int(r.anchors_kept), int(r.output_chars)) for r in frame.itertuples()]
    return steps, sweep_frames.retention_sentence(report)


@pytest.mark.parametrize("move", [MOVES[0], MOVES[4]], ids=lambda m: f"{m[0]}={m[1]}")
def test_the_anchor_curve_is_the_engine_s_retention(move):
    follows_the_engine(PAGE, rich_request(), anchor_curve, expected_curve, move)


def test_the_anchor_curve_marks_the_current_budget():
    at = goto(start({"sample": "support-chat"}), PAGE)
    assert_clean(at)
    budget = engine(at).request.params.budget_chars
    (spec, data), *_ = [
        (s, d) for s, d in charts(at) if any("anchor_share" in f for f in d.values())
    ]
    (rule,) = [layer for layer in spec["layer"] if layer["mark"]["type"] == "rule"]
    assert rule["encoding"]["x"]["field"] == "value"
    ruled = [f for f in data.values() if "label" in f.columns and "value" in f.columns]
    assert [(int(f["value"][0]), f["label"][0]) for f in ruled] == [
        (budget, f"current budget {budget:,}")
    ]
