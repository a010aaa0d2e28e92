"""The first screen: the tour sample with every stage at work and two sentences on what it shows
and what to try, and a first interaction on a fresh server that registers (the router's
workaround for Streamlit's first run)."""

import pytest
from playwright.sync_api import expect

from compactor import run, validate
from compactor.samples import DEFAULT_SAMPLE, load_sample
from explorer.frames.views import name_list
from explorer.navigation import PAGES
from harness import browser as driver
from tests.browser.conftest import visiting
from tests.browser.expected import engine_fates

OPENED = load_sample(DEFAULT_SAMPLE)


def test_it_opens_on_the_tour_and_shows_every_stage_at_work(visit):
    visit.open()
    expect(visit.heading()).to_have_text("Overview")
    expect(visit.sidebar.get_by_role("combobox", name="Sample")).to_have_value(OPENED.name)
    expect(visit.main.get_by_text("You are looking at how memory-compact")).to_be_visible()
    expect(visit.main.get_by_text("Try moving budget_chars in the sidebar")).to_be_visible()
    result = run(validate(OPENED.request))
    assert visit.fates() == engine_fates(OPENED.request)
    stages = visit.static_rows("Which")  # the stage table, whose long lists wrap
    # stage, rule, messages, outcome, which, characters removed: each stage acted
    removed = [
        f"#{r.index} ≈ #{r.duplicate_of} ({r.similarity:.3f})" for r in result.deduplication.removed
    ]
    assert removed and [stages["2. dedupe"][2], stages["2. dedupe"][4]] == [
        f"{len(removed):,}",
        name_list(removed),
    ]
    acted = {
        "1. pin": sum(t.protected for t in result.messages),
        "3. trim": len(result.trimming.cuts),
        "4. drop": len(result.dropping.dropped),
    }
    for stage, count in acted.items():
        assert count > 0 and stages[stage][2] == f"{count:,}", stage
    assert not visit.exceptions()


@pytest.mark.slow
def test_the_first_interaction_on_a_fresh_server_registers(chromium, request):
    """A fresh server's first run executes the page file itself (Streamlit's pages/ folder
    rule); without the router's rerun, a widget on the page that run drew would ignore its
    first click. So a fresh server, opened straight on the Conversation page, must switch to the
    paste panel on the first click."""
    conversation = next(spec for spec in PAGES if spec.path == "pages/conversation.py")
    log = driver.ARTIFACTS / "streamlit-fresh-server.log"
    with driver.running_app(log) as server, visiting(chromium, server, request.node.name) as visit:
        visit.open(driver.url_path(conversation))
        expect(visit.heading()).to_have_text(conversation.title)
        expect(visit.paste_box).to_have_count(0)
        visit.choose_mode("Paste")  # the first widget event this server process receives
        expect(visit.paste_box).to_have_count(1)
        visit.settle()
        assert not visit.exceptions()
