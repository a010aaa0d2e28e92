"""Every page of the navigation, reached through the sidebar, draws its charts and fails nowhere.

The pages come from ``explorer.navigation.PAGES``, so a page added there is covered here too.
They are opened on a link whose parameters make every stage act (dedupe, trim and drop), so
every view has something to draw. One session tours them in turn, as a person does: opening the
app costs seconds, a page switch much less.
"""

import pytest
from playwright.sync_api import expect

from compactor.samples import load_sample
from explorer.navigation import PAGES
from explorer.widgets.page import FRIENDLY_ERROR
from tests.browser.conftest import visiting
from tests.browser.expected import result

SAMPLE = "repeated-questions"
LINK_PARAMS = {"budget_chars": 1200, "max_message_chars": 100}
LINK = f"?sample={SAMPLE}&" + "&".join(f"{k}={v}" for k, v in LINK_PARAMS.items())
#: Pages that always draw charts, and how many at least, when every stage acts.
CHARTS = {
    "app.py": 3,
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


@pytest.fixture(scope="module")
def tour(chromium, app_server):
    """One session on the link, from page to page; screenshotted at the end of each test."""
    with visiting(chromium, app_server, "pages_tour") as visit:
        visit.open(LINK)
        yield visit


@pytest.mark.parametrize("spec", PAGES, ids=lambda spec: spec.title)
def test_every_page_renders_its_charts_without_an_error(tour, spec):
    visit, errors = tour, len(tour.errors)
    visit.go(spec.title)
    visit.screenshot(f"test_every_page_renders_its_charts_without_an_error[{spec.title}]")
    assert not visit.exceptions()
    expect(visit.main.get_by_text(FRIENDLY_ERROR)).to_have_count(0)
    charts = visit.charts()
    assert len(charts) >= CHARTS.get(spec.path, 0), f"{spec.title} drew {len(charts)} charts"
    for number, chart in enumerate(charts, start=1):
        rows = visit.chart_rows(chart)
        assert rows, f"chart {number} of {spec.title} drew no marks"
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
