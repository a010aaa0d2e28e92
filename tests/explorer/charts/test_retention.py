"""The Budget sweep's anchors chart: two step lines (anchors kept, characters out) as shares on
one axis from 0 to 100%, over the engine's retention curve, and the current budget as a rule."""

from compactor import run, validate
from compactor.analyses.anchors._report import anchor_report, retention_curve
from explorer.charts import sweeps as sweep_charts
from explorer.frames import sweeps as sweep_frames
from tests.explorer.requests import rich_request


def test_the_anchor_chart_spec():
    result = run(validate(rich_request()))
    report = anchor_report(result)
    frame = sweep_frames.retention_frame(report, result.totals.input)
    spec = sweep_charts.retention(frame, 600, extent=57).to_dict()
    lines, points, rule = spec["layer"]
    assert lines["mark"] == {"type": "line", "interpolate": "step-after", "strokeWidth": 2.5}
    (fold,) = [t for t in lines["transform"] if "fold" in t]
    assert fold["fold"] == ["anchor_share", "char_share"]
    assert lines["encoding"]["y"]["scale"]["domain"] == [0, 1]
    assert lines["encoding"]["y"]["axis"]["minExtent"] == 57
    assert lines["encoding"]["color"]["scale"]["domain"] == ["anchors kept", "characters out"]
    assert rule["mark"]["type"] == "rule"
    datasets = spec["datasets"]
    assert [d for d in datasets.values() if d and d[0].get("label") == "current budget 600"]
    # the points are the curve's steps (the closing row at the axis's end is not a step)
    shown = datasets[points["data"]["name"]]
    steps = retention_curve(report)
    assert [(p["budget"], p["anchors_kept"]) for p in shown] == [
        (s.from_budget, s.anchors_kept) for s in steps if s.from_budget <= frame["budget"].max()
    ]
