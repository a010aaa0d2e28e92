"""Driving the explorer in headless Chromium as a person would, the way Streamlit's e2e tests do.

A real ``streamlit run app.py`` server (harness.app_server), Debian's Chromium through
Playwright, elements found by their ``data-testid``, and waits on conditions (the app's script
state, Streamlit's status widget, what the page shows), never on fixed sleeps. A visit records
every request the page makes and every dialog it opens, and aborts any request for another
origin, so a test can prove that nothing ran and nothing left the machine.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import Browser, Locator, Page, Playwright, Route, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from explorer.navigation import PAGES

# the server, re-exported: tests and benchmarks reach it as this module's
from harness.app_server import ARTIFACTS, ROOT, Server, running_app, stop  # noqa: F401

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
VIEWPORT = {"width": 1440, "height": 1000}
SCREENSHOTS = ARTIFACTS / "screenshots"
#: Milliseconds any single wait may take (a rerun of the largest sample is far below).
WAIT_MS = 30_000

#: The app is connected and its script is not running (Streamlit's own e2e condition).
IDLE = (
    "[data-testid='stApp'][data-test-connection-state='CONNECTED']"
    "[data-test-script-state='notRunning']"
)
#: Every Vega chart on the page has drawn its marks: as SVG, or on a canvas (Streamlit renders a
#: chart with more than 2,000 rows in one dataset on a canvas; :data:`CHART_ROWS` reads SVG only).
CHARTS_DRAWN = """() => [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')]
    .every(chart => chart.querySelector('svg.marks, canvas.marks'))"""
#: The data behind a chart's marks: each drawn mark's datum (scalar fields only).
CHART_ROWS = """chart => [...chart.querySelectorAll('svg.marks g.role-mark > *')]
    .map(mark => mark.__data__ && mark.__data__.datum)
    .filter(datum => datum && typeof datum === 'object')
    .map(datum => Object.fromEntries(Object.entries(datum).filter(([, value]) =>
        value === null || ['string', 'number', 'boolean'].includes(typeof value))))"""
#: The drawn mark (an SVG element) whose datum has ``field`` equal to ``value``.
MARK_OF = """(chart, [field, value]) => [...chart.querySelectorAll('svg.marks g.role-mark > *')]
    .find(mark => mark.__data__ && mark.__data__.datum && mark.__data__.datum[field] === value)"""
#: How tall the page's content is (the main area and the sidebar scroll inside the window).
CONTENT_HEIGHT = """() => Math.max(...['stMain', 'stSidebarContent'].map(id => {
    const element = document.querySelector(`[data-testid="${id}"]`);
    return element ? element.scrollHeight : 0;
}))"""
expect.set_options(timeout=WAIT_MS)
#: The menu section of every page, by its title.
SECTION_OF = {spec.title: spec.section for spec in PAGES}

NEXT_FRAME = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


def url_path(spec: Any) -> str:
    """The address of a page of ``explorer.navigation.PAGES`` (its file's name,
    ``pages/timeline.py`` -> ``timeline``; the default page is the root)."""
    return spec.url_path


class NoBrowser(RuntimeError):
    """Chromium is missing or does not start: the browser tests fail with this message."""


# --- the browser ---------------------------------------------------------------------------


def launch(playwright: Playwright) -> Browser:
    """Debian's Chromium, headless, with nothing of its own going to the network."""
    if not CHROMIUM.exists():
        raise NoBrowser(
            f"The browser tests need Chromium at {CHROMIUM}, and it is not there. Install it "
            "with `bash scripts/ensure-chromium.sh` (apt-get install chromium); a Playwright "
            "browser download does not work here."
        )
    try:
        return playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=list(CHROMIUM_ARGS)
        )
    except Exception as error:
        raise NoBrowser(f"Chromium at {CHROMIUM} did not start: {error}") from error


def origin(url: str) -> tuple[str, str]:
    """``(scheme, host:port)``, with WebSocket schemes counted as their HTTP twins."""
    parts = urlsplit(url)
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    return scheme, parts.netloc


class Visit:
    """One person's browser session on the app: a fresh context (so a fresh Streamlit session)."""

    def __init__(self, browser: Browser, base: str, viewport: dict[str, int] = VIEWPORT) -> None:
        self.base = base
        self.viewport = dict(viewport)  # the window's size; screenshots are its full width
        self.origin = origin(base)
        self.requests: list[str] = []  # every URL the page asked for, its own origin included
        self.foreign: list[str] = []  # requests for any other origin (all aborted)
        self.dialogs: list[str] = []  # alert, confirm, prompt: content must never open one
        self.errors: list[str] = []  # uncaught JavaScript errors
        self.context = browser.new_context(viewport=self.viewport)
        self.context.set_default_timeout(WAIT_MS)
        self.context.route(lambda url: origin(url) != self.origin, self._block)
        self.page = self.context.new_page()
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.on("websocket", self._websocket)
        self.page.on("dialog", self._dialog)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def _block(self, route: Route) -> None:
        self.foreign.append(route.request.url)
        route.abort("blockedbyclient")

    def _websocket(self, socket: Any) -> None:
        self.requests.append(socket.url)
        if origin(socket.url) != self.origin:
            self.foreign.append(socket.url)

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    def close(self) -> None:
        self.context.close()

    # --- waiting ---------------------------------------------------------------------------

    def settle(self) -> None:
        """Wait until the script has finished and everything it sent is drawn."""
        page = self.page
        page.locator(IDLE).wait_for(state="attached")
        expect(page.get_by_test_id("stStatusWidget")).to_have_count(0)
        expect(page.get_by_test_id("stSkeleton")).to_have_count(0)
        page.wait_for_function(CHARTS_DRAWN)

    def open(self, query: str = "") -> Page:
        """Open the app (``query`` like ``?sample=largest``) as a new session, and wait for it."""
        response = self.page.goto(f"{self.base}/{query}")
        assert response is not None and response.ok, f"the app did not load: {response}"
        self.page.get_by_test_id("stAppViewContainer").wait_for(state="attached")
        self.settle()
        # A page's first run may end in st.rerun (its address as a fresh server's first request
        # is routed again through the entry): between the two runs the app reports itself idle
        # with nothing of the page drawn. Every page has a title, drawn by the run that draws it.
        if not self.main.locator("h1").count():
            self.main.locator("h1").first.wait_for(state="attached")
            self.settle()
        return self.page

    # --- finding things --------------------------------------------------------------------

    @property
    def main(self) -> Locator:
        return self.page.get_by_test_id("stMain")

    @property
    def sidebar(self) -> Locator:
        return self.page.get_by_test_id("stSidebar")

    def fates(self) -> dict[int, str]:
        """Each message's fate as the fate chart on screen draws it (Overview, Fate timeline)."""
        return {row["index"]: row["fate"] for row in self.rows_with("original_chars")}

    def heading(self) -> Locator:
        """The page's title (``st.title``)."""
        return self.main.locator("h1").first

    @property
    def menu(self) -> Locator:
        """The page menu across the top: Streamlit's navigation, one drop-down per section."""
        return self.page.get_by_test_id("stTopNav")

    def section(self, name: str) -> Locator:
        """The menu's drop-down button of the section ``name``."""
        return self.menu.get_by_test_id("stTopNavSection").filter(
            has=self.page.get_by_text(name, exact=True)
        )

    def open_section(self, name: str) -> Locator:
        """Open the section ``name`` of the menu; its links."""
        self.section(name).click()
        return self.page.get_by_test_id("stTopNavPopover").get_by_test_id("stTopNavDropdownLink")

    def go(self, title: str) -> None:
        """Switch page with the page menu, as a person does (open the page's section, click
        the page), and wait for it."""
        self.settle()
        if (self.heading().text_content() or "").strip() == title:
            return  # already there (a click on the current page's link would rerun it)
        links = self.open_section(SECTION_OF[title])
        links.filter(has=self.page.get_by_text(title, exact=True)).click()
        expect(self.heading()).to_have_text(title)
        self.settle()

    @property
    def paste_box(self) -> Locator:
        """The Conversation page's paste box (by its label: the page has other text areas, such
        as the probe file's)."""
        return self.main.get_by_role("textbox", name=re.compile(r"^Paste a request object"))

    @property
    def upload_input(self) -> Locator:
        """The file input of the Conversation page's upload (not the probe file's)."""
        return (
            self.main.get_by_test_id("stFileUploader")
            .filter(has_text="Upload a .json or .jsonl file")
            .get_by_test_id("stFileUploaderDropzoneInput")
        )

    def pick(self, box: Locator, option: str, tries: int = 3) -> None:
        """Choose ``option`` (its exact name) in the select box ``box``, then settle.

        The list opens on ArrowDown (a click only focuses the searchable box). A rerun that
        was still drawing when the list opened (a loaded machine's, after the step before)
        closes it again: the list is opened again once the script has finished."""
        for attempt in range(tries):
            self.settle()
            box.focus()
            box.press("ArrowDown")
            try:
                self.page.get_by_role("option", name=option, exact=True).click(timeout=10_000)
            except PlaywrightTimeout:
                if attempt == tries - 1:
                    raise
            else:
                break
        self.settle()

    def choose_mode(self, label: str) -> None:
        """Click an option of the page's segmented control (the Conversation page's modes)."""
        self.main.get_by_test_id("stButtonGroup").get_by_text(label, exact=True).click()

    def charts(self) -> list[Locator]:
        return self.main.get_by_test_id("stVegaLiteChart").all()

    def chart_rows(self, chart: Locator) -> list[dict[str, Any]]:
        """The data of every mark the chart drew (bars, points, rules, labels)."""
        return chart.evaluate(CHART_ROWS)

    def chart_with(self, field: str) -> Locator:
        """The first chart on the page with a drawn mark whose data has ``field``."""
        for chart in self.charts():
            if any(field in row for row in self.chart_rows(chart)):
                return chart
        raise AssertionError(f"no chart on the page draws data with a {field!r} field")

    def rows_with(self, field: str) -> list[dict[str, Any]]:
        return [row for row in self.chart_rows(self.chart_with(field)) if field in row]

    def wait_for_mark(self, field: str, value: Any) -> None:
        """Wait until some chart draws a mark whose data has ``field`` equal to ``value``."""
        self.page.wait_for_function(
            """([field, value]) => [...document.querySelectorAll(
                '[data-testid="stVegaLiteChart"] svg.marks g.role-mark > *')]
                .some(mark => mark.__data__ && mark.__data__.datum
                    && mark.__data__.datum[field] === value)""",
            arg=[field, value],
        )

    def _mark(self, chart: Locator, field: str, value: Any) -> Any:
        mark = chart.evaluate_handle(MARK_OF, [field, value]).as_element()
        assert mark is not None, f"the chart draws no mark with {field} = {value!r}"
        return mark

    def click_mark(self, chart: Locator, field: str, value: Any) -> None:
        """Click the drawn mark whose data has ``field`` equal to ``value``."""
        self._mark(chart, field, value).click()

    def hover_mark(self, chart: Locator, field: str, value: Any) -> Locator:
        """Point at that mark; its tooltip (vega-tooltip's element), once shown."""
        self._mark(chart, field, value).hover()
        tooltip = self.page.locator("#vg-tooltip-element.visible")
        tooltip.wait_for()
        return tooltip

    def cell(self, table: Locator | Page, text: str) -> Locator:
        """A data frame's cell that holds exactly ``text`` (its grid is drawn on a canvas; these
        are the grid's accessible cells)."""
        return table.get_by_test_id(re.compile(r"^glide-cell-")).filter(
            has_text=re.compile(rf"^{re.escape(text)}$")
        )

    def table_with(self, text: str) -> Locator:
        """The first data frame in the main area with a cell that holds exactly ``text``."""
        tables = self.main.get_by_test_id("stDataFrame")
        return tables.filter(has=self.cell(self.page, text)).first

    def static_rows(self, header: str) -> dict[str, list[str]]:
        """The rows of the first static table (``st.table``) in the main area with a column
        ``header``, by their first cell, as the page shows them (no-break spaces read as
        spaces)."""
        table = self.main.get_by_test_id("stTable").filter(
            has=self.page.locator("th").get_by_text(header, exact=True)
        )
        table.first.wait_for()
        rows = table.first.locator("tbody tr").all()
        cells = [
            [t.replace("\u00a0", " ") for t in r.locator("td").all_inner_texts()] for r in rows
        ]
        return {row[0]: row for row in cells}

    def alert(self, text: str) -> Locator:
        """An ``st.success``/``st.error``/... box in the main area that says ``text``."""
        return self.main.get_by_test_id("stAlert").filter(has_text=text)

    def exceptions(self) -> list[str]:
        return self.page.get_by_test_id("stException").all_inner_texts()

    def metric(self, label: str) -> Locator:
        return self.main.get_by_test_id("stMetric").filter(
            has=self.page.get_by_test_id("stMetricLabel").get_by_text(label, exact=True)
        )

    # --- the sidebar's budget --------------------------------------------------------------

    def budget_box(self) -> Locator:
        return (
            self.sidebar.get_by_test_id("stNumberInput")
            .filter(has_text="budget_chars, exact")
            .locator("input")
        )

    def budget_slider(self) -> Locator:
        return self.sidebar.get_by_test_id("stSlider").filter(
            has=self.page.get_by_label("budget_chars", exact=True)
        )

    def click_budget_slider(self, fraction: float) -> None:
        """Click the budget slider's track ``fraction`` of the way along (0 left, 1 right)."""
        slider = self.budget_slider()
        slider.scroll_into_view_if_needed()
        track = slider.get_by_role("group", name="budget_chars").bounding_box()
        thumb = slider.get_by_test_id("stSliderThumbValue").locator("..").bounding_box()
        assert track is not None and thumb is not None, "the budget slider is not on screen"
        x = track["x"] + fraction * track["width"]
        self.page.mouse.click(x, thumb["y"] + thumb["height"] / 2)

    def budget_in_url(self) -> int:
        return int(parse_qs(urlsplit(self.page.url).query)["budget_chars"][-1])

    def type_budget(self, value: int) -> None:
        """Type a budget into the exact box and press Enter (the rerun is not waited for)."""
        box = self.budget_box()
        box.fill(str(value))
        box.press("Enter")

    def wait_for_budget(self, value: int) -> None:
        """Wait until the Overview shows ``value``: the URL and the box hold it, a chart draws
        its budget rule (so the new run's charts are on screen) and the run is over."""
        expect(self.page).to_have_url(re.compile(rf"[?&]budget_chars={value}(&|$)"))
        expect(self.budget_box()).to_have_value(str(value))
        self.wait_for_mark("label", f"budget {value:,}")
        self.settle()

    # --- artifacts -------------------------------------------------------------------------

    def screenshot(self, name: str) -> Path:
        """The whole page (the main area and the sidebar, however long) as a PNG."""
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{re.sub(r'[^A-Za-z0-9_.-]+', '_', name).strip('_')}.png"
        page = self.page
        page.mouse.move(0, 0)  # no tooltip left over a chart
        view = self.viewport
        height = max(view["height"], min(int(page.evaluate(CONTENT_HEIGHT)) + 40, 16_000))
        page.set_viewport_size({"width": view["width"], "height": height})
        try:
            page.evaluate(NEXT_FRAME)
            page.screenshot(path=path, animations="disabled", timeout=15_000)
        finally:
            page.set_viewport_size(view)
        return path
