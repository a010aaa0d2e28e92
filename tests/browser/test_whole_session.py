"""Issue 35 in Chromium: a real Claude Code session (226 messages, tool results far over 8,000
characters, 2.5 MB) uploaded on the Conversation page opens whole, with no fix asked, and the
Overview draws it."""

import pytest
from playwright.sync_api import expect

from compactor.formats import convert_text
from explorer.navigation import PAGES
from tests.paths import REAL_COMPACTIONS

SESSION = REAL_COMPACTIONS / "6a-71b2542fc4-0-full.jsonl"
CONVERSATION = next(spec for spec in PAGES if spec.path == "pages/conversation.py")
OVERVIEW = next(spec for spec in PAGES if spec.path == "pages/overview.py")


@pytest.mark.slow  # a 2.5 MB upload and its first analysis: about 10 s on 2 cores
def test_a_real_session_opens_whole(visit):
    data = SESSION.read_bytes()
    count = len(convert_text(data).request["messages"])
    assert count > 200
    visit.open()
    visit.go(CONVERSATION.title)
    visit.choose_mode("Upload")
    visit.upload_input.set_input_files(
        files=[{"name": SESSION.name, "mimeType": "application/json", "buffer": data}]
    )
    expect(visit.alert(f"Loaded: Uploaded file {SESSION.name} (claude-code)")).to_be_visible()
    expect(visit.alert(f"Whole: {count:,} messages")).to_be_visible()
    expect(visit.main.get_by_role("button", name="Load with these fixes")).to_be_hidden()
    visit.go(OVERVIEW.title)
    expect(visit.main.get_by_text(f"{count:,} messages in runs of")).to_be_visible()
    assert not visit.exceptions()
