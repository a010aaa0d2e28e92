"""The Replay page in Chromium: clicking a loss in the drift chart moves the turn slider to that
turn and shows the message where it happened; the slider shows the history of its turn; the
cache chart's legend names each loop in full, each in a colour of its own."""

import re

import pytest
from playwright.sync_api import expect

from compactor import validate
from compactor.analyses.anchors._report import find_anchors
from compactor.analyses.replay._strategies import replay_request
from compactor.samples import load_sample
from explorer.navigation import PAGES
from explorer.replay.runs import KEEP_LAST, MEMORY_ALWAYS
from tests.browser import looks
from tests.browser.conftest import visiting

SAMPLE = "support-chat"
REPLAY = next(spec for spec in PAGES if spec.path == "pages/replay.py")


def engine():
    request = validate(load_sample(SAMPLE).request)
    facts = [(a.text, a.occurrences) for a in find_anchors(request.contents)]
    return request, replay_request(request, "memory-compact", facts=facts)


@pytest.mark.slow
def test_clicking_a_loss_moves_the_slider_to_its_turn_and_message(visit):
    request, result = engine()
    assert result.losses, "the sample loses anchors under its own parameters"
    visit.open(f"?sample={SAMPLE}")
    visit.go(REPLAY.title)
    slider = visit.main.get_by_role("slider")
    last = len(result.histories) - 1
    expect(slider).to_have_value(str(last))

    # a loss of loop A (memory-compact) drawn where no other loss is
    by_turn = {}
    for loss in result.losses:
        by_turn.setdefault(loss.turn, loss)
    loss = next(x for t, x in by_turn.items() if t < last)
    chart = visit.chart_with("first")
    visit.wait_for_mark("first", loss.fact)
    visit.click_mark(chart, "first", loss.fact)
    expect(slider).to_have_value(str(loss.turn))
    caption = visit.main.get_by_text(re.compile(rf"^Message {loss.index} at turn {loss.turn} "))
    expect(caption).to_be_visible()
    content = request.messages[loss.index].content
    sent = {m.origin: m.content for m in result.histories[loss.turn]}
    shown = sent.get(loss.index, content)
    expect(visit.main.get_by_test_id("stText").filter(has_text=shown[:40])).not_to_have_count(0)

    # the keyboard moves the slider one turn on; the page follows
    slider.focus()
    slider.press("ArrowRight")
    expect(slider).to_have_value(str(loss.turn + 1))
    visit.settle()
    expect(visit.main.get_by_text(re.compile(rf"^Turn {loss.turn + 1}: "))).to_be_visible()
    assert not visit.exceptions()


#: A laptop's window: the charts side by side are each about 330 pixels wide.
NARROW = {"width": 1100, "height": 900}


def test_the_cache_chart_names_each_setting_in_full_in_a_colour_of_its_own(chromium, app_server):
    with visiting(chromium, app_server, "replay_legends_narrow", NARROW) as visit:
        legends_in_full(visit)


def legends_in_full(visit):
    visit.open(f"?sample={SAMPLE}")
    visit.go(REPLAY.title)
    visit.settle()
    chart = visit.chart_with("stable_share_smoothed")
    box = chart.bounding_box()
    labels = chart.locator("g.role-legend-label text")
    shown = {
        text: labels.nth(k).bounding_box() for k, text in enumerate(labels.all_text_contents())
    }
    assert {MEMORY_ALWAYS, KEEP_LAST} <= set(
        shown
    )  # whole names, not "keep-last (what fits the bu"
    for label in (MEMORY_ALWAYS, KEEP_LAST):
        edge = shown[label]
        assert box["x"] <= edge["x"] and edge["x"] + edge["width"] <= box["x"] + box["width"]
    lines = [m for m in looks.marks(chart, "line") if m["strokeWidth"] >= 2]  # the smoothed
    assert len({m["stroke"] for m in lines}) == 2  # told apart by colour
    assert not visit.exceptions()
