"""Untrusted contents and ids (HTML, <script>, Markdown links and images, LaTeX) show as text.

Markdown-rendered elements (markdown, captions, headings, alerts, metrics) must never carry any
of it; HTML elements carry it only escaped; text, code, tables and JSON carry it literally.
"""

import html
import re

import pytest
from streamlit.testing.v1.element_tree import AlertBase, HeadingBase, Markdown, Metric

from explorer.navigation import PAGES
from harness.apptest import assert_clean, goto, load, start
from tests.explorer.requests import HOSTILE, hostile_request

#: Pieces of the hostile contents and ids that none of the explorer's own texts contain.
MARKERS = ("<script", "script>", "onerror", "tracker", "javascript", "\\frac", "<i>id-", "**bold")
RAW_TAGS = ("<script", "<img", "<b>", "<i>")


def walk(node):
    children = getattr(node, "children", None)
    if children is None:
        yield node
        return
    for child in children.values():
        yield from walk(child)


def rendered_as_markdown(at):
    for node in walk(at._tree):
        if isinstance(node, (Markdown, HeadingBase, AlertBase)):
            yield node.type, node.value
        elif isinstance(node, Metric):
            yield "metric", f"{node.label} {node.value} {node.proto.delta}"


def literal_texts(at):
    out = [t.value for t in at.text] + [c.value for c in at.code] + [j.value for j in at.json]
    for frame in at.dataframe:
        out += [str(v) for v in frame.value.to_numpy().ravel()]
    return out


@pytest.fixture(scope="module")
def session():
    return load(start(), hostile_request(), label="Hostile conversation")


@pytest.mark.parametrize("spec", PAGES, ids=lambda s: s.title)
def test_hostile_contents_never_reach_markdown_or_raw_html(session, spec):
    at = goto(session, spec.path)
    assert_clean(at)
    pages = [at]
    if spec.path == "pages/timeline.py":  # every message's detail
        for index in range(len(hostile_request()["messages"])):
            pages.append(at.selectbox(key="timeline_message").set_value(index).run())
    for shown in pages:
        for kind, value in rendered_as_markdown(shown):
            for marker in MARKERS:
                assert marker not in value, (kind, value)
        for element in shown.html:
            for tag in RAW_TAGS:
                assert tag not in element.value.replace("<mark", "<m"), element.value


def visible(markup):
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


def test_the_detail_shows_contents_and_ids_literally(session):
    at = goto(session, "pages/timeline.py")
    request = hostile_request()
    for index in (1, 3, 5, 7):
        at.selectbox(key="timeline_message").set_value(index).run()
        texts = literal_texts(at)
        assert request["messages"][index]["content"] in texts
        assert request["messages"][index]["id"] in texts


def test_highlights_and_trims_show_the_hostile_text_escaped_and_whole(session):
    at = goto(session, "pages/duplicates.py")
    boxes = [visible(h.value) for h in at.html if "<mark" in h.value]
    assert boxes == [HOSTILE[0], HOSTILE[0]]  # message 9 duplicates message 1
    at = goto(session, "pages/trims.py")
    trims = [h.value for h in at.html if "✂" in h.value]
    request = hostile_request()
    for markup, index in zip(trims, (6, 8), strict=True):
        shown = re.sub(r"✂ (hard|sentence) cut at [\d,]+", "", visible(markup))
        assert shown == request["messages"][index]["content"]


def test_the_output_lists_hostile_survivors_literally(session):
    at = goto(session, "pages/output.py")
    texts = literal_texts(at)
    assert HOSTILE[0] in texts and HOSTILE[2] in texts and "<i>id-0</i>" in texts
