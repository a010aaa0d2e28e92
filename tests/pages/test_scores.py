"""Scores: each scored message's score, whether it was dropped, and the drop line."""

import pytest

from tests.explorer.requests import rich_request
from tests.pages.apptest import (
    MOVES,
    assert_clean,
    chart_rows,
    charts,
    engine,
    follows_the_engine,
    on_page,
    table,
)

PAGE = "pages/scores.py"


def reported(at):
    frame = table(at, "score")
    rows = sorted(zip(frame["message"], frame["score"], frame["dropped"], strict=True))
    lines = [m.value for m in at.markdown if m.value.startswith("**Drop line")]
    nothing = any("Nothing was dropped" in s.value for s in at.success)
    return {"rows": rows, "line": lines[0].split("**")[1] if lines else None, "none": nothing}


def expected(result):
    dropped = {d.index for d in result.dropping.dropped}
    scores = result.dropping.scores
    rows = sorted((f"#{i}", s.value, i in dropped) for i, s in scores.items())
    line = max((d.score for d in result.dropping.dropped), default=None)
    return {
        "rows": rows,
        "line": None if line is None else f"Drop line {line:g}",
        "none": line is None,
    }


@pytest.mark.parametrize("move", MOVES, ids=lambda m: f"{m[0]}={m[1]}")
def test_the_scores_follow_the_engine(move):
    follows_the_engine(PAGE, rich_request(), reported, expected, move)


def test_the_chart_stacks_each_scored_messages_components_and_topic_terms_are_listed():
    at = on_page(PAGE, rich_request())
    parts = chart_rows(at, "component")
    assert set(parts["component"]) == {"recency", "role", "topic overlap"}
    sums = parts.groupby("index")["value"].sum()
    scores = parts.drop_duplicates("index").set_index("index")["score"]
    assert ((sums - scores).abs() <= 5e-7).all()
    terms = chart_rows(at, "term")
    assert len(terms) == 25


def test_ordering_by_drop_order_keeps_the_same_data():
    at = on_page(PAGE, rich_request())
    at.segmented_control(key="scores_order").set_value("drop order").run()
    assert_clean(at)
    stacked = next(spec for spec, _ in charts(at) if "layer" in spec)
    order = [f"#{i}" for i in engine(at).dropping.order]
    assert stacked["layer"][0]["encoding"]["x"]["sort"] == order
