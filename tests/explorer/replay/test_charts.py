"""The Replay page's charts: what they draw, from which columns, and the loss selection; each
loop in a colour of its own, named in full; the cache share smoothed; the drift lost so far
beside what is not sent now."""

import pandas as pd

from explorer.replay import charts
from explorer.theme import FATE_COLOURS, LOOP_COLOURS

TURNS = pd.DataFrame(
    {
        "loop": ["A", "A", "B", "B"],
        "turn": [1, 2, 1, 2],
        "messages_in": [2, 3, 2, 3],
        "chars_in": [10, 20, 10, 20],
        "messages_out": [2, 2, 2, 1],
        "chars_out": [10, 15, 10, 8],
        "compacted": [True] * 4,
        "stable_prefix_messages": [1, 1, 0, 0],
        "stable_prefix_chars": [5, 5, 0, 0],
        "stable_share": [0.5, 1 / 3, 0.0, 0.0],
        "stable_share_smoothed": [0.5, 0.4, 0.0, 0.0],
        "anchors_lost_ever": [0, 1, 0, 2],
        "anchors_missing": [0, 1, 0, 1],
        "anchors_back": [0, 0, 0, 1],
    }
)
POINTS = pd.DataFrame(
    {
        "loop": ["A", "B"],
        "turn": [2, 2],
        "index": [0, 1],
        "how": ["trim", "removal"],
        "lost_so_far": [1, 2],
        "anchors": [1, 2],
        "again": [0, 1],
        "first": ["DE-4471", "Lyon"],
    }
)


def layers(spec):
    return spec.get("layer", [spec])


def test_characters_sent_against_the_budget():
    spec = charts.sent_spec(TURNS, 12)
    assert spec["datasets"][charts.TURNS] is TURNS
    line, rule = layers(spec)
    assert line["data"] == {"name": charts.TURNS}
    assert line["mark"]["type"] == "line"
    assert line["encoding"]["y"]["field"] == "chars_out"
    assert line["encoding"]["color"]["scale"] == {
        "domain": ["A", "B"],
        "range": list(LOOP_COLOURS),
    }
    assert rule["mark"]["type"] == "rule"
    budget = spec["datasets"][rule["data"]["name"]]
    assert budget.to_dict("records") == [{"value": 12, "label": "budget_chars 12"}]


def test_the_stable_share_is_a_percentage_axis():
    spec = charts.prefix_spec(TURNS)
    assert spec["datasets"][charts.TURNS] is TURNS
    each, smoothed = layers(spec)
    assert each["data"] == smoothed["data"] == {"name": charts.TURNS}
    y = each["encoding"]["y"]
    assert y["field"] == "stable_share" and y["scale"]["domain"] == [0, 1]
    assert y["axis"]["format"] == "%"


LONG = "keep-last (what fits the budget)"
LOOPS = ["memory-compact, every turn", LONG]


def test_the_cache_share_is_smoothed_in_a_colour_per_setting_named_in_full():
    named = TURNS.replace({"loop": {"A": LOOPS[0], "B": LONG}})
    each, smoothed = layers(charts.prefix_spec(named))
    assert smoothed["encoding"]["y"]["field"] == "stable_share_smoothed"
    assert smoothed["mark"]["strokeWidth"] > each["mark"]["strokeWidth"]
    assert each["mark"]["opacity"] < 1  # each turn's comb, faint behind
    for layer in (each, smoothed):
        colour = layer["encoding"]["color"]
        assert colour["field"] == "loop"
        assert colour["scale"]["domain"] == LOOPS
        assert "strokeDash" not in layer["encoding"]  # told apart by colour, not dashes
    colours = smoothed["encoding"]["color"]["scale"]["range"]
    assert len(set(colours)) == 2 and not set(colours) & set(FATE_COLOURS.values())
    assert all(c.startswith("#") for c in colours)  # a hue of its own, not the theme's ink
    legend = smoothed["encoding"]["color"]["legend"]
    assert legend["labelLimit"] == 0 or legend["labelLimit"] >= 7 * len(LONG)
    assert legend["direction"] == "vertical"  # one line each: a half-width chart holds it
    tips = {t["field"] for t in smoothed["encoding"]["tooltip"]}
    assert {"loop", "stable_share_smoothed", "stable_share"} <= tips


def test_each_loss_is_a_point_a_click_selects():
    spec = charts.drift_spec(TURNS, POINTS)
    line, points = layers(spec)
    assert points["data"] == {"name": charts.POINTS}
    assert spec["datasets"][charts.POINTS] is POINTS
    (fold, calculate) = line["transform"]
    assert fold["fold"] == ["anchors_lost_ever", "anchors_missing"]
    assert line["encoding"]["y"]["field"] == fold["as"][1]
    dash = line["encoding"]["strokeDash"]
    assert dash["scale"]["domain"] == list(charts.DRIFT_LINES.values())
    assert dash["legend"]["labelLimit"] == 0
    assert "'lost so far (never falls)'" in calculate["calculate"]
    assert points["mark"]["type"] == "point"
    (param,) = spec["params"]  # Altair lifts a layer's selection to the top
    assert param["name"] == charts.LOSS
    assert param["select"]["fields"] == ["loop", "turn", "index"]
    assert param["views"] == [points["name"]]
    assert points["encoding"]["y"]["field"] == "lost_so_far"


def test_a_spec_is_made_once_per_shape_and_never_shared():
    first = charts.sent_spec(TURNS, 12)
    first["layer"][0]["mark"]["type"] = "changed by Streamlit"
    again = charts.sent_spec(TURNS.iloc[::-1], 12)  # other rows, the same loops and budget
    assert again["layer"][0]["mark"]["type"] == "line"
    assert again["datasets"][charts.TURNS]["turn"].tolist() == [2, 1, 2, 1]
    other = charts.sent_spec(TURNS, 99_000)
    budget = other["datasets"][layers(other)[1]["data"]["name"]]
    assert budget.to_dict("records") == [{"value": 99_000, "label": "budget_chars 99,000"}]
    solo = charts.prefix_spec(TURNS[TURNS["loop"] == "B"])
    assert layers(solo)[1]["encoding"]["color"]["scale"]["domain"] == ["B"]


def test_the_spec_has_no_default_theme_size():
    # Streamlit converts Altair charts without Altair's default theme; so does the template
    assert "continuousWidth" not in str(charts.prefix_spec(TURNS).get("config", {}))


def test_a_click_picks_the_first_usable_loss_and_nothing_else_picks_one():
    point = {"loop": "memory-compact", "turn": "7", "index": 3}
    event = {"selection": {charts.LOSS: [{"loop": "x"}, point]}}
    assert charts.picked_loss(event) == ("memory-compact", 7, 3)
    assert charts.picked_loss(None) is None
    assert charts.picked_loss({"selection": {}}) is None
    assert charts.picked_loss({"selection": {charts.LOSS: [{**point, "turn": "seven"}]}}) is None
