"""Charts follow Streamlit's light and dark themes (issue 18, item 5): on either theme every
budget and limit line, value label, data line and outline the explorer draws stands out from
the page (WCAG contrast of 3 or more, the bar for graphics), where near-black lines and labels
with white halos used to vanish on dark. The dark theme is a second server started with
``--theme.base dark``; every page is left as a screenshot per theme. One session per theme tours
the pages in turn (opening the app costs seconds, a page switch much less)."""

from collections.abc import Callable, Iterator
from contextlib import ExitStack

import pytest

from harness import browser as driver
from tests.browser import looks

LINK = "?sample=repeated-questions&budget_chars=1200&max_message_chars=100"
#: Pages whose charts the explorer colours itself (rules, labels, lines, outlines).
PAGES = [
    "Overview",
    "Fate timeline",
    "Scores",
    "Protected",
    "Trims",
    "Budget sweep",
    "Sensitivity",
    "A/B compare",
    "Strategies",
    "Walkthrough",
    "Replay",
]
#: The contrast WCAG asks of graphics that carry meaning.
GRAPHICS_CONTRAST = 3.0


@pytest.fixture(scope="module")
def dark_server() -> Iterator[driver.Server]:
    options = ["--theme.base", "dark"]
    with driver.running_app(driver.ARTIFACTS / "streamlit-dark.log", options) as server:
        yield server


@pytest.fixture(scope="module")
def tours(request, chromium, app_server) -> Iterator[Callable[[str], driver.Visit]]:
    """The session of a theme, opened on the link the first time it is asked for."""
    opened: dict[str, driver.Visit] = {}
    with ExitStack() as stack:

        def tour(theme: str) -> driver.Visit:
            if theme not in opened:
                server = request.getfixturevalue("dark_server") if theme == "dark" else app_server
                visit = stack.enter_context(looks.demo_visit(chromium, server, f"tour_{theme}"))
                visit.open(LINK)
                opened[theme] = visit
            return opened[theme]

        yield tour


def painted(chart):
    """(what, colour) of every mark whose colour the explorer chose to carry meaning."""
    out = []
    for rule in looks.marks(chart, "rule"):
        out.append(("rule", rule["stroke"]))
    for text in looks.marks(chart, "text"):
        out.append((f"label {text['text']}", text["fill"]))
    for line in looks.marks(chart, "line"):
        if line["strokeWidth"] >= 2:  # the data lines; the faint dotted diagonal is a guide
            out.append(("line", line["stroke"]))
    for symbol in looks.marks(chart, "symbol"):
        if symbol["fill"] != "none":
            out.append(("point", symbol["fill"]))
    for bar in looks.marks(chart, "rect"):
        if bar["stroke"] != "none" and bar["strokeWidth"] >= 2:
            out.append(("outline", bar["stroke"]))
    return out


def check_page(visit, theme, title):
    background = visit.page.evaluate(looks.BACKGROUND)
    darkness = looks.contrast(background, "rgb(0, 0, 0)")
    assert (darkness < 2) == (theme == "dark"), (theme, background)
    weak = []
    count = 0
    for number, chart in enumerate(visit.charts(), start=1):
        for what, colour in painted(chart):
            count += 1
            ratio = looks.contrast(colour, background)
            if ratio < GRAPHICS_CONTRAST:
                weak.append((title, number, what, colour, round(ratio, 2)))
    assert count, f"{title}: nothing drawn to check"
    assert not weak, weak


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("title", PAGES)
def test_every_line_label_and_outline_stands_out_on_both_themes(tours, theme, title):
    visit = tours(theme)
    visit.go(title)
    if title == "Fate timeline":  # a picked bar is outlined
        chart = visit.chart_with("original_chars")
        visit.click_mark(chart, "index", 2)
        visit.settle()
    if title == "A/B compare":  # a larger budget for B, so that some fates differ
        box = visit.main.get_by_label("B budget_chars", exact=True)
        box.fill("2400")
        box.press("Enter")
        visit.wait_for_mark("differs", True)
        visit.settle()
    if title == "Walkthrough":  # the step with outlines and the totals' labels
        visit.main.get_by_test_id("stButtonGroup").get_by_text("2 · Dedupe").click()
        visit.settle()
    visit.screenshot(f"theme_{theme}_{title}")
    check_page(visit, theme, title)
    assert not visit.exceptions()


@pytest.mark.slow
def test_the_presentation_mode_reads_on_the_dark_theme(chromium, dark_server):
    with looks.demo_visit(chromium, dark_server, "theme_dark_Walkthrough_presentation") as visit:
        visit.open("?sample=dispatcher")
        visit.go("Walkthrough")
        switch = visit.main.get_by_test_id("stCheckbox").filter(has_text="Presentation mode")
        switch.locator("label").click()
        visit.settle()
        visit.main.get_by_test_id("stButtonGroup").get_by_text("4 · Drop").click()
        visit.settle()
        check_page(visit, "dark", "Walkthrough")
        background = visit.page.evaluate(looks.BACKGROUND)
        cell = visit.main.get_by_test_id("stTable").locator("td").first
        colour = cell.evaluate("td => getComputedStyle(td).color")
        assert looks.contrast(colour, background) >= 4.5  # body text
