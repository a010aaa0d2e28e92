"""Every page of the navigation, reached through the page menu, draws its charts and fails
nowhere; on each, in a laptop's window, the menu marks the page and the budget is on
screen without scrolling (issue 26, item 15); and on the light theme every line, label and
outline the explorer colours stands out from the page (issue 18, item 5; the dark theme is
tests/browser/test_themes.py).

The pages come from ``explorer.navigation.PAGES``, so a page added there is covered here too.
They are opened on a link whose parameters make every stage act (dedupe, trim and drop), so
every view has something to draw. One session tours them in turn, as a person does: opening the
app costs seconds, a page switch much less, so each page is checked for all three on one visit.
"""

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from compactor.samples import load_sample
from explorer import navigation
from explorer.navigation import PAGES
from explorer.widgets.page import FRIENDLY_ERROR
from tests.browser import looks
from tests.browser.conftest import visiting
from tests.browser.expected import result

#: A laptop's browser window: the size the parameters were found below the fold in.
LAPTOP = {"width": 1400, "height": 900}
#: How far the window and the sidebar are scrolled.
SCROLLED = """() => [window.scrollY,
    document.querySelector('[data-testid="stSidebarContent"]').scrollTop]"""
SAMPLE = "repeated-questions"
LINK_PARAMS = {"budget_chars": 1200, "max_message_chars": 100}
LINK = f"?sample={SAMPLE}&" + "&".join(f"{k}={v}" for k, v in LINK_PARAMS.items())
#: Pages that always draw charts, and how many at least, when every stage acts.
CHARTS = {
    "pages/overview.py": 3,
    "pages/timeline.py": 1,
    "pages/scores.py": 2,
    "pages/protected.py": 1,
    "pages/duplicates.py": 1,
    "pages/trims.py": 1,
}


def test_the_link_makes_every_stage_act():
    linked = result({**load_sample(SAMPLE).request, **LINK_PARAMS})
    assert linked.deduplication.removed and linked.trimming.cuts and linked.dropping.dropped
    assert linked.protection.indices


def test_every_page_in_charts_is_in_the_navigation():
    assert set(CHARTS) <= {spec.path for spec in PAGES}


def test_every_themed_page_is_in_the_navigation():
    assert set(looks.THEMED_PAGES) <= {spec.title for spec in PAGES}


@pytest.fixture(scope="module")
def tour(chromium, app_server):
    """One session on the link in a laptop's window, from page to page; screenshotted at the
    end of each test."""
    with visiting(chromium, app_server, "pages_tour", LAPTOP) as visit:
        visit.open(LINK)
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


def budget_on_screen(visit, spec):
    """The page is marked as the current one in its section of the menu (and no other is),
    nothing is scrolled, and the sidebar's budget slider and box are inside the window."""
    links = visit.open_section(spec.section)
    current = links.filter(has=visit.page.get_by_text(spec.title, exact=True))
    expect(current).to_have_attribute("aria-current", "page")
    expect(visit.page.locator("[data-testid='stTopNavDropdownLink'][aria-current]")).to_have_count(
        1
    )
    visit.page.keyboard.press("Escape")
    expect(visit.page.get_by_test_id("stTopNavPopover")).to_have_count(0)
    assert visit.page.evaluate(SCROLLED) == [0, 0]
    for name, control in (("slider", visit.budget_slider()), ("box", visit.budget_box())):
        box = control.bounding_box()
        assert box is not None, f"the budget {name} is not drawn on {spec.title}"
        top, bottom = box["y"], box["y"] + box["height"]
        assert top >= 0 and bottom <= LAPTOP["height"], (
            f"the budget {name} is at y {top:.0f} to {bottom:.0f} on {spec.title}, in a window "
            f"{LAPTOP['height']} tall"
        )
        assert box["x"] >= 0 and box["x"] + box["width"] <= LAPTOP["width"]


@pytest.mark.parametrize("spec", PAGES, ids=lambda spec: spec.title)
def test_every_page_renders_its_charts_without_an_error(tour, spec):
    visit, errors = tour, len(tour.errors)
    visit.go(spec.title)
    budget_on_screen(visit, spec)
    assert not visit.exceptions()
    expect(visit.main.get_by_text(FRIENDLY_ERROR)).to_have_count(0)
    charts = visit.charts()
    assert len(charts) >= CHARTS.get(spec.path, 0), f"{spec.title} drew {len(charts)} charts"
    for number, chart in enumerate(charts, start=1):
        rows = visit.chart_rows(chart)
        assert rows, f"chart {number} of {spec.title} drew no marks"
    if spec.title in looks.THEMED_PAGES:  # the light theme (the dark: test_themes.py)
        looks.show_what_is_coloured(visit, spec.title)
        looks.check_page(visit, "light", spec.title)
    visit.screenshot(f"test_every_page_renders_its_charts_without_an_error[{spec.title}]")
    assert not visit.exceptions()
    assert not visit.errors[errors:], visit.errors[errors:]
    assert not visit.foreign, visit.foreign


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
