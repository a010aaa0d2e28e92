"""The page menu: Streamlit's own navigation across the top lists every page of
``explorer.navigation.PAGES`` in its section, at the address it has always had; and a chart of
thousands of points still settles. Each page opened by its address, drawn and checked in a
laptop's window, is tests/browser/test_deep_links.py; the dark theme's tour is
tests/browser/test_themes.py.
"""

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from explorer import navigation
from tests.browser import looks
from tests.browser.conftest import visiting


@pytest.fixture(scope="module")
def tour(chromium, app_server):
    """One session in a laptop's window; screenshotted at the end."""
    with visiting(chromium, app_server, "pages_tour", looks.LAPTOP) as visit:
        visit.open()
        yield visit


def test_the_menu_lists_every_page_by_section(tour):
    """Streamlit's own navigation, across the top: the sections in order, each page in its
    section, and no list of pages in the sidebar."""
    visit = tour
    sections = visit.menu.get_by_test_id("stTopNavSection")
    expect(sections).to_have_text(list(navigation.sections()))
    for section, specs in navigation.sections().items():
        links = visit.open_section(section)
        expect(links.get_by_test_id("stMarkdownContainer")).to_have_text(
            [spec.title for spec in specs]
        )
        for link, spec in zip(links.all(), specs, strict=True):
            # the addresses published before Streamlit's navigation: the file's name
            assert urlsplit(link.get_attribute("href") or "").path == f"/{spec.url_path}"
        visit.page.keyboard.press("Escape")
        expect(visit.page.get_by_test_id("stTopNavPopover")).to_have_count(0)
    expect(visit.sidebar.get_by_test_id("stSidebarNav")).to_have_count(0)


@pytest.mark.slow
def test_a_chart_with_thousands_of_points_is_drawn_on_a_canvas_and_the_page_settles(visit):
    """Streamlit draws a chart with more than 2,000 rows on a canvas: the largest sample's trim
    curve has thousands of points, and the page still counts as drawn."""
    visit.open("?sample=largest")
    visit.go("Sensitivity")
    assert not visit.exceptions()
    canvases = visit.main.locator("[data-testid='stVegaLiteChart'] canvas.marks")
    expect(canvases).to_have_count(1)
    assert len(visit.charts()) == 2 and not visit.errors
