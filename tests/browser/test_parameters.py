"""Moving the budget in the sidebar changes what the page shows, exactly as the engine says."""

import re

import pytest
from playwright.sync_api import expect

from compactor.engine import build_response
from compactor.samples import load_sample
from tests.browser.expected import engine_fates, result

DISPATCHER = load_sample("dispatcher").request  # loaded by name: its budget of 400


@pytest.mark.slow
def test_moving_the_budget_slider_changes_the_fate_of_a_message_on_screen(visit):
    visit.open("?sample=dispatcher")
    before = visit.fates()
    assert before == engine_fates(DISPATCHER)
    visit.click_budget_slider(0.3)  # well below the example's budget of 400
    expect(visit.page).not_to_have_url(re.compile(r"[?&]budget_chars=400(&|$)"))
    budget = visit.budget_in_url()
    visit.wait_for_budget(budget)
    expect(visit.budget_slider().get_by_test_id("stSliderThumbValue")).to_have_text(f"{budget:,}")
    after = visit.fates()
    assert after == engine_fates({**DISPATCHER, "budget_chars": budget})
    changed = {i for i in after if after[i] != before[i]}
    assert changed, f"no message changed its fate at budget {budget}"
    assert {after[i] for i in changed} == {"dropped"}
    assert not visit.exceptions()


@pytest.mark.slow
def test_typing_an_exact_budget_changes_the_fates_and_the_numbers(visit):
    budget = 250
    typed = {**DISPATCHER, "budget_chars": budget}
    assert engine_fates(typed) != engine_fates(DISPATCHER)
    visit.open("?sample=dispatcher")
    visit.type_budget(budget)
    visit.wait_for_budget(budget)
    assert visit.fates() == engine_fates(typed)
    output = build_response(result(typed))["budget"]["output_chars"]
    delta = visit.metric("Budget").get_by_test_id("stMetricDelta")
    expect(delta).to_have_text(f"{output:,} of {budget:,}")
    assert not visit.exceptions()
