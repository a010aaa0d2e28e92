"""Walkthrough: each step shows what the engine's walkthrough says it did, with the running total;
the step moves with Back, Next and the step buttons, and is kept across pages."""

import pytest

from compactor.analyses.walkthrough import walkthrough
from compactor.samples import load_samples
from explorer.widgets.tuning import STEP_KEY
from tests.explorer.requests import rich_request
from tests.pages.apptest import (
    MOVES,
    assert_clean,
    chart_rows,
    engine,
    follows_the_engine,
    goto,
    metrics,
    on_page,
    start,
    table,
)

PAGE = "pages/walkthrough.py"


def shown_step(at):
    return at.button_group(key=STEP_KEY).value


def reported(at):
    heading = next(h.value for h in at.html if "Step " in h.value)
    events = table(at, "why") if not any("did nothing" in i.value for i in at.info) else None
    totals = chart_rows(at, "phase")
    return {
        "heading": heading,
        "events": []
        if events is None
        else list(zip(events["message"], events["action"], events["total_after"], strict=True)),
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
    goto(at, "app.py")
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
