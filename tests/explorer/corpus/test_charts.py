"""The Corpus page's charts over the engine's summaries and rows: every setting a point, the
frontier's points joined in order of characters, the chosen one ringed, one bar per setting,
and the histograms counting every conversation of the setting."""

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


def test_every_setting_is_a_point_and_each_budgets_frontier_a_line_in_order(summary):
    chosen = summary["setting"][3]
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
    assert {b for b, _, _ in drawn} == set(summary["budget_chars"])  # a frontier per budget
    for budget in set(summary["budget_chars"]):
        mine = summary[summary["budget_chars"] == budget]
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
                for o in mine.itertuples()
            )
        ]
        assert [(c, r) for b, c, r in drawn if b == budget] == sorted(brute)
    assert [r["setting"] for r in data_of(spec, ring)] == [chosen]
    assert points["encoding"]["x"]["field"] == "chars_per_conversation"
    assert points["encoding"]["x"]["scale"] == {"zero": True}  # the axis from 0
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


def test_the_frontiers_points_are_labelled_by_their_setting(summary):
    spec = charts.frontier(summary).to_dict()
    above, below = [u for u in units(spec) if u["mark"]["type"] == "text"]
    assert above["encoding"]["text"]["field"] == below["encoding"]["text"]["field"] == "point"
    assert (above["mark"]["baseline"], below["mark"]["baseline"]) == ("bottom", "top")
    texts = {
        (r["chars_per_conversation"], r["retention"]): r["point"]
        for layer in (above, below)
        for r in data_of(spec, layer)
    }
    on = summary[summary["frontier_at_budget"]]
    # the grid varies the budget, keep_last_n and max_message_chars: the label names those,
    # beside its point (settings drawn at one point share its label)
    for row in on.itertuples():
        name = f"{row.budget_chars:,} · last {row.keep_last_n} · trim {row.max_message_chars:,}"
        at = (round(row.chars_per_conversation, 6), round(row.retention, 6))
        assert name in texts[at].split(" / ")
    assert sum(len(t.split(" / ")) for t in texts.values()) == len(on)


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
    named = [n for layer in labels for r in data_of(spec, layer) for n in r["point"].split(" / ")]
    assert sorted(named) == sorted(frontier["point"])
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
