"""Fixtures of the browser tests: the real server, Debian's Chromium, one visit per test.

Every test here runs under a per-test timeout (pytest-timeout), so a hung browser or server
fails that test instead of hanging CI; every test leaves a screenshot of the page it ended on in
artifacts/screenshots/ and fails if the page asked for anything from another origin.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from harness import browser as driver

HERE = Path(__file__).resolve().parent
#: Seconds one browser test may take, fixtures included (the first one starts the server).
PER_TEST_SECONDS = 120


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    mine = [item for item in items if HERE in item.path.parents]
    if mine and not config.pluginmanager.hasplugin("timeout"):
        raise pytest.UsageError(
            "The browser tests need pytest-timeout (in the project's test extra) so that a hung "
            "browser cannot hang the run: .venv/bin/pip install -e '.[test]'"
        )
    for item in mine:
        if item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(PER_TEST_SECONDS))


# Package scope, not session: Playwright's sync API keeps an event loop running in the main
# thread while it is open, so it must close before tests elsewhere call asyncio.run().
@pytest.fixture(scope="package")
def app_server() -> Iterator[driver.Server]:
    """One ``streamlit run app.py`` for the browser tests; each test opens its own session on it."""
    with driver.running_app(driver.ARTIFACTS / "streamlit-server.log") as server:
        yield server


@pytest.fixture(scope="package")
def chromium() -> Iterator[Browser]:
    """Debian's Chromium; when it is missing or does not start, every browser test fails (an
    error naming what to install), never skips."""
    with sync_playwright() as playwright:
        problem = None
        try:
            browser = driver.launch(playwright)
        except driver.NoBrowser as error:
            problem = str(error)
        if problem is not None:
            pytest.fail(problem, pytrace=False)
        yield browser
        browser.close()


@contextmanager
def visiting(
    browser: Browser,
    server: driver.Server,
    name: str,
    viewport: dict[str, int] = driver.VIEWPORT,
) -> Iterator[driver.Visit]:
    """A visit that is screenshotted and closed at the end, and checked for foreign requests."""
    visit = driver.Visit(browser, server.url, viewport)
    try:
        yield visit
        visit.screenshot(name)
    finally:
        visit.close()
    assert not visit.foreign, f"the page asked another origin for: {visit.foreign}"


@pytest.fixture
def visit(
    chromium: Browser, app_server: driver.Server, request: pytest.FixtureRequest
) -> Iterator[driver.Visit]:
    """A fresh browser context (a new Streamlit session) on the shared server."""
    with visiting(chromium, app_server, request.node.name) as visit:
        yield visit
