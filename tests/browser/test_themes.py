"""Charts follow Streamlit's light and dark themes (issue 18, item 5): on either theme every
budget and limit line, value label, data line and outline the explorer draws stands out from
the page (WCAG contrast of 3 or more, the bar for graphics), where near-black lines and labels
with white halos used to vanish on dark. The dark theme is a second server started with
``--theme.base dark``; every page is left as a screenshot per theme. One session tours the pages
in turn on the dark theme (opening the app costs seconds, a page switch much less); the light
theme's tour is tests/browser/test_pages.py's, which checks each page with
:func:`tests.browser.looks.check_page` too."""

from collections.abc import Iterator

import pytest

from harness import browser as driver
from tests.browser import looks

LINK = "?sample=repeated-questions&budget_chars=1200&max_message_chars=100"


@pytest.fixture(scope="module")
def dark_server() -> Iterator[driver.Server]:
    options = ["--theme.base", "dark"]
    with driver.running_app(driver.ARTIFACTS / "streamlit-dark.log", options) as server:
        yield server


@pytest.fixture(scope="module")
def tour(chromium, dark_server) -> Iterator[driver.Visit]:
    """One session on the dark theme's server, opened on the link."""
    with looks.demo_visit(chromium, dark_server, "tour_dark") as visit:
        visit.open(LINK)
        yield visit


# The light theme is checked on tests/browser/test_pages.py's tour of every page, on this link.
@pytest.mark.parametrize("title", looks.THEMED_PAGES)
def test_every_line_label_and_outline_stands_out_on_the_dark_theme(tour, title):
    visit = tour
    visit.go(title)
    looks.show_what_is_coloured(visit, title)
    visit.screenshot(f"theme_dark_{title}")
    looks.check_page(visit, "dark", title)
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
        looks.check_page(visit, "dark", "Walkthrough")
        background = visit.page.evaluate(looks.BACKGROUND)
        cell = visit.main.get_by_test_id("stTable").locator("td").first
        colour = cell.evaluate("td => getComputedStyle(td).color")
        assert looks.contrast(colour, background) >= 4.5  # body text
