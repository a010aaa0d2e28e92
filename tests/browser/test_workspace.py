"""Real files in the real explorer: a file of many conversations, a record picked, and a link
that reopens that conversation (and its view) in another browser; a link to a conversation the
server does not have says so; a refused paste shows only its own outcome, its problems wrapped."""

import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from compactor.errors import FormatError
from compactor.formats import convert_text
from explorer.conversation.importing import TITLES
from explorer.frames.imports import problem_row_height
from explorer.navigation import PAGES
from tests.browser.conftest import visiting
from tests.browser.expected import engine_fates
from tests.paths import ROOT

TAU = ROOT / "tests" / "fixtures" / "real" / "tau_airline_3_records.json"
CONVERSATION = next(spec for spec in PAGES if spec.path == "pages/conversation.py")
OVERVIEW = next(spec for spec in PAGES if spec.path == "pages/overview.py")
FACTS = next(spec for spec in PAGES if spec.path == "pages/facts.py")


def query(visit):
    return {k: v[-1] for k, v in parse_qs(urlsplit(visit.page.url).query).items()}


def request_of(visit, messages):
    q = query(visit)
    return {
        "messages": messages,
        "budget_chars": int(q["budget_chars"]),
        "keep_last_n": int(q["keep_last_n"]),
        "keep_roles": [r for r in q.get("keep_roles", "").split(",") if r],
        "duplicate_threshold": float(q["duplicate_threshold"]),
        "max_message_chars": int(q["max_message_chars"]),
    }


@pytest.mark.slow
def test_a_picked_record_is_reproduced_by_its_link_in_another_browser(visit, chromium, app_server):
    expected = convert_text(TAU.read_bytes(), record=1).request["messages"]
    visit.open()
    visit.go(CONVERSATION.title)
    visit.choose_mode("Upload")
    visit.upload_input.set_input_files(
        files=[{"name": TAU.name, "mimeType": "application/json", "buffer": TAU.read_bytes()}]
    )
    expect(visit.main.get_by_text(TITLES["collection"])).to_be_visible()
    visit.settle()
    visit.main.get_by_test_id("stSelectbox").filter(has_text="Record").click()
    visit.page.get_by_role("option", name="record 1 · id 45").click()
    visit.settle()
    visit.main.get_by_role("button", name="Load this record").click()
    expect(visit.alert(f"Loaded: Uploaded file {TAU.name}, record 1 (openai)")).to_be_visible()
    visit.settle()
    expect(visit.page).to_have_url(re.compile(r"[?&]c=[0-9a-f]{24}(&|$)"))
    link = visit.page.url
    chars = sum(len(m["content"]) for m in expected)
    # the link, with a view added, in a fresh browser context: a new session on the same server
    view = "&phrases=3RK2T9&step=3&message=2"
    with visiting(chromium, app_server, "link_reopens_the_record") as other:
        other.open("?" + urlsplit(link).query + view)
        expect(other.sidebar).to_contain_text(f"{len(expected):,} messages, {chars:,} characters")
        expect(other.sidebar.get_by_role("combobox", name="Sample")).to_have_value(
            f"Loaded: Uploaded file {TAU.name}, record 1 (openai)"
        )
        assert {k: query(other)[k] for k in ("phrases", "step", "message")} == {
            "phrases": "3RK2T9",
            "step": "3",
            "message": "2",
        }
        assert other.fates() == engine_fates(request_of(other, expected))
        other.go(FACTS.title)
        expect(
            other.main.get_by_role("textbox", name="Phrases to watch, one per line")
        ).to_have_value("3RK2T9")
        assert not other.exceptions()


def test_a_link_to_a_conversation_the_server_does_not_have_says_so(visit):
    visit.open("?c=" + "e" * 24)
    expect(visit.page.get_by_test_id("stAlert").filter(has_text="does not have")).to_be_visible()
    assert "e" * 24 in (visit.page.get_by_test_id("stAlert").first.text_content() or "")
    assert not visit.exceptions()


@pytest.mark.slow
def test_a_refused_paste_replaces_the_last_outcome_and_wraps_its_problems(visit):
    good = [
        {"role": "user", "content": "Where is van 2?"},
        {"role": "assistant", "content": "At the depot."},
    ]
    fields = {f"field_number_{i}_with_a_long_name": i for i in range(12)}
    bad = json.dumps([{**fields, "content": "no role here"}, {"text": "nor here"}])
    try:
        convert_text(bad)
    except FormatError as error:
        problem = error.problems[0]
    assert len(problem.message) > 200
    visit.open()
    visit.go(CONVERSATION.title)
    visit.choose_mode("Paste")
    box = visit.paste_box
    box.fill(json.dumps(good))
    visit.main.get_by_role("button", name="Load pasted conversation").click()
    expect(visit.alert("Loaded: Pasted conversation")).to_be_visible()
    visit.settle()
    box.fill(bad)
    visit.main.get_by_role("button", name="Load pasted conversation").click()
    expect(visit.alert(TITLES["format"])).to_be_visible()
    visit.settle()
    expect(visit.alert("Loaded:")).to_have_count(0)  # only the current outcome
    table = visit.table_with(problem.path)
    box_height = table.bounding_box()["height"]
    assert box_height >= problem_row_height([problem]) > 35  # a row tall enough to wrap in
    expect(box).to_have_value(bad)
    assert not visit.exceptions()
