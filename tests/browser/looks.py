"""What a person sees of a chart or a page, measured in the browser: where marks are drawn, in
which colours against the page, how large the text is. Shared by the presentation, chart,
page and theme tests, which run at the size the explorer was demoed at (1600 x 1000)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from playwright.sync_api import Browser, Locator

from harness import browser as driver

#: A laptop's browser window: the size the parameters were once found below the fold in.
LAPTOP = {"width": 1400, "height": 900}
#: The window the rough edges were found in, demoing and teaching with real files.
DEMO_VIEWPORT = {"width": 1600, "height": 1000}

#: Each drawn mark of a chart's layers of one type (``rule``, ``text``, ``rect``, ``line``...):
#: its box on the screen, its datum (scalar fields) and its painted colours.
MARKS = """(chart, type) => [...chart.querySelectorAll(`svg.marks g.mark-${type}.role-mark > *`)]
    .map(mark => {
        const box = mark.getBoundingClientRect();
        const style = getComputedStyle(mark);
        const datum = (mark.__data__ && mark.__data__.datum) || {};
        return {
            x: box.x, y: box.y, width: box.width, height: box.height,
            fill: style.fill, stroke: style.stroke, strokeWidth: parseFloat(style.strokeWidth),
            text: mark.textContent,
            datum: Object.fromEntries(Object.entries(datum).filter(([, v]) =>
                v === null || ['string', 'number', 'boolean'].includes(typeof v))),
        };
    })"""
#: The page's background colour (Streamlit's theme paints it on the app's root).
BACKGROUND = """() => getComputedStyle(document.querySelector('[data-testid="stApp"]'))
    .backgroundColor"""
#: The computed font size, in pixels, of the first element matching a selector in an element.
FONT_PX = """(element, selector) => {
    const found = selector ? element.querySelector(selector) : element;
    return found ? parseFloat(getComputedStyle(found).fontSize) : 0;
}"""


@contextmanager
def demo_visit(browser: Browser, server: driver.Server, name: str) -> Iterator[driver.Visit]:
    """A visit at :data:`DEMO_VIEWPORT`, screenshotted as ``name`` and checked for requests to
    other origins, as the ``visit`` fixture does."""
    visit = driver.Visit(browser, server.url, DEMO_VIEWPORT)
    try:
        yield visit
        visit.screenshot(name)
    finally:
        visit.close()
    assert not visit.foreign, f"the page asked another origin for: {visit.foreign}"


def marks(chart: Locator, kind: str) -> list[dict[str, Any]]:
    return chart.evaluate(MARKS, kind)


def overlaps(a: dict[str, float], b: dict[str, float], margin: float = 0.0) -> bool:
    """Whether two boxes on the screen overlap (``margin`` pixels around ``b`` count)."""
    return not (
        a["x"] + a["width"] <= b["x"] - margin
        or b["x"] + b["width"] + margin <= a["x"]
        or a["y"] + a["height"] <= b["y"] - margin
        or b["y"] + b["height"] + margin <= a["y"]
    )


def rgb(colour: str) -> tuple[float, float, float]:
    """``rgb(1, 2, 3)`` or ``rgba(1, 2, 3, 0.5)`` as three channels from 0 to 255."""
    found = re.findall(r"[\d.]+", colour)
    assert len(found) >= 3, f"not a colour: {colour!r}"
    return tuple(float(v) for v in found[:3])


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two CSS colours (1 to 21)."""

    def luminance(colour: str) -> float:
        def channel(v: float) -> float:
            v /= 255
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

        r, g, b_ = (channel(v) for v in rgb(colour))
        return 0.2126 * r + 0.7152 * g + 0.0722 * b_

    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def font_px(element: Locator, selector: str = "") -> float:
    return element.evaluate(FONT_PX, selector)


# --- the themes (tests/browser/test_themes.py dark, tests/browser/test_pages.py light) ----

#: Pages whose charts the explorer colours itself (rules, labels, lines, outlines).
THEMED_PAGES = [
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


def painted(chart):
    """(what, colour) of every mark whose colour the explorer chose to carry meaning."""
    out = []
    for rule in marks(chart, "rule"):
        out.append(("rule", rule["stroke"]))
    for text in marks(chart, "text"):
        out.append((f"label {text['text']}", text["fill"]))
    for line in marks(chart, "line"):
        if line["strokeWidth"] >= 2:  # the data lines; the faint dotted diagonal is a guide
            out.append(("line", line["stroke"]))
    for symbol in marks(chart, "symbol"):
        if symbol["fill"] != "none":
            out.append(("point", symbol["fill"]))
    for bar in marks(chart, "rect"):
        if bar["stroke"] != "none" and bar["strokeWidth"] >= 2:
            out.append(("outline", bar["stroke"]))
    return out


def check_page(visit, theme, title):
    background = visit.page.evaluate(BACKGROUND)
    darkness = contrast(background, "rgb(0, 0, 0)")
    assert (darkness < 2) == (theme == "dark"), (theme, background)
    weak = []
    count = 0
    for number, chart in enumerate(visit.charts(), start=1):
        for what, colour in painted(chart):
            count += 1
            ratio = contrast(colour, background)
            if ratio < GRAPHICS_CONTRAST:
                weak.append((title, number, what, colour, round(ratio, 2)))
    assert count, f"{title}: nothing drawn to check"
    assert not weak, weak


def show_what_is_coloured(visit, title):
    """The interaction that draws a page's coloured marks that are not there at first."""
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
