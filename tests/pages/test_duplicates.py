"""Duplicates: the removed pairs with their shared words, and every message's nearest similarity."""

import html
import re

import pytest

from compactor.analyses._semantic_pairs import semantic_pairs
from compactor.text._semantic import semantic_similarity
from harness.apptest import MOVES, chart_rows, engine, follows_the_engine, on_page, table
from tests.explorer.requests import rich_request

PAGE = "pages/duplicates.py"


def reported(at):
    heading = next(s.value for s in at.subheader if s.value.startswith("Removed pairs"))
    pairs = [
        m.value.split("**")[1] for m in at.markdown if " removed as a duplicate of " in m.value
    ]
    points = chart_rows(at, "similarity").sort_values("index")
    near = [(r.index, r.nearest, round(r.similarity, 9), r.fate) for r in points.itertuples()]
    return {"heading": heading, "pairs": pairs, "points": near}


def expected(result):
    removed = result.deduplication.removed
    near = [
        (t.index, t.nearest.index, round(t.nearest.similarity, 9), t.fate.value)
        for t in result.messages
        if t.nearest is not None
    ]
    return {
        "heading": f"Removed pairs: {len(removed)}",
        "pairs": [f"#{r.index} removed as a duplicate of #{r.duplicate_of}" for r in removed],
        "points": near,
    }


@pytest.mark.parametrize("move", MOVES, ids=lambda m: f"{m[0]}={m[1]}")
def test_the_duplicates_follow_the_engine(move):
    follows_the_engine(PAGE, rich_request(), reported, expected, move)


def test_each_pair_shows_both_texts_with_the_shared_words_highlighted():
    request = rich_request()
    at = on_page(PAGE, request)
    boxes = [h.value for h in at.html if "<mark" in h.value]
    assert len(boxes) == 4  # two pairs, two sides each
    earlier, removed = boxes[2], boxes[3]  # #6 (pinned) and #8, its near-copy
    for box, index in ((earlier, 6), (removed, 8)):
        assert html.unescape(re.sub(r"<[^>]+>", "", box)) == request["messages"][index]["content"]
    assert earlier.count("<mark") == 8  # every word of "Please also check order AC-9876 for me."
    threshold_rule = chart_rows(at, "value")
    assert list(threshold_rule["value"]) == [0.9]


def test_every_message_without_a_point_is_listed_with_its_reason():
    at = on_page(PAGE, rich_request())
    result = engine(at)
    alone = table(at, "reason")
    points = set(chart_rows(at, "similarity")["index"])
    listed = [int(m.lstrip("#")) for m in alone["message"]]
    # every message is either a point in the chart or a row here, never both, never neither
    assert sorted([*points, *listed]) == [t.index for t in result.messages]
    first_of_role = {}
    for t in result.messages:
        first_of_role.setdefault(t.message.role, t.index)
    assert sorted(listed) == sorted(first_of_role.values())
    assert set(alone["reason"]) == {"first of its role: nothing earlier to compare with"}


def test_same_fact_in_other_words_lists_the_engines_semantic_pairs():
    request = {
        "messages": [
            {"role": "user", "content": "My parcel has not arrived yet and it is a week late."},
            {"role": "assistant", "content": "Sorry to hear that; let me look."},
            {"role": "user", "content": "The package I ordered still hasn't been delivered."},
            {"role": "assistant", "content": "It is in the Porto depot."},
        ],
        "budget_chars": 400,
    }
    at = on_page(PAGE, request)
    at.slider(key="semantic_threshold").set_value(0.3).run()
    result = engine(at)
    pairs = semantic_pairs(
        result, 0.3, semantic=semantic_similarity(result.request.contents, result.request.roles)
    )
    assert pairs  # the two user messages say the same thing in other words
    shown = table(at, "semantic")
    assert list(zip(shown["earlier"], shown["later"], shown["semantic"], strict=True)) == [
        (f"#{p.a}", f"#{p.b}", p.semantic) for p in pairs
    ]
    assert all(w < result.request.params.duplicate_threshold for w in shown["word_overlap"])
