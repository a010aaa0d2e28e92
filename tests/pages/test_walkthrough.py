"""Walkthrough: each step shows what the engine's walkthrough says it did, with the running total;
the step moves with Back, Next and the step buttons, and is kept across pages."""

import html
import re

import pytest

from compactor.analyses._walkthrough import walkthrough
from compactor.samples import load_samples
from explorer.frames import views
from explorer.session.keys import STEP_KEY
from explorer.walkthrough import charts as walk_charts
from explorer.widgets.tuning import PRESENTING_KEY, STAGE_KEY
from harness.apptest import (
    MOVES,
    assert_clean,
    chart_rows,
    charts,
    engine,
    follows_the_engine,
    goto,
    load,
    metrics,
    on_page,
    start,
    static_table,
    table,
)
from tests.explorer.requests import hostile_request, rich_request

PAGE = "pages/walkthrough.py"


def shown_step(at):
    return at.button_group(key=STEP_KEY).value


def presenting(at):
    return at.toggle(key=PRESENTING_KEY).value


def shown_events(at):
    """The events table: a data frame on the page, a static table in presentation mode."""
    if any("did nothing" in i.value for i in at.info):
        return []
    if presenting(at):
        events = static_table(at, "why")
        names = [m.replace("\\", "") for m in events["message"]]
        return list(zip(names, events["action"], events["running total"], strict=True))
    events = table(at, "why")
    return list(zip(events["message"], events["action"], events["total_after"], strict=True))


def reported(at):
    heading = next(h.value for h in at.html if "Step " in h.value)
    totals = chart_rows(at, "phase")
    return {
        "heading": heading,
        "events": shown_events(at),
        "metrics": {k: metrics(at)[k] for k in ("Characters before", "Characters after", "Budget")},
        "totals": list(zip(totals["stage"], totals["chars"], strict=True)),
    }


def expected_at(result, order):
    walk = walkthrough(result)
    step = walk.steps[order - 1]
    stages = ["Input"] + [s.stage.capitalize() for s in walk.steps]
    chars = [walk.input_chars] + [s.chars_after for s in walk.steps]
    return {
        "heading": step.title,
        "events": [(f"#{e.index}", e.action, e.total_after) for e in step.events],
        "metrics": {
            "Characters before": f"{step.chars_before:,}",
            "Characters after": f"{step.chars_after:,}",
            "Budget": f"{walk.budget:,}",
        },
        "totals": list(zip(stages, chars, strict=True))[: order + 1],
    }


def compare(got, want):
    assert want["heading"] in got["heading"]
    assert {k: v for k, v in got.items() if k != "heading"} == {
        k: v for k, v in want.items() if k != "heading"
    }


@pytest.mark.parametrize("order", [1, 2, 3, 4])
def test_each_step_shows_what_the_engine_says(order):
    at = on_page(PAGE, rich_request())
    at.button_group(key=STEP_KEY).set_value(order).run()
    assert_clean(at)
    compare(reported(at), expected_at(engine(at), order))
    assert f"Step {order} of 4" in reported(at)["heading"]


@pytest.mark.parametrize("move", MOVES, ids=lambda m: f"{m[0]}={m[1]}")
def test_the_drop_step_follows_the_engine(move):
    def on_drop(at):
        if shown_step(at) != 4:
            at.button_group(key=STEP_KEY).set_value(4).run()
        got = reported(at)
        return {**got, "heading": None}

    follows_the_engine(
        PAGE,
        rich_request(),
        on_drop,
        lambda result: {**expected_at(result, 4), "heading": None},
        move,
    )


def test_back_and_next_move_one_step_and_the_step_outlives_a_page_switch():
    at = on_page(PAGE, rich_request())
    assert shown_step(at) == 1
    assert at.button(key="walkthrough_back").disabled
    at.button(key="walkthrough_next").click().run()
    at.button(key="walkthrough_next").click().run()
    assert_clean(at)
    assert shown_step(at) == 3
    compare(reported(at), expected_at(engine(at), 3))
    at.button(key="walkthrough_back").click().run()
    assert shown_step(at) == 2
    goto(at, "pages/overview.py")
    goto(at, PAGE)
    assert shown_step(at) == 2
    at.button_group(key=STEP_KEY).set_value(4).run()
    assert at.button(key="walkthrough_next").disabled


@pytest.mark.parametrize("sample", load_samples(), ids=lambda s: s.slug)
def test_every_sample_walks_through_every_step(sample):
    at = goto(start({"sample": sample.slug}), PAGE)
    for order in (1, 2, 3, 4):
        at.button_group(key=STEP_KEY).set_value(order).run()
        assert_clean(at)
        compare(reported(at), expected_at(engine(at), order))


# --- presentation mode ----------------------------------------------------------------------


def present(at):
    at.toggle(key=PRESENTING_KEY).set_value(True).run()
    assert_clean(at)
    return at


def styles(at):
    return [h.value for h in at.html if h.value.startswith("<style>")]


def test_presentation_mode_enlarges_the_whole_stage_and_keeps_following_the_engine():
    at = on_page(PAGE, rich_request())
    assert not presenting(at) and styles(at) == []
    present(at)
    (css,) = styles(at)
    # one rule set, scoped to the keyed container that holds the whole step
    assert f".st-key-{STAGE_KEY} p" in css and f'.st-key-{STAGE_KEY} [data-testid="stTable"]' in css
    assert "stMetricValue" in css and "stCaptionContainer" in css
    for order in (1, 2, 3, 4):
        at.button_group(key=STEP_KEY).set_value(order).run()
        assert_clean(at)
        compare(reported(at), expected_at(engine(at), order))
        assert not any("why" in d.value.columns for d in at.dataframe)  # a static table only
        for spec, _ in charts(at):
            assert spec["height"] == 400
            assert spec["config"]["axis"]["labelFontSize"] == walk_charts.PRESENTATION_FONT
        heading = next(h.value for h in at.html if "Step " in h.value)
        assert "font-size:2.9rem" in heading


def test_presentation_mode_outlives_a_page_switch_and_turns_off():
    at = present(on_page(PAGE, rich_request()))
    goto(at, "pages/overview.py")
    goto(at, PAGE)
    assert presenting(at) and styles(at)
    at.toggle(key=PRESENTING_KEY).set_value(False).run()
    assert styles(at) == [] and table(at, "why") is not None
    for spec, _ in charts(at):
        assert spec["config"]["axis"]["labelFontSize"] == walk_charts.PROJECTOR_FONT


# --- the dedupe step's pairs ----------------------------------------------------------------


def visible(markup):
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


def marked(markup):
    return [html.unescape(m) for m in re.findall(r"<mark[^>]*>(.*?)</mark>", markup)]


@pytest.mark.parametrize("projector", [False, True], ids=["page", "presentation"])
def test_the_dedupe_step_shows_each_pair_side_by_side_with_the_shared_words(projector):
    at = on_page(PAGE, rich_request())
    if projector:
        present(at)
    at.button_group(key=STEP_KEY).set_value(2).run()
    assert_clean(at)
    result = engine(at)
    removed = result.deduplication.removed
    assert removed
    texts = [h.value for h in at.html if "<mark" in h.value]
    assert len(texts) == 2 * len(removed)
    sides = zip(texts[::2], texts[1::2], strict=True)
    for r, (earlier, later) in zip(removed, sides, strict=True):
        assert visible(earlier) == result.messages[r.duplicate_of].message.content
        assert visible(later) == result.messages[r.index].message.content
        shared, _, _ = views.word_sets(result, r.duplicate_of, r.index)
        assert {w.lower() for w in marked(earlier) + marked(later)} <= shared
        assert marked(later)
    captions = [c.value for c in at.caption]
    assert f"#{removed[0].duplicate_of}, earlier, still present" in captions
    assert f"#{removed[0].index}, removed" in captions
    titles = [t.value for t in at.text]
    assert any(t.startswith(f"#{removed[0].index} (user) removed: word overlap") for t in titles)


def test_other_steps_show_no_pairs():
    at = on_page(PAGE, rich_request())
    for order in (1, 3, 4):
        at.button_group(key=STEP_KEY).set_value(order).run()
        assert not [h for h in at.html if "<mark" in h.value]
        assert not any("side by side" in h.value for h in at.subheader)


@pytest.mark.parametrize("projector", [False, True], ids=["page", "presentation"])
def test_hostile_pairs_show_as_escaped_text_only(projector):
    at = goto(load(start(), hostile_request(), label="Hostile conversation"), PAGE)
    if projector:
        present(at)
    at.button_group(key=STEP_KEY).set_value(2).run()
    assert_clean(at)
    result = engine(at)
    assert result.deduplication.removed
    pairs = [h.value for h in at.html if "<mark" in h.value]
    assert pairs
    for value in pairs:
        assert "<script" not in value and "<img" not in value and "<b>" not in value
    shown = {visible(v) for v in pairs}
    r = result.deduplication.removed[0]
    assert result.messages[r.index].message.content in shown
    for element in [*at.markdown, *at.caption]:
        assert "<script" not in element.value and "onerror" not in element.value
