"""The report opens from disk (file://) in Chromium with every other origin blocked: each chart
draws its marks, the hostile contents show as their own characters and run nothing, nothing is
asked of any other origin; the redacted variant shows no message content. The screenshots are
left in artifacts/screenshots/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from compactor import validate
from explorer.report import decision_report, render
from harness.browser import SCREENSHOTS, VIEWPORT
from tests.explorer.requests import HOSTILE, hostile_request, rich_request

#: Each chart box has drawn (Vega-Embed resolved) and holds SVG marks: [id, drawn, marks].
CHART_MARKS = """boxes => boxes.map(box => [box.id, box.dataset.drawn || '',
    box.querySelectorAll('svg.marks g.role-mark > *').length])"""
#: The sections whose charts a decision's report draws.
CHARTED = ("stages", "outcomes", "strategies", "cost")


def hostile_decision() -> dict:
    """The rich conversation (every stage acts, and its last messages need earlier anchors, so
    every chart has figures) with the hostile contents in its middle."""
    rich, hostile = rich_request(), hostile_request()
    messages = rich["messages"][:6] + hostile["messages"][1:] + rich["messages"][6:]
    return {**rich, "messages": messages}


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("reports")
    request = validate(hostile_decision())
    paths = {}
    for name, redacted in (("full", False), ("redacted", True)):
        path = folder / f"{name}.html"
        path.write_text(render(decision_report(request, redacted=redacted)), "utf-8")
        paths[name] = path.as_uri()
    return paths


def open_offline(chromium, url: str, name: str):
    """A fresh page on ``url`` with every request that is not for a file aborted and recorded,
    and every dialog (an alert the contents would open) recorded and dismissed."""
    context = chromium.new_context(viewport=VIEWPORT)
    asked, dialogs, errors = [], [], []

    def route(r):
        if r.request.url.startswith("file://"):
            r.continue_()
        else:
            asked.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_function(
        "() => [...document.querySelectorAll('.chart')].every(b => b.dataset.drawn)"
    )
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"report-{name}.png"))
    return context, page, asked, dialogs, errors


def test_the_report_draws_every_chart_offline_and_shows_the_contents_as_text(chromium, reports):
    context, page, asked, dialogs, errors = open_offline(chromium, reports["full"], "full")
    try:
        charts = page.eval_on_selector_all(".chart", CHART_MARKS)
        sections = page.eval_on_selector_all(
            "section", "els => els.filter(s => s.querySelector('.chart')).map(s => s.id)"
        )
        assert sorted(sections) == sorted(CHARTED)
        assert charts and all(drawn == "yes" and marks > 0 for _, drawn, marks in charts), charts
        for content in HOSTILE:
            expect(page.get_by_text(content, exact=False).first).to_be_visible()
        expect(page.locator("img, a, iframe")).to_have_count(0)
        assert (asked, dialogs, errors) == ([], [], [])
    finally:
        context.close()


def test_the_redacted_report_shows_lengths_and_fates_and_no_content(chromium, reports):
    context, page, asked, dialogs, errors = open_offline(chromium, reports["redacted"], "redacted")
    try:
        text = page.locator("body").inner_text()
        assert all(content not in text for content in HOSTILE)
        assert "characters, " in text and "Redacted" in text
        charts = page.eval_on_selector_all(".chart", CHART_MARKS)
        assert all(drawn == "yes" and marks > 0 for _, drawn, marks in charts), charts
        assert (asked, dialogs, errors) == ([], [], [])
    finally:
        context.close()
