"""Issue 18 in the browser: counts that agree, terms from import markup, every message explained,
and pinning where you look. Each test keeps its screenshot in artifacts/screenshots/."""

import json

import pytest
from playwright.sync_api import expect

from compactor import run, validate
from compactor.samples import load_sample
from tests.compactor.analyses.test_markup import tool_heavy
from tests.explorer.requests import rich_request


def test_the_stage_table_says_how_many_cuts_drop_removed_later(visit):
    request = load_sample("largest").request | {"budget_chars": 200_000}
    result = run(validate(request))
    cuts = len(result.trimming.cuts)
    later = sum(1 for c in result.trimming.cuts if result.messages[c.index].fate.value == "dropped")
    visit.open("?sample=largest&budget_chars=200000")
    rows = visit.static_rows("Result")
    outcome = f"{cuts:,} cut, of which {later:,} later dropped ({cuts - later:,} trimmed)"
    assert outcome in rows["3. trim"]
    visit.screenshot("explained-stage-outcomes")
    assert not visit.exceptions()


def paste(visit, request):
    visit.go("Conversation")
    visit.choose_mode("Paste")
    visit.paste_box.fill(json.dumps(request))
    visit.main.get_by_role("button", name="Load pasted conversation").click()
    # the run the click starts, not the page before it (settle alone can see the page idle
    # before that run begins, and a page switch then may go first)
    expect(visit.alert("Loaded: Pasted")).to_be_visible()
    visit.settle()


@pytest.mark.slow
def test_scores_show_the_terms_from_import_markup_and_the_scores_without_them(visit):
    visit.open()
    paste(visit, tool_heavy())
    visit.go("Scores")
    expect(visit.main.get_by_text("Terms from import markup", exact=True)).to_be_visible()
    visit.main.get_by_text("Show the scores without import markup").click()
    visit.settle()
    expect(visit.main.get_by_text("change place in the drop order without")).to_be_visible()
    expect(visit.main.get_by_test_id("stDataFrame")).to_have_count(3)  # scores, terms, without
    visit.screenshot("explained-markup-terms")
    assert not visit.exceptions()


@pytest.mark.slow
def test_duplicates_explain_the_first_message_of_each_role(visit):
    visit.open()
    paste(visit, rich_request())
    visit.go("Duplicates")
    reason = "first of its role: nothing earlier to compare with"
    table = visit.table_with(reason)
    expect(visit.cell(table, reason)).to_have_count(4)  # system, user, assistant, tool
    visit.screenshot("explained-first-of-role")
    assert not visit.exceptions()


@pytest.mark.slow
def test_a_message_is_pinned_from_its_detail_and_the_request_shows_it(visit):
    visit.open()
    paste(visit, rich_request())
    visit.go("Fate timeline")
    visit.main.get_by_role("button", name="Pin message #0").wait_for()
    picker = visit.main.get_by_test_id("stSelectbox")
    picker.click()
    visit.page.get_by_role("option").nth(2).click()
    visit.settle()
    visit.main.get_by_role("button", name="Pin message #2").click()
    visit.settle()
    expect(visit.main.get_by_role("button", name="Unpin message #2")).to_be_visible()
    expect(visit.main).to_contain_text("Protected: it is pinned (pin: true).")
    visit.sidebar.get_by_text("Current request as JSON").click()
    expect(visit.sidebar.get_by_test_id("stJson")).to_contain_text('"pin"')
    visit.screenshot("explained-pinned-from-detail")
    assert not visit.exceptions()


@pytest.mark.slow
def test_overview_keeps_the_first_user_message_in_one_click(visit):
    visit.open()
    paste(visit, rich_request())
    visit.go("Overview")
    button = visit.main.get_by_role("button", name="Keep the task (#1)")
    button.click()
    visit.settle()
    expect(button).to_have_count(0)
    visit.screenshot("explained-pin-the-task")
    assert not visit.exceptions()
