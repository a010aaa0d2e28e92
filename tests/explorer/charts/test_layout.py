"""Chart layout: plots keep their height whatever the legends, rules never sit on the edge, long
lists of trimmed messages stay one screen tall, and a missing score is said, not "null"."""

import pytest

from compactor import run, validate
from compactor.samples import load_sample
from explorer.charts import views as charts
from explorer.frames import views
from tests.explorer.requests import rich_request


@pytest.fixture(scope="module")
def rich():
    return run(validate(rich_request()))


@pytest.fixture(scope="module")
def largest():
    return run(validate(load_sample("largest").request))


def every_chart(result):
    budget = result.request.params.budget_chars
    frame = views.scores_frame(result)
    return {
        "fate_timeline": charts.fate_timeline(views.fate_frame(result), height=222),
        "waterfall": charts.waterfall(views.waterfall_frame(result.totals), budget, height=222),
        "output": charts.output_against_budget(views.output_frame(result), budget, height=44),
        "protected": charts.protected_against_budget(views.protected_frame(result), budget),
        "scores": charts.scores(views.score_parts_frame(frame), views.drop_line(result)),
        "topics": charts.topic_terms(views.topic_frame(result)),
        "similarity": charts.similarity(views.similarity_frame(result), 0.9, height=222),
        "trims": charts.trims(views.trim_bars(views.trim_frame(result)), 200),
    }


def test_every_chart_fits_the_width_and_gives_its_height_to_the_plot(rich):
    """With Streamlit's default ("fit"), legends above and below squeeze the plot (a one-bar
    chart's plot shrank to a few pixels, its budget rule to a dash)."""
    specs = {name: chart.to_dict() for name, chart in every_chart(rich).items()}
    for name, spec in specs.items():
        assert spec["autosize"] == {"type": "fit-x", "contains": "padding"}, name
    for name in ("fate_timeline", "waterfall", "similarity"):
        assert specs[name]["height"] == 222
    assert specs["topics"]["height"] == 22 * len(views.topic_frame(rich))


@pytest.mark.parametrize("name", ["output", "protected"])
def test_one_bar_charts_leave_room_past_the_bar_and_the_budget(rich, name):
    chart = every_chart(rich)[name]
    bars = chart.to_dict()["layer"][0]
    frame = views.output_frame(rich) if name == "output" else views.protected_frame(rich)
    top = max(rich.request.params.budget_chars, frame["end"].max())
    assert bars["encoding"]["x"]["scale"]["domainMax"] > top


def test_few_trimmed_messages_get_a_row_each_many_a_column_each(rich, largest):
    few = charts.trims(views.trim_bars(views.trim_frame(rich)), 200).to_dict()
    bars, rule = few["layer"]
    assert len(rich.trimming.cuts) <= charts.TRIM_ROWS
    assert bars["encoding"]["y"]["field"] == "message"
    assert "x" in rule["encoding"] and few["height"] == 30 * len(rich.trimming.cuts)
    limit = largest.request.params.max_message_chars
    many = charts.trims(views.trim_bars(views.trim_frame(largest)), limit).to_dict()
    bars, rule = many["layer"]
    assert len(largest.trimming.cuts) > charts.TRIM_ROWS
    assert bars["encoding"]["x"]["field"] == "message"
    assert bars["encoding"]["x"]["sort"][:3] == [f"#{c.index}" for c in largest.trimming.cuts[:3]]
    assert "y" in rule["encoding"] and many["height"] == 260


def test_the_similarity_axis_runs_from_message_0_to_the_last_point(rich):
    frame = views.similarity_frame(rich)
    spec = charts.similarity(frame, 0.9).to_dict()
    points = spec["layer"][0]
    assert points["encoding"]["x"]["scale"] == {
        "domain": [-0.5, int(frame["index"].max()) + 0.5],
        "nice": False,
    }


def test_the_timeline_tooltip_says_not_scored_instead_of_null(rich):
    spec = charts.fate_timeline(views.fate_frame(rich)).to_dict()
    (calculate,) = [t for t in spec["transform"] if t.get("as") == "score_text"]
    assert "'not scored'" in calculate["calculate"]
    assert {"field": "score_text", "title": "Score", "type": "nominal"} in spec["encoding"][
        "tooltip"
    ]
    assert any(t.score is None for t in rich.messages)  # protected ones are not scored
