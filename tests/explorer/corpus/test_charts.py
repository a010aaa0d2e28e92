"""The Corpus page's charts over the engine's summaries and rows: every setting a point, the
frontier's points joined in order of characters, the chosen one ringed, one bar per setting,
and the histograms counting every conversation of the setting."""

import pandas as pd
import pytest

from compactor.evaluation import RunOptions, evaluate, grid_points, load_corpus, summarise
from explorer.corpus import charts, frames
from explorer.theme import FATE_COLOURS, INK, TOTAL_COLOUR
from tests.paths import ROOT

SHAREGPT = ROOT / "tests" / "fixtures" / "real" / "sharegpt_glaive_toolcall_4_records.json"


@pytest.fixture(scope="module")
def rows():
    grid = {"keep_last_n": [1, 4], "max_message_chars": [120, 400]}
    settings = grid_points({}, grid)
    return list(
        evaluate(
            load_corpus(SHAREGPT), settings, budgets=[300, 1500], options=RunOptions(workers=1)
        )
    )


@pytest.fixture(scope="module")
def summary(rows):
    return frames.summary_frame(summarise(rows))


def units(spec):
    if "layer" in spec:
        for layer in spec["layer"]:
            yield from units(layer)
    else:
        yield spec


def data_of(spec, unit):
    return spec["datasets"][unit["data"]["name"]]


def test_every_setting_is_a_point_and_each_budgets_frontier_a_line_in_order(summary, rows):
    chosen = summary["setting"][3]
    reference = frames.baseline_frame(summarise(rows))
    spec = charts.frontier(summary, chosen).to_dict()
    layers = list(units(spec))
    line = next(u for u in layers if u["mark"]["type"] == "line")
    points, ring = [u for u in layers if u["mark"]["type"] == "point"]
    assert {r["setting"] for r in data_of(spec, points)} == set(summary["setting"])
    # one line per budget (the budget is its detail), through that budget's frontier
    assert line["encoding"]["detail"]["field"] == "budget_chars"
    drawn = [
        (r["budget_chars"], r["chars_per_conversation"], r["retention"])
        for r in data_of(spec, line)
    ]
    # a frontier per budget, empty where keep-last or random beats every setting of it
    assert drawn and {b for b, _, _ in drawn} <= set(summary["budget_chars"])
    for budget in set(summary["budget_chars"]):
        mine = summary[summary["budget_chars"] == budget]
        theirs = reference[reference["budget_chars"] == budget]  # keep-last and random beat too
        brute = [
            (row.chars_per_conversation, row.retention)
            for row in mine.itertuples()
            if not any(
                o.retention >= row.retention
                and o.chars_per_conversation <= row.chars_per_conversation
                and (
                    o.retention > row.retention
                    or o.chars_per_conversation < row.chars_per_conversation
                )
                for o in [*mine.itertuples(), *theirs.itertuples()]
            )
        ]
        assert [(c, r) for b, c, r in drawn if b == budget] == sorted(brute)
    assert [r["setting"] for r in data_of(spec, ring)] == [chosen]
    assert points["encoding"]["x"]["field"] == "chars_per_conversation"
    scale = points["encoding"]["x"]["scale"]  # the axis from 0, past the widest point
    assert scale["domain"][0] == 0 and scale["domain"][1] > summary["chars_per_conversation"].max()
    assert points["encoding"]["y"]["field"] == "retention"
    assert points["encoding"]["y"]["scale"] == {"domain": [0, 1]}
    colour = points["encoding"]["color"]
    assert colour["scale"] == {
        "domain": [charts.FRONTIER, charts.INSIDE],
        "range": [INK, TOTAL_COLOUR],
    }
    places = {r["setting"]: r["place"] for r in data_of(spec, points)}
    for setting, on in zip(summary["setting"], summary["frontier_at_budget"], strict=True):
        assert places[setting] == (charts.FRONTIER if on else charts.INSIDE)


def label_rows(spec):
    return [r for u in units(spec) if u["mark"]["type"] == "text" for r in data_of(spec, u)]


def test_a_handful_of_frontier_points_are_labelled_by_their_setting(summary):
    chosen = summary["setting"][0]
    spec = charts.frontier(summary, chosen).to_dict()
    texts = [r["text"] for r in label_rows(spec)]
    assert 1 <= len(texts) <= charts.MAX_LABELS
    on = summary[summary["frontier_at_budget"]]
    current = summary[summary["setting"] == chosen]["point"].iloc[0]
    assert f"current: {current}" in texts
    # the grid varies the budget, keep_last_n and max_message_chars: a label names those
    for text in texts:
        assert text.removeprefix("current: ") in set(on["point"]) | {current}
    for unit in units(spec):
        if unit["mark"]["type"] == "text":
            assert unit["encoding"]["text"]["field"] == "text"


def test_the_labels_never_overlap_nor_leave_the_chart():
    # forty frontier points packed along a curve: far more than can be labelled
    points = pd.DataFrame(
        {
            "chars_per_conversation": [100 + 25 * k for k in range(40)],
            "retention": [min(1.0, 0.3 + 0.02 * k) for k in range(40)],
            "text": [f"budget {1000 + k:,} · last {k % 7} · trim {200 + k}" for k in range(40)],
        }
    )
    laid = charts.label_layout(points, "retention", 1100.0, height=320)
    assert 0 < len(laid) < len(points)
    for a in range(len(laid)):
        box = laid.iloc[a]
        assert 0 <= box["left"] < box["right"] <= charts.LAYOUT_WIDTH
        assert 0 <= box["top"] < box["bottom"] <= 320
        for b in range(a + 1, len(laid)):
            other = laid.iloc[b]
            assert not (
                box["left"] < other["right"]
                and other["left"] < box["right"]
                and box["top"] < other["bottom"]
                and other["top"] < box["bottom"]
            )
    # a point at the right edge is labelled on its left, inside the chart
    edge = charts.label_layout(points.iloc[[-1]], "retention", 1075.0, height=320)
    assert edge["align"].tolist() == ["right"]


def test_a_setting_keep_last_dominates_is_never_on_the_frontier():
    settings = pd.DataFrame(
        {
            "budget_chars": [1000, 1000],
            "chars_per_conversation": [800.0, 500.0],
            "retention": [0.6, 0.4],
        }
    )
    keep_last = pd.DataFrame(
        {"budget_chars": [1000], "chars_per_conversation": [700.0], "retention": [0.7]}
    )
    assert frames.frontier_at_budget(settings, "retention").tolist() == [True, True]
    assert frames.frontier_at_budget(settings, "retention", keep_last).tolist() == [False, True]


def test_no_ring_when_no_setting_is_chosen(summary):
    spec = charts.frontier(summary).to_dict()
    assert sum(u["mark"]["type"] == "point" for u in units(spec)) == 1


def test_one_bar_per_setting_at_its_budget_met_rate(summary):
    spec = charts.budget_met(summary).to_dict()
    bars = data_of(spec, spec)
    assert [(b["setting"], b["budget_met_rate"]) for b in bars] == list(
        zip(summary["setting"], summary["budget_met_rate"], strict=True)
    )
    assert spec["encoding"]["x"]["scale"]["domain"] == [0, 1]
    assert spec["encoding"]["y"]["sort"] is None  # the summaries' order


@pytest.mark.parametrize("at", [0, 5])
def test_the_histograms_count_the_settings_conversations(rows, summary, at):
    setting = frames.setting_of(summarise(rows)[at])
    frame = frames.rows_frame(frames.setting_rows(rows, setting))
    retention = charts.retention_histogram(frame).to_dict()
    counted = data_of(retention, retention)
    assert len(counted) == int(frame["retention"].notna().sum())  # no anchors: left out
    assert retention["encoding"]["x"]["bin"] == {"extent": [0, 1], "step": 0.1}
    out = charts.output_histogram(frame).to_dict()
    assert sorted(r["output_chars"] for r in data_of(out, out)) == sorted(frame["output_chars"])
    for spec in (retention, out):
        met = {r["met"] for r in data_of(spec, spec)}
        assert met <= {charts.MET, charts.MISSED}
        assert spec["encoding"]["color"]["scale"]["domain"] == [charts.MISSED, charts.MET]


def test_the_needed_later_recall_frontier_with_the_baselines_at_each_budget(rows, summary):
    reference = frames.baseline_frame(summarise(rows))
    spec = charts.frontier(summary, measure="needed_recall", baselines=reference).to_dict()
    layers = list(units(spec))
    baselines, line, points, *labels = layers
    assert points["encoding"]["y"]["field"] == "needed_recall"
    drawn = [(r["chars_per_conversation"], r["needed_recall"]) for r in data_of(spec, line)]
    frontier = summary[summary["frontier_needed_at_budget"]].sort_values(
        ["budget_chars", "chars_per_conversation"]
    )
    assert drawn == list(
        zip(frontier["chars_per_conversation"], frontier["needed_recall"], strict=True)
    )
    named = [r["text"] for layer in labels for r in data_of(spec, layer)]
    assert set(named) <= set(frontier["point"])
    assert bool(named) == bool(len(frontier))  # no frontier (keep-last beats all): no label
    shown = sorted((r["strategy"], r["budget_chars"]) for r in data_of(spec, baselines))
    assert shown == sorted((s, b) for s in ("keep-last", "random") for b in (300, 1500))
    assert baselines["encoding"]["shape"]["scale"]["domain"] == list(charts.BASELINE_SHAPES)
    assert baselines["mark"]["color"] == TOTAL_COLOUR


def test_no_chart_uses_a_fate_colour(summary, rows):
    frame = frames.rows_frame(frames.setting_rows(rows, frames.setting_of(summarise(rows)[0])))
    specs = [
        charts.frontier(summary, summary["setting"][0]),
        charts.frontier(
            summary, measure="needed_recall", baselines=frames.baseline_frame(summarise(rows))
        ),
        charts.budget_met(summary),
        charts.retention_histogram(frame),
        charts.output_histogram(frame),
    ]
    fates = set(FATE_COLOURS.values())
    for chart in specs:
        text = str(chart.to_dict())
        assert not any(colour in text for colour in fates)


def test_the_recommend_pages_winner_is_a_diamond_labelled_recommended(summary):
    chosen = summary["setting"][0]
    point = {
        "chars_per_conversation": float(summary["chars_per_conversation"].median()),
        "retention": 0.5,
        "needed_recall": None,
        "setting": 'anchor-keep {"unit_chars": 86} at 900 characters',
        "label": "anchor-keep",
    }
    spec = charts.frontier(summary, chosen, recommended_point=point).to_dict()
    texts = [r["text"] for r in label_rows(spec)]
    assert "recommended: anchor-keep" in texts and len(texts) <= charts.MAX_LABELS
    (diamond,) = [u for u in units(spec) if u["mark"].get("shape") == "diamond"]
    (drawn,) = data_of(spec, diamond)
    assert (drawn["chars_per_conversation"], drawn["retention"]) == (
        point["chars_per_conversation"],
        0.5,
    )
    assert drawn["setting"] == point["setting"]  # named on hover
    # a point without a figure of the measure shown is neither drawn nor labelled
    spec = charts.frontier(
        summary, chosen, measure="retention", recommended_point=point | {"retention": None}
    ).to_dict()
    assert not [u for u in units(spec) if u["mark"].get("shape") == "diamond"]
    assert not any(t.startswith("recommended") for t in (r["text"] for r in label_rows(spec)))
