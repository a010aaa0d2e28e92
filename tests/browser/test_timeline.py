"""Clicking a message in the fate chart opens its detail: its text, its fields, why its fate."""

import re

import pytest
from playwright.sync_api import expect

from compactor.samples import load_sample
from explorer.navigation import PAGES
from tests.browser.expected import result

DISPATCHER = load_sample("dispatcher").request
TIMELINE = next(spec for spec in PAGES if spec.path == "pages/timeline.py")


@pytest.mark.slow
def test_clicking_a_message_in_the_fate_chart_shows_its_detail(visit):
    visit.open("?sample=dispatcher")
    visit.go(TIMELINE.title)
    picker = visit.main.get_by_role("combobox", name="Message")
    first = picker.input_value()
    engine = result(DISPATCHER)
    # a message whose text no other message has, and that the picker does not show yet
    unique = [
        t for t in engine.messages
        if [m["content"] for m in DISPATCHER["messages"]].count(t.message.content) == 1
        and not first.startswith(f"#{t.index} ")
    ]  # fmt: skip
    target = unique[-1]
    visit.click_mark(visit.chart_with("original_chars"), "index", target.index)
    expect(picker).to_have_value(re.compile(rf"^#{target.index}\b"))
    expect(
        visit.main.get_by_test_id("stText").filter(has_text=target.message.content)
    ).to_have_count(1)
    visit.settle()
    detail = visit.main.get_by_test_id("stHtml").filter(has_text=f"Message #{target.index}")
    expect(detail).to_contain_text(target.fate.value)
    assert not visit.exceptions()


@pytest.mark.slow
def test_the_bar_height_control_shows_its_choices_whole(visit):
    visit.open("?sample=dispatcher")
    visit.go(TIMELINE.title)
    group = visit.main.get_by_test_id("stButtonGroup").filter(has_text="log")
    expect(group).to_have_count(1)
    # each choice's text whole and inside the column that holds the control (issue 40:
    # "characters, log scal" was cut off at the column's edge)
    outside = group.evaluate(
        """g => {
            const column = g.closest('[data-testid="stColumn"]') || g.parentElement;
            const edge = column.getBoundingClientRect();
            return [...g.querySelectorAll('button')].flatMap(b => [b, ...b.querySelectorAll('*')])
                .filter(e => e.getBoundingClientRect().right > edge.right + 1
                             || e.scrollWidth > e.clientWidth + 1)
                .map(e => e.textContent);
        }"""
    )
    assert outside == []
    assert not visit.exceptions()
