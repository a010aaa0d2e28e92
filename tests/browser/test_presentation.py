"""The Walkthrough on a projector, at 1600 x 1000 (issue 18, items 3 and 4): presentation mode
puts large type on the whole page, not only the headings; tables grow to their content instead
of a six-row scroll box; the dedupe step shows the two texts of each pair side by side with
their shared words marked. Each test leaves its screenshot in artifacts/screenshots/."""

import pytest
from playwright.sync_api import expect

from compactor.analyses._walkthrough import walkthrough
from compactor.samples import load_sample
from explorer.frames import views
from tests.browser import looks
from tests.browser.expected import result

SAMPLE = "repeated-questions"
PARAMS = {"budget_chars": 1200, "max_message_chars": 100}
LINK = f"?sample={SAMPLE}&" + "&".join(f"{k}={v}" for k, v in PARAMS.items())
REQUEST = {**load_sample(SAMPLE).request, **PARAMS}
#: Pixels of type a room reads from the back: body text, table cells, numbers.
LARGE_TEXT_PX = 22
LARGE_NUMBER_PX = 48


@pytest.fixture
def demo(chromium, app_server, request):
    with looks.demo_visit(chromium, app_server, request.node.name) as visit:
        yield visit


def walk_to(visit, step, presenting):
    visit.open(LINK)
    visit.go("Walkthrough")
    if presenting:
        switch = visit.main.get_by_test_id("stCheckbox").filter(has_text="Presentation mode")
        switch.locator("label").click()  # as a person does (the input itself is hidden)
        visit.settle()
        expect(switch.get_by_role("switch", name="Presentation mode")).to_be_checked()
    visit.main.get_by_test_id("stButtonGroup").get_by_text(step, exact=True).click()
    visit.settle()


def dedupe_events():
    return walkthrough(result(REQUEST)).steps[1].events


def stage(visit):
    return visit.main.locator(".st-key-walkthrough_stage")


@pytest.mark.slow
def test_presentation_mode_puts_large_type_on_the_whole_page(demo):
    walk_to(demo, "2 · Dedupe", presenting=True)
    area = stage(demo)
    expect(area).to_have_count(1)
    sizes = {
        "page caption": looks.font_px(area.get_by_test_id("stCaptionContainer").first),
        "switch": looks.font_px(area.get_by_test_id("stCheckbox").first, "p"),
        "chart caption": looks.font_px(area.get_by_test_id("stCaptionContainer").nth(1)),
        "metric label": looks.font_px(area.get_by_test_id("stMetricLabel").first, "p"),
        "metric value": looks.font_px(area.get_by_test_id("stMetricValue").first, "p"),
        "step button": looks.font_px(area.get_by_test_id("stButtonGroup").first, "button p"),
        "table cell": looks.font_px(area.get_by_test_id("stTable").first, "td"),
        "table header": looks.font_px(area.get_by_test_id("stTable").first, "th"),
        "pair text": looks.font_px(
            area.get_by_test_id("stHtml").filter(has=demo.page.locator("mark")).first
        ),
        "summary": looks.font_px(area.get_by_test_id("stHtml").first, "div + div"),
    }
    small = {k: v for k, v in sizes.items() if v < LARGE_TEXT_PX}
    assert not small, sizes
    assert sizes["metric value"] >= LARGE_NUMBER_PX, sizes
    # the charts' axis labels too (Vega draws them as SVG text)
    for chart in demo.charts():
        label = chart.locator("g.role-axis-label text").first
        assert looks.font_px(label) >= LARGE_TEXT_PX - 1
    # the sidebar keeps its size: only the walkthrough is projected
    assert looks.font_px(demo.sidebar.get_by_test_id("stCaptionContainer").first) < 16


@pytest.mark.slow
def test_the_events_table_grows_to_its_content_in_presentation_mode(demo):
    walk_to(demo, "2 · Dedupe", presenting=True)
    table = stage(demo).get_by_test_id("stTable").first
    rows = table.locator("tbody tr")
    expect(rows).to_have_count(len(dedupe_events()))
    # every row on the page, none behind a scroll bar
    assert table.evaluate("t => t.scrollHeight <= t.clientHeight + 1")
    last = rows.last.bounding_box()
    assert last is not None and last["height"] > 0
    assert demo.main.get_by_test_id("stDataFrame").count() == 0


@pytest.mark.slow
def test_the_events_data_frame_grows_to_its_content_on_the_page(demo):
    """Without presentation mode the events are a data frame again, and it shows every row
    (the issue: about six rows in a small scroll box)."""
    walk_to(demo, "2 · Dedupe", presenting=False)
    assert looks.font_px(stage(demo).get_by_test_id("stCaptionContainer").first) < 16
    frame = demo.main.get_by_test_id("stDataFrame").first
    events = dedupe_events()
    assert len(events) > 6
    for event in events:  # waits until the frame is drawn with every row
        expect(demo.cell(frame, f"#{event.index}")).to_have_count(1)
    demo.settle()
    box = frame.bounding_box()
    assert box is not None and box["height"] >= 66 * len(events)


@pytest.mark.slow
def test_the_dedupe_step_shows_each_pair_side_by_side_with_shared_words(demo):
    walk_to(demo, "2 · Dedupe", presenting=True)
    engine = result(REQUEST)
    pairs = [e for e in dedupe_events() if e.other is not None]
    expect(demo.main.get_by_text(f"The pairs, side by side ({len(pairs)})")).to_be_visible()
    boxes = demo.main.get_by_test_id("stHtml").filter(has=demo.page.locator("mark"))
    shown = min(len(pairs), 5)  # one page of pairs
    expect(boxes).to_have_count(2 * shown)
    for k, event in enumerate(pairs[:shown]):
        earlier, later = boxes.nth(2 * k), boxes.nth(2 * k + 1)
        contents = engine.request.contents
        expect(earlier).to_have_text(contents[event.other])
        expect(later).to_have_text(contents[event.index])
        a, b = earlier.bounding_box(), later.bounding_box()
        assert a["x"] + a["width"] <= b["x"] and abs(a["y"] - b["y"]) < 2  # side by side
        shared, _, _ = views.word_sets(engine, event.other, event.index)
        for box in (earlier, later):
            words = {w.lower() for w in box.locator("mark").all_inner_texts()}
            assert words and words <= shared
    assert not demo.exceptions()


@pytest.mark.slow
def test_the_transcript_presents_with_large_type_and_the_sidebar_folded(demo):
    # Overview has the same switch (tests/pages/test_report_download.py holds its styles)
    demo.open(LINK)
    demo.go("Transcript")
    expect(demo.sidebar).to_be_visible()
    switch = demo.main.get_by_test_id("stCheckbox").filter(has_text="Presentation mode")
    switch.locator("label").click()
    demo.settle()
    area = demo.main.locator(".st-key-walkthrough_stage")
    expect(area).to_have_count(1)
    assert looks.font_px(area.get_by_test_id("stCaptionContainer").first) >= LARGE_TEXT_PX
    expect(demo.sidebar).to_be_hidden()
    switch.locator("label").click()  # off again: the sidebar is back
    demo.settle()
    expect(demo.sidebar).to_be_visible()
    assert not demo.exceptions()
