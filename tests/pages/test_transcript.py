"""Transcript: the conversation as a chat, each message kept (as text), cut (the cut-off text
struck through) or removed (greyed), as the engine decided; and only what the model is sent."""

import html
import re

import pytest

from compactor import Fate, compact
from compactor.samples import load_sample
from harness.apptest import MOVES, assert_clean, follows_the_engine, on_page, request_of
from tests.explorer.requests import rich_request

PAGE = "pages/transcript.py"
PER_PAGE = 20
_TAG = re.compile(r"<[^>]+>")
_SCISSORS = re.compile(r"✂ (sentence|hard) cut at [\d,]+")


def visible(markup):
    return html.unescape(_TAG.sub("", markup))


def body(message):
    """How a chat message shows its content: ("kept", text), ("cut", kept, cut off) or
    ("removed", text), read from the elements the page drew."""
    elements = [c for c in message.children.values() if c.type in ("text", "html")]
    assert len(elements) == 1, elements
    element = elements[0]
    if element.type == "text":
        return ("kept", element.value)
    markup = element.value
    if "✂" in markup:
        kept, rest = markup.split("✂", 1)
        assert "line-through" in rest
        return ("cut", visible(kept), _SCISSORS.sub("", visible("✂" + rest), count=1))
    assert "opacity" in markup
    return ("removed", visible(markup))


def reported(at):
    return [(m.name, body(m)) for m in at.chat_message]


def expected(result):
    out = []
    for t in result.messages:
        content = t.message.content
        if not t.survived:
            out.append((t.message.role, ("removed", content)))
        elif t.fate is Fate.TRIMMED:
            out.append((t.message.role, ("cut", t.output, content[len(t.output) :])))
        else:
            out.append((t.message.role, ("kept", t.output)))
    return out


@pytest.mark.parametrize("move", MOVES, ids=lambda m: f"{m[0]}={m[1]}")
def test_the_transcript_follows_the_engine(move):
    follows_the_engine(PAGE, rich_request(), reported, expected, move)


def test_the_rich_request_shows_every_way_a_message_goes():
    at = on_page(PAGE, rich_request())
    kinds = {shown[0] for _, shown in reported(at)}
    assert kinds == {"kept", "cut", "removed"}
    captions = [
        c.value for m in at.chat_message for c in m.children.values() if c.type == "caption"
    ]
    assert any("removed by dedupe" in c for c in captions)
    assert any("removed by drop" in c for c in captions)


def test_what_the_model_sees_is_the_response_in_order():
    at = on_page(PAGE, rich_request())
    at.button_group(key="transcript_view").set_value("What the model sees").run()
    assert_clean(at)
    response = compact(request_of(at))
    sent = [(m["role"], m["content"]) for m in response["messages"]]
    assert [(m.name, body(m)) for m in at.chat_message] == [
        (role, ("kept", content)) for role, content in sent
    ]
    assert not at.html


def test_a_long_conversation_is_shown_a_page_at_a_time():
    request = {**load_sample("support-chat").request, "budget_chars": 1000}
    at = on_page(PAGE, request)
    messages = request["messages"]
    pages = -(-len(messages) // PER_PAGE)
    assert len(at.chat_message) == PER_PAGE
    box = at.number_input(key="transcript_page")
    box.set_value(pages).run()
    assert_clean(at)
    assert len(at.chat_message) == len(messages) - (pages - 1) * PER_PAGE
    # the messages sent fit one page: the page box (at the last page) goes, and all are shown
    at.button_group(key="transcript_view").set_value("What the model sees").run()
    assert_clean(at)
    sent = compact(request_of(at))["messages"]
    assert len(sent) <= PER_PAGE
    assert "transcript_page" not in [box.key for box in at.number_input]
    assert [body(m)[1] for m in at.chat_message] == [m["content"] for m in sent]


def test_compacted_by_focus_shows_what_focus_keeps_with_its_terms_marked():
    from compactor import validate
    from compactor.strategies import focus_account

    at = on_page(PAGE, rich_request())
    at.button_group(key="transcript_by").set_value("focus (what the pending turn is about)").run()
    assert_clean(at)
    request = validate(request_of(at))
    wanted = focus_account(request)
    shown = []
    for message in at.chat_message:
        (element,) = [c for c in message.children.values() if c.type == "html"]
        shown.append(("removed" if "opacity" in element.value else "sent", visible(element.value)))
    assert (
        shown
        == [
            ("removed", m.content) if out is None else ("sent", out)
            for m, out in zip(request.messages, wanted.contents, strict=True)
        ][:PER_PAGE]
    )
    box = next(t for t in at.text_area if t.key.startswith("transcript_focus_"))
    assert box.value == next(m.content for m in reversed(request.messages) if m.role == "user")
    box.set_value("ok").run()  # says nothing: the query-free mode, said in the caption
    assert_clean(at)
    assert any("rare words instead" in c.value for c in at.caption)
    again = focus_account(request, None, {"focus": "ok"})
    kept = [
        visible(c.value)
        for m in at.chat_message
        for c in m.children.values()
        if c.type == "html" and "opacity" not in c.value
    ]
    assert kept == [out for out in again.contents if out is not None][: len(kept)]
