"""Every page opened by its address, as the very first request to a fresh server (issue 32), is
drawn with the shared sidebar and the menu, draws its charts and fails nowhere; in a laptop's
window the menu marks the page and the budget is on screen without scrolling (issue 26, item 15);
on the light theme every line, label and outline the explorer colours stands out from the page
(issue 18, item 5; the dark theme is tests/browser/test_themes.py). The links published before
the explorer moved to Streamlit's navigation open the same view: each page's address (its file's
name), the README's parameter link (``?sample=dispatcher&budget_chars=400&...``) and a workspace
share link (``?c=KEY``).

Until ``st.navigation`` has run once in a server, Streamlit routes a page's address the legacy
way, the ``pages/`` script alone, and the explorer must take the routing over
(``explorer.widgets.page``): the first page of each section of the menu gets a server of its
own, whose first request its address is (about 8 s of worker time a page: a server's start and
its first run, which imports the explorer); every page's script is checked to hand its body to
that frame, and the other pages are opened by their address on the shared server. The pages come
from ``explorer.navigation.PAGES``, so a page added there is covered here too; they are opened
on a link whose parameters make every stage act (dedupe, trim and drop), so every view has
something to draw. This file's tests are shared out one by one over the workers
(tests/conftest.py).
"""

import ast
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from compactor.samples import load_sample
from explorer.navigation import PAGES
from explorer.session import workspace
from explorer.session.conversation import Conversation
from explorer.session.database import DATA_ENV
from explorer.widgets.page import FRIENDLY_ERROR
from harness import browser as driver
from tests.browser import looks
from tests.browser.conftest import visiting
from tests.browser.expected import result

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
    "pages/strategies.py": 2,
}
#: The parameter link the README published before the move (the dispatcher sample, every value).
PUBLISHED = {
    "sample": "dispatcher",
    "budget_chars": "400",
    "keep_last_n": "2",
    "keep_roles": "system",
    "duplicate_threshold": "0.9",
    "max_message_chars": "120",
}
#: A conversation of the user's own, kept in the workspace before the server starts.
MINE = Conversation(
    messages=(
        {"role": "system", "content": "You route parcels for the depot in Lyon."},
        {"role": "user", "content": "Where is parcel PX-0442? It left Lyon on 3 March."},
        {"role": "assistant", "content": "Parcel PX-0442 is at the Dijon hub since 09:40."},
        {"role": "user", "content": "Send it on to Besancon, and tell me when it arrives."},
    ),
    params={
        "budget_chars": 150,
        "keep_last_n": 1,
        "keep_roles": ["system"],
        "duplicate_threshold": 0.9,
        "max_message_chars": 4000,
    },
    label="Pasted conversation",
    source="pasted",
)


def test_the_link_makes_every_stage_act():
    linked = result({**load_sample(SAMPLE).request, **LINK_PARAMS})
    assert linked.deduplication.removed and linked.trimming.cuts and linked.dropping.dropped
    assert linked.protection.indices


def test_every_page_in_charts_is_in_the_navigation():
    assert set(CHARTS) <= {spec.path for spec in PAGES}


def test_every_page_runs_only_through_the_frame_that_takes_the_routing_over():
    """What the fresh-server tests below check on the first page of each section holds for every
    page: its script does nothing at the top but define and import, then hands its body to
    ``page.run`` or ``page.run_input`` (which route a legacy run through the entry first)."""
    for spec in PAGES:
        tree = ast.parse(Path(spec.file).read_text(encoding="utf-8"))
        *top, last = tree.body
        assert all(
            isinstance(node, ast.Import | ast.ImportFrom | ast.FunctionDef | ast.Assign | ast.Expr)
            and not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call))
            for node in top
        ), f"{spec.file} does something before its page's frame"
        call = last.value if isinstance(last, ast.Expr) else None
        assert isinstance(call, ast.Call) and ast.unparse(call.func) in (
            "page.run",
            "page.run_input",
        ), f"{spec.file} does not end by handing its body to page.run or page.run_input"


def test_every_themed_page_is_in_the_navigation():
    assert set(looks.THEMED_PAGES) <= {spec.title for spec in PAGES}


def query(visit):
    return {k: v[-1] for k, v in parse_qs(urlsplit(visit.page.url).query).items()}


def drawn_with_the_shared_frame(visit, spec, budget):
    """The page named ``spec`` is drawn at its address, without an error, with the menu across
    the top and the sidebar holding the link's budget."""
    expect(visit.heading()).to_have_text(spec.title)
    visit.settle()  # the run that drew the heading has ended (the first run may end in a rerun)
    expect(visit.menu.get_by_test_id("stTopNavSection")).to_have_count(5)
    expect(visit.budget_box()).to_have_value(str(budget))
    assert not visit.exceptions()
    expect(visit.main.get_by_text(FRIENDLY_ERROR)).to_have_count(0)
    assert urlsplit(visit.page.url).path == f"/{spec.url_path}"
    assert not visit.errors, visit.errors


def budget_on_screen(visit, spec):
    """The page is marked as the current one in its section of the menu (and no other is),
    nothing is scrolled, and the sidebar's budget slider and box are inside the window."""
    links = visit.open_section(spec.section)
    current = links.filter(has=visit.page.get_by_text(spec.title, exact=True))
    expect(current).to_have_attribute("aria-current", "page")
    marked = visit.page.locator("[data-testid='stTopNavDropdownLink'][aria-current]")
    expect(marked).to_have_count(1)
    visit.page.keyboard.press("Escape")
    expect(visit.page.get_by_test_id("stTopNavPopover")).to_have_count(0)
    assert visit.page.evaluate(SCROLLED) == [0, 0]
    window = looks.LAPTOP
    for name, control in (("slider", visit.budget_slider()), ("box", visit.budget_box())):
        box = control.bounding_box()
        assert box is not None, f"the budget {name} is not drawn on {spec.title}"
        top, bottom = box["y"], box["y"] + box["height"]
        assert top >= 0 and bottom <= window["height"], (
            f"the budget {name} is at y {top:.0f} to {bottom:.0f} on {spec.title}, in a window "
            f"{window['height']} tall"
        )
        assert box["x"] >= 0 and box["x"] + box["width"] <= window["width"]


def first_of_each_section():
    seen, out = set(), []
    for spec in PAGES:
        if spec.section not in seen:
            seen.add(spec.section)
            out.append(spec)
    return out


#: The pages opened as a fresh server's first request: the first of each section of the menu.
FIRST_REQUESTS = first_of_each_section()


def opened_by_its_address(visit, spec):
    """The page opened at its address on the link: drawn in the shared frame, every chart with
    marks, the budget on screen, every coloured mark readable on the light theme, no error."""
    visit.open(f"{spec.url_path}{LINK}")
    drawn_with_the_shared_frame(visit, spec, LINK_PARAMS["budget_chars"])
    assert query(visit)["sample"] == SAMPLE
    budget_on_screen(visit, spec)
    charts = visit.charts()
    assert len(charts) >= CHARTS.get(spec.path, 0), f"{spec.title} drew {len(charts)} charts"
    for number, chart in enumerate(charts, start=1):
        assert visit.chart_rows(chart), f"chart {number} of {spec.title} drew no marks"
    if spec.title in looks.THEMED_PAGES:  # the light theme (the dark: test_themes.py)
        looks.show_what_is_coloured(visit, spec.title)
        looks.check_page(visit, "light", spec.title)
    assert not visit.exceptions()
    assert not visit.errors, visit.errors


@pytest.mark.parametrize("spec", FIRST_REQUESTS, ids=lambda spec: spec.title)
def test_a_page_opens_by_its_address_as_a_fresh_servers_first_request(chromium, spec):
    log = driver.ARTIFACTS / f"deep-link-{spec.url_path or 'root'}.log"
    name = f"test_a_page_opens_by_its_address_as_a_fresh_servers_first_request[{spec.title}]"
    with (
        driver.running_app(log) as server,
        visiting(chromium, server, name, looks.LAPTOP) as visit,
    ):
        opened_by_its_address(visit, spec)


@pytest.mark.parametrize(
    "spec", [s for s in PAGES if s not in FIRST_REQUESTS], ids=lambda spec: spec.title
)
def test_every_other_page_opens_by_its_address(chromium, app_server, spec):
    name = f"test_every_other_page_opens_by_its_address[{spec.title}]"
    with visiting(chromium, app_server, name, looks.LAPTOP) as visit:
        opened_by_its_address(visit, spec)


@pytest.fixture(scope="module")
def kept(tmp_path_factory):
    """A workspace folder that already holds :data:`MINE` (as an earlier session left it)."""
    folder = tmp_path_factory.mktemp("deep-link-workspace")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(DATA_ENV, str(folder))
        assert workspace.save(MINE)
    return folder


def test_the_published_links_open_the_same_view(chromium, kept):
    """``?c=KEY`` links, as the workspace wrote them before the move, open the kept conversation
    with the link's parameters on the page the address names (the first request of a fresh
    server, then a new session for each section's first page); the README's parameter link
    opens the dispatcher sample with every value it names."""
    log = driver.ARTIFACTS / "deep-link-share.log"
    with driver.running_app(log, workspace=kept) as server:
        for spec in first_of_each_section():
            with visiting(chromium, server, f"deep_link_share[{spec.title}]") as visit:
                visit.open(f"{spec.url_path}?c={MINE.key}&budget_chars=180")
                drawn_with_the_shared_frame(visit, spec, 180)
                assert query(visit)["c"] == MINE.key
                kept_note = visit.sidebar.get_by_text("Kept in this server's workspace")
                expect(kept_note).to_be_visible()
        with visiting(chromium, server, "deep_link_readme") as visit:
            visit.open("?" + "&".join(f"{k}={v}" for k, v in PUBLISHED.items()))
            overview = next(spec for spec in PAGES if spec.default)
            drawn_with_the_shared_frame(visit, overview, PUBLISHED["budget_chars"])
            assert {k: query(visit).get(k) for k in PUBLISHED} == PUBLISHED
