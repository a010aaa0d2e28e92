"""Message contents are shown as text: HTML, <script>, Markdown images and links and LaTeX in a
pasted conversation run nothing, load nothing and render as nothing but their own characters,
on every page."""

import json
import re

import pytest
from playwright.sync_api import expect

from explorer.frames.views import preview
from explorer.navigation import PAGES
from explorer.widgets.page import FRIENDLY_ERROR
from tests.explorer.requests import HOSTILE, hostile_request

CONVERSATION = next(spec for spec in PAGES if spec.path == "pages/conversation.py")
TIMELINE = next(spec for spec in PAGES if spec.path == "pages/timeline.py")
DUPLICATES = next(spec for spec in PAGES if spec.path == "pages/duplicates.py")
IMAGE = "![x](http://127.0.0.1:9/x.png) [a link](http://127.0.0.1:9/link) $x^2$"
#: What the contents would create if any of them were rendered as HTML or Markdown.
RENDERED = (
    "img[src='x'], img[src*='127.0.0.1:9'], img[src*='.png']",
    "a[href^='javascript:'], a[href*='127.0.0.1:9']",
    ".katex, .katex-display, math",
)
#: Requests the contents would cause: the <img src=x>, the Markdown images and link.
CONTENT_URL = re.compile(r"(/x$|/x\?|x\.png|pixel\.png|127\.0\.0\.1:9/|^javascript:)")


def hostile() -> dict:
    request = hostile_request()
    request["messages"].append({"role": "user", "content": IMAGE, "id": "md-image"})
    return request


def paste(visit, request: dict) -> None:
    visit.go(CONVERSATION.title)
    visit.choose_mode("Paste")
    visit.paste_box.fill(json.dumps(request))
    visit.main.get_by_role("button", name="Load pasted conversation").click()
    expect(visit.alert("Loaded: Pasted")).to_be_visible()
    visit.settle()


def assert_nothing_rendered(visit, where: str) -> None:
    assert not visit.exceptions(), where
    expect(visit.main.get_by_text(FRIENDLY_ERROR)).to_have_count(0)
    for selector in RENDERED:
        expect(visit.page.locator(selector), f"{selector} on {where}").to_have_count(0)
    expect(visit.page.locator("script").filter(has_text="alert(")).to_have_count(0)
    expect(visit.main.locator("strong, b").filter(has_text=re.compile(r"^bold$"))).to_have_count(0)


@pytest.mark.slow
def test_hostile_contents_are_shown_literally_and_run_or_load_nothing(visit):
    request = hostile()
    visit.open()
    paste(visit, request)
    for spec in PAGES:
        visit.go(spec.title)
        assert_nothing_rendered(visit, spec.title)

    # each hostile message's tooltip and detail show its exact characters as text
    visit.go(TIMELINE.title)
    chart = visit.chart_with("original_chars")
    messages = request["messages"]
    for index, message in enumerate(messages):
        if message["role"] != "user" or message.get("id") is None:
            continue
        tooltip = visit.hover_mark(chart, "index", index)  # vega-tooltip escapes the text
        expect(tooltip).to_contain_text(preview(message["content"]))
        assert_nothing_rendered(visit, f"the tooltip of message {index}")
        visit.click_mark(chart, "index", index)
        shown = visit.main.get_by_test_id("stText").filter(has_text=message["content"])
        expect(shown.first).to_have_text(message["content"])
        expect(visit.cell(visit.main, message["id"])).to_have_count(1)
        visit.settle()
        assert_nothing_rendered(visit, f"the detail of message {index}")

    # the removed pair shows the <script> message's characters side by side
    visit.go(DUPLICATES.title)
    pair = visit.main.get_by_test_id("stHtml").filter(has_text=HOSTILE[0])
    expect(pair).to_have_count(2)

    assert visit.dialogs == [], visit.dialogs
    assert [url for url in visit.requests if CONTENT_URL.search(url)] == []
    assert visit.foreign == []
    assert visit.errors == []
