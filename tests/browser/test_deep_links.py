"""Every page's address opens that page, drawn with the shared sidebar and the menu, even as the
very first request to a fresh server (issue 32): until ``st.navigation`` has run once in a
server, Streamlit routes such a request the legacy way, the ``pages/`` script alone, and the
explorer must take the routing over (``explorer.widgets.page``). The links published before the
explorer moved to Streamlit's navigation keep opening the same view: each page's address (its
file's name), the README's parameter link (``?sample=dispatcher&budget_chars=400&...``) and a
workspace share link (``?c=KEY``).

Each page gets a server of its own, so that its address is that server's first request (about
5 s of worker time a page: a fresh server's first run imports the explorer)."""

from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from explorer.navigation import PAGES
from explorer.session import workspace
from explorer.session.conversation import Conversation
from explorer.session.database import DATA_ENV
from explorer.widgets.page import FRIENDLY_ERROR
from harness import browser as driver
from tests.browser.conftest import visiting

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


@pytest.fixture(scope="module")
def kept(tmp_path_factory):
    """A workspace folder that already holds :data:`MINE` (as an earlier session left it)."""
    folder = tmp_path_factory.mktemp("deep-link-workspace")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(DATA_ENV, str(folder))
        assert workspace.save(MINE)
    return folder


def query(visit):
    return {k: v[-1] for k, v in parse_qs(urlsplit(visit.page.url).query).items()}


def drawn_with_the_shared_frame(visit, spec, budget):
    """The page named ``spec`` is drawn, without an error, with the menu across the top and the
    sidebar holding the link's budget."""
    expect(visit.heading()).to_have_text(spec.title)
    expect(visit.menu.get_by_test_id("stTopNavSection")).to_have_count(5)
    expect(visit.budget_box()).to_have_value(str(budget))
    assert not visit.exceptions()
    expect(visit.main.get_by_text(FRIENDLY_ERROR)).to_have_count(0)
    assert urlsplit(visit.page.url).path == f"/{spec.url_path}"
    assert not visit.errors, visit.errors


def first_of_each_section():
    seen, out = set(), []
    for spec in PAGES:
        if spec.section not in seen:
            seen.add(spec.section)
            out.append(spec)
    return out


@pytest.mark.parametrize("spec", PAGES, ids=lambda spec: spec.title)
def test_every_page_address_opens_that_page_as_a_fresh_servers_first_request(chromium, spec):
    """A server of its own for each page, so that the page's address (with the README's
    published link) is the first request it serves."""
    log = driver.ARTIFACTS / f"deep-link-{spec.url_path or 'root'}.log"
    link = "&".join(f"{k}={v}" for k, v in PUBLISHED.items())
    with (
        driver.running_app(log) as server,
        visiting(chromium, server, f"deep_link_first[{spec.title}]") as visit,
    ):
        visit.open(f"{spec.url_path}?{link}")
        drawn_with_the_shared_frame(visit, spec, PUBLISHED["budget_chars"])
        assert {k: query(visit).get(k) for k in PUBLISHED} == PUBLISHED


def test_a_share_link_opens_its_conversation_on_the_page_it_names(chromium, kept):
    """``?c=KEY`` links, as the workspace wrote them before the move, open the kept conversation
    with the link's parameters on the page the address names: the first request of a fresh
    server, then a new session for each section's first page."""
    log = driver.ARTIFACTS / "deep-link-share.log"
    with driver.running_app(log, workspace=kept) as server:
        for spec in first_of_each_section():
            with visiting(chromium, server, f"deep_link_share[{spec.title}]") as visit:
                visit.open(f"{spec.url_path}?c={MINE.key}&budget_chars=180")
                drawn_with_the_shared_frame(visit, spec, 180)
                assert query(visit)["c"] == MINE.key
                kept_note = visit.sidebar.get_by_text("Kept in this server's workspace")
                expect(kept_note).to_be_visible()
