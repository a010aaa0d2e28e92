"""Scores: each scored message's score, whether it was dropped, and the drop line."""

import pytest

from compactor.analyses._markup import term_sources, without_markup
from harness.apptest import (
    MOVES,
    assert_clean,
    chart_rows,
    charts,
    engine,
    follows_the_engine,
    on_page,
    table,
)
from tests.compactor.analyses.test_markup import tool_heavy
from tests.explorer.requests import rich_request

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


def test_terms_from_import_markup_are_counted_and_scores_shown_without_them():
    request = tool_heavy()
    at = on_page(PAGE, request)
    assert_clean(at)
    result = engine(at)
    terms = table(at, "in_markup")
    assert dict(zip(terms["term"], terms["in_markup"], strict=True)) == {
        t.term: t.in_markup for t in term_sources(result)
    }
    assert terms.set_index("term").loc["tool", "from_markup"]
    assert "scores_without_markup" in [t.key for t in at.toggle]
    at.toggle(key="scores_without_markup").set_value(True).run()
    assert_clean(at)
    shown = table(at, "score_without")
    expected = without_markup(result).scores
    assert list(shown["score_without"]) == [s.score_without for s in expected]
    assert list(shown["drop_order_without"]) == [s.drop_order_without for s in expected]


def test_a_history_without_markup_has_no_markup_section():
    at = on_page(PAGE, rich_request())
    assert_clean(at)
    assert "scores_without_markup" not in [t.key for t in at.toggle]
