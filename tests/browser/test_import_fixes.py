"""Issues 26 and 35 in Chromium: a real-sized Codex rollout (707 messages from real turns, two
tool outputs over 8,000 characters) loads whole, with no fix asked; the window and the cut stay
on offer, and the head and the tail (the session's instructions and task with its end) load,
saying what was left out."""

import pytest
from playwright.sync_api import expect

from compactor.formats import Window, convert_text
from explorer.conversation.fixing import WINDOW_KINDS
from explorer.frames import imports
from explorer.frames.imports import FIX_LABELS
from explorer.navigation import PAGES
from tests.long_logs import long_codex_rollout

CONVERSATION = next(spec for spec in PAGES if spec.path == "pages/conversation.py")
ROLLOUT = long_codex_rollout(long_outputs=(3, 40))
READ = convert_text(ROLLOUT)
COUNT = len(READ.request["messages"])
LONG = [c.index for c in READ.changes if c.kind == "content-too-long"]
FILE = {"name": "rollout.jsonl", "mimeType": "application/json", "buffer": ROLLOUT}


def checkbox(visit, option):
    return visit.main.get_by_test_id("stCheckbox").filter(has_text=FIX_LABELS[option])


def load_button(visit):
    return visit.main.get_by_role("button", name="Load with these fixes")


def upload(visit):
    visit.upload_input.set_input_files(files=[FILE])
    expect(visit.alert("Loaded: Uploaded file rollout.jsonl (codex)")).to_be_visible()
    expect(visit.alert(f"Whole: {COUNT:,} messages")).to_be_visible()


@pytest.mark.slow
def test_a_long_rollout_loads_whole_and_a_head_and_tail_is_an_option(visit):
    assert COUNT > 700 and len(LONG) == 2
    visit.open()
    visit.go(CONVERSATION.title)
    visit.choose_mode("Upload")
    upload(visit)
    visit.main.get_by_text("Optional: load a window of it").click()
    checkbox(visit, "keep_last").click()
    checkbox(visit, "cut_long").click()
    # a range: from #507 to the last by default, with what it leaves out
    visit.main.get_by_test_id("stRadio").get_by_text(WINDOW_KINDS["range"]).click()
    ranged = imports.window_preview(READ, Window(start=COUNT - 200, end=COUNT - 1))
    assert ranged.startswith(f"Keeps #{COUNT - 200} to #{COUNT - 1} (200 messages); leaves out")
    expect(visit.main.get_by_text(ranged)).to_be_visible()
    start = visit.main.get_by_role("spinbutton", name="From message #")
    start.fill("0")
    start.press("Enter")
    too_many = imports.window_preview(READ, Window(start=0, end=COUNT - 1))
    assert too_many.startswith(f"The window keeps {COUNT} messages")
    expect(visit.main.get_by_text(too_many)).to_be_visible()
    visit.main.get_by_test_id("stRadio").get_by_text(WINDOW_KINDS["head_tail"]).click()
    first = visit.main.get_by_role("spinbutton", name="Keep the first")
    first.fill("4")
    first.press("Enter")
    last = visit.main.get_by_role("spinbutton", name="and the last")
    last.fill("196")
    last.press("Enter")
    preview = imports.window_preview(READ, Window(first=4, last=196))
    assert preview.startswith(f"Keeps #0 to #3 and #{COUNT - 196} to #{COUNT - 1} (200 messages)")
    expect(visit.main.get_by_text(preview)).to_be_visible()
    load_button(visit).click()
    expect(visit.alert("Loaded: Uploaded file rollout.jsonl (codex)")).to_be_visible()
    expect(visit.main).to_contain_text("200 messages")
    left_out = preview.split("leaves out ")[1].split(":")[0]  # "#4 to #510"
    expect(visit.main).to_contain_text(
        f"Left out: kept #0 to #3 and #{COUNT - 196} to #{COUNT - 1} (200 of {COUNT} messages): "
        f"{left_out} were removed"
    )
    assert not visit.exceptions()
