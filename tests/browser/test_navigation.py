"""The page menu and the sidebar at 1400 x 900 (issue 26, item 15): every page is reached from
the menu above its title, one drop-down per section, and the sidebar's budget control is on
screen without scrolling on every page (the sidebar held 20 page links above it before)."""

import pytest
from playwright.sync_api import expect

from explorer import navigation
from explorer.navigation import PAGES
from tests.browser.conftest import visiting

#: A laptop's browser window: the size the parameters were found below the fold in.
LAPTOP = {"width": 1400, "height": 900}
#: How far the window and the sidebar are scrolled.
SCROLLED = """() => [window.scrollY,
    document.querySelector('[data-testid="stSidebarContent"]').scrollTop]"""


@pytest.fixture(scope="module")
def tour(chromium, app_server):
    """One session at 1400 x 900 on the landing page, from page to page."""
    with visiting(chromium, app_server, "navigation_tour", LAPTOP) as visit:
        visit.open()
        yield visit


def test_the_menu_lists_every_page_by_section(tour):
    visit = tour
    for section, specs in navigation.sections().items():
        visit.menu.get_by_role("button", name=section).click()
        body = visit.page.get_by_test_id("stPopoverBody")
        labels = body.get_by_test_id("stPageLink-NavLink").get_by_test_id("stMarkdownContainer")
        expect(labels).to_have_text([spec.title for spec in specs])
        visit.page.keyboard.press("Escape")
        expect(body).to_have_count(0)
    expect(visit.sidebar.get_by_test_id("stPageLink-NavLink")).to_have_count(0)


@pytest.mark.parametrize("spec", PAGES, ids=lambda spec: spec.title)
def test_the_budget_is_on_screen_without_scrolling_on_every_page(tour, spec):
    visit = tour
    visit.go(spec.title)
    for section in navigation.sections():  # the page's own section is marked
        kind = "primary" if section == spec.section else "secondary"
        expect(visit.menu.get_by_role("button", name=section)).to_have_attribute("kind", kind)
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
