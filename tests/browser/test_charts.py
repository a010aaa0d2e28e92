"""Charts as a person reads and uses them, at 1600 x 1000 (issue 18, item 5): the waterfall's
numbers stand clear of the dashed budget line, every fate-timeline bar can be clicked (a
4-character tool result beside an 8,000-character one), and the two Budget sweep charts' x axes
line up. Each test leaves its screenshot in artifacts/screenshots/."""

import json
import re

import pytest
from playwright.sync_api import expect

from compactor.samples import load_sample
from explorer.charts.views import MIN_BAR_PX
from tests.browser import looks
from tests.browser.expected import result

DISPATCHER = load_sample("dispatcher").request
#: A coding agent's trace as it was demoed: a tool result of 4 characters ("done") beside a
#: tool output of 8,000, so that a linear axis made the short one a fraction of a pixel.
TOOL_TRACE = {
    "messages": [
        {"role": "system", "content": "You are a coding agent. Run the tests before you answer."},
        {"role": "user", "content": "Why does the invoice total differ by one cent?"},
        {"role": "assistant", "content": '[tool call bash id=call_1] {"cmd": "pytest -q"}'},
        {"role": "tool", "content": "".join(f"line {i:05d} ok\n" for i in range(572))[:8000]},
        {"role": "assistant", "content": '[tool call bash id=call_2] {"cmd": "git stash"}'},
        {"role": "tool", "content": "done"},
        {"role": "assistant", "content": "The VAT is rounded per line; summing first fixes it."},
    ],
    "budget_chars": 9000,
    "keep_last_n": 1,
    "keep_roles": ["system"],
}
SHORT = 5  # the index of the 4-character tool result


@pytest.fixture
def demo(chromium, app_server, request):
    with looks.demo_visit(chromium, app_server, request.node.name) as visit:
        yield visit


def labels_and_rule(visit, chart):
    texts = looks.marks(chart, "text")
    (rule,) = looks.marks(chart, "rule")
    return texts, rule


@pytest.mark.slow
def test_waterfall_numbers_stand_clear_of_the_budget_line(demo):
    """The dispatcher at its budget of 400: 371 characters out, just under the line, used to be
    struck through by it ("-371"), and so were the 0 of trim and drop."""
    demo.open("?sample=dispatcher")
    chart = demo.chart_with("kind")
    texts, rule = labels_and_rule(demo, chart)
    engine = result(DISPATCHER)
    totals = engine.totals
    assert [t["text"] for t in texts] == [
        f"{totals.input:,}",
        f"{totals.input - totals.after_dedupe:,}",
        f"{totals.after_dedupe - totals.after_trim:,}",
        f"{totals.after_trim - totals.output:,}",
        f"{totals.output:,}",
    ]
    assert rule["width"] > 100  # the budget line runs across the plot
    for text in texts:
        assert not looks.overlaps(text, rule, margin=2), text["text"]
        assert text["y"] + text["height"] <= rule["y"] + 1 or text["y"] >= rule["y"]
    output = next(t for t in texts if t["datum"].get("step") == "Output")
    assert output["y"] + output["height"] <= rule["y"]  # above the line, never under it


STEP_4_DRAWN = """() => [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')]
    .some(chart => chart.querySelectorAll('svg.marks g.mark-text.role-mark > *').length === 5)"""


@pytest.mark.slow
def test_walkthrough_totals_stand_clear_of_the_budget_line(demo):
    demo.open("?sample=dispatcher")
    demo.go("Walkthrough")
    demo.main.get_by_test_id("stButtonGroup").get_by_text("4 · Drop", exact=True).click()
    # the drop step's five totals, not step 1's two: settle() alone can see the page idle
    # before the click's run begins
    demo.page.wait_for_function(STEP_4_DRAWN)
    demo.settle()
    chart = demo.chart_with("phase")
    texts, rule = labels_and_rule(demo, chart)
    assert [t["text"] for t in texts] == ["466", "466", "371", "371", "371"]
    for text in texts:
        assert not looks.overlaps(text, rule, margin=2), text["text"]


LOG_AXIS_DRAWN = """() => [...document.querySelectorAll('[data-testid="stVegaLiteChart"] svg text')]
    .some(text => text.textContent === 'Characters (input, log scale)')"""


def load_trace(visit):
    visit.open()
    visit.go("Conversation")
    visit.choose_mode("Upload")
    visit.upload_input.set_input_files(
        files=[
            {
                "name": "agent-trace.json",
                "mimeType": "application/json",
                "buffer": json.dumps(TOOL_TRACE).encode(),
            }
        ]
    )
    expect(visit.alert("Loaded: Uploaded file")).to_be_visible()
    visit.settle()
    visit.go("Fate timeline")


def bars(visit):
    chart = visit.chart_with("original_chars")
    drawn = {b["datum"]["index"]: b for b in looks.marks(chart, "rect")}
    return chart, drawn


@pytest.mark.slow
def test_every_timeline_bar_can_be_clicked_and_its_tooltip_gives_the_length(demo):
    load_trace(demo)
    chart, drawn = bars(demo)
    lengths = [len(m["content"]) for m in TOOL_TRACE["messages"]]
    assert lengths[SHORT] == 4 and max(lengths) == 8000
    assert sorted(drawn) == list(range(len(lengths)))
    for index, bar in drawn.items():
        assert bar["height"] >= MIN_BAR_PX - 0.5, (index, bar["height"])
    assert drawn[3]["height"] > 20 * drawn[SHORT]["height"]  # long ones still look long
    tooltip = demo.hover_mark(chart, "index", SHORT)
    expect(tooltip.get_by_role("row", name="Characters in 4", exact=True)).to_be_visible()
    demo.page.mouse.move(0, 0)
    demo.click_mark(chart, "index", SHORT)
    picker = demo.main.get_by_role("combobox", name="Message")
    expect(picker).to_have_value(re.compile(rf"^#{SHORT}\b"))
    demo.settle()
    expect(demo.main.get_by_test_id("stText").filter(has_text="done")).to_have_count(1)
    assert not demo.exceptions()


@pytest.mark.slow
def test_on_a_log_scale_every_bar_is_clickable_too(demo):
    load_trace(demo)
    demo.main.get_by_test_id("stButtonGroup").get_by_text("log scale", exact=True).click()
    # the log chart's own axis title: settle() alone can see the page idle before the click's
    # run begins, and measure the linear chart
    demo.page.wait_for_function(LOG_AXIS_DRAWN)
    demo.settle()
    chart, drawn = bars(demo)
    assert min(b["height"] for b in drawn.values()) >= MIN_BAR_PX - 0.5
    # on a log axis the 4 characters are a visible step below the 55 of the system prompt
    assert drawn[SHORT]["height"] < drawn[0]["height"] < drawn[3]["height"]
    demo.click_mark(chart, "index", SHORT)
    expect(demo.main.get_by_role("combobox", name="Message")).to_have_value(
        re.compile(rf"^#{SHORT}\b")
    )
    demo.settle()
    assert not demo.exceptions()


@pytest.mark.slow
def test_the_two_budget_sweep_charts_x_axes_line_up(demo):
    demo.open("?sample=repeated-questions&budget_chars=1200")
    demo.go("Budget sweep")
    characters, messages = demo.charts()[:2]
    rules = [looks.marks(c, "rule")[0] for c in (characters, messages)]
    assert abs(rules[0]["x"] - rules[1]["x"]) <= 1, rules  # the current budget, one x
    points = [
        {p["datum"]["budget"]: p["x"] + p["width"] / 2 for p in looks.marks(c, "symbol")}
        for c in (characters, messages)
    ]
    assert points[0].keys() == points[1].keys() and len(points[0]) > 5
    for budget, x in points[0].items():
        assert abs(x - points[1][budget]) <= 1, (budget, x, points[1][budget])
