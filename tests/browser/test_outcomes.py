"""Overview's "What the next k messages need" as a person sees it: the engine's needed-later
recall beside keep-last and random, and the role balance chart drawn with a bar per role and
side."""

from playwright.sync_api import expect

from compactor import run, validate
from compactor.analyses.outcomes import continuation_check, role_balance
from compactor.samples import load_sample
from explorer.frames.outcomes import percent, signed_points

SAMPLE = "pins-and-ids"


def test_the_overview_needs_section_shows_the_engines_figures_and_its_chart(visit):
    visit.open(f"?sample={SAMPLE}")
    request = validate(load_sample(SAMPLE).request)
    check = continuation_check(request)
    section = visit.main.get_by_role("heading", name="What the next k messages need")
    section.scroll_into_view_if_needed()
    expect(visit.metric("Needed-later recall")).to_contain_text(percent(check.recall))
    expect(visit.metric("Keep-last")).to_contain_text(percent(check.keep_last.recall))
    expect(visit.metric("Random (20 draws)")).to_contain_text(percent(check.random.mean))
    expect(visit.metric("Lift over keep-last")).to_contain_text(signed_points(check.lift))
    visit.wait_for_mark("side", "output")
    bars = visit.rows_with("side")
    balance = role_balance(run(request))
    assert {(b["role"], b["side"]) for b in bars} == {
        (r.role, side) for r in balance.roles for side in ("input", "output")
    }
    assert not visit.exceptions()
