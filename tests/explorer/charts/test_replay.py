"""The Replay page's charts: what they draw, from which columns, and the loss selection."""

import pandas as pd

from explorer.charts import replay as charts
from explorer.theme import INK, TOTAL_COLOUR

TURNS = pd.DataFrame(
    {
        "setting": ["A", "A", "B", "B"],
        "turn": [1, 2, 1, 2],
        "messages_in": [2, 3, 2, 3],
        "chars_in": [10, 20, 10, 20],
        "messages_out": [2, 2, 2, 1],
        "chars_out": [10, 15, 10, 8],
        "compacted": [True] * 4,
        "stable_prefix_messages": [1, 1, 0, 0],
        "stable_prefix_chars": [5, 5, 0, 0],
        "stable_share": [0.5, 1 / 3, 0.0, 0.0],
        "anchors_lost": [0, 1, 0, 2],
    }
)
POINTS = pd.DataFrame(
    {
        "setting": ["A", "B"],
        "turn": [2, 2],
        "index": [0, 1],
        "how": ["trim", "removal"],
        "lost_so_far": [1, 2],
        "anchors": [1, 2],
        "first": ["DE-4471", "Lyon"],
    }
)


def layers(spec):
    return spec.get("layer", [spec])


def test_characters_sent_against_the_budget():
    spec = charts.sent_chart(TURNS, 12).to_dict()
    line, rule = layers(spec)
    assert line["mark"]["type"] == "line"
    assert line["encoding"]["y"]["field"] == "chars_out"
    assert line["encoding"]["color"]["scale"] == {
        "domain": ["A", "B"],
        "range": [INK, TOTAL_COLOUR],
    }
    assert rule["mark"]["type"] == "rule"
    (budget,) = spec["datasets"][rule["data"]["name"]]
    assert budget["value"] == 12


def test_the_stable_share_is_a_percentage_axis():
    spec = charts.prefix_chart(TURNS).to_dict()
    y = spec["encoding"]["y"]
    assert y["field"] == "stable_share" and y["scale"]["domain"] == [0, 1]
    assert y["axis"]["format"] == "%"


def test_each_loss_is_a_point_a_click_selects():
    spec = charts.drift_chart(TURNS, POINTS).to_dict()
    line, points = layers(spec)
    assert line["encoding"]["y"]["field"] == "anchors_lost"
    assert points["mark"]["type"] == "point"
    (param,) = spec["params"]  # Altair lifts a layer's selection to the top
    assert param["name"] == charts.LOSS
    assert param["select"]["fields"] == ["setting", "turn", "index"]
    assert param["views"] == [points["name"]]
    assert points["encoding"]["y"]["field"] == "lost_so_far"
