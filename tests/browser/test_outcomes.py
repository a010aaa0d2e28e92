"""Overview's "What the next k messages need" as a person sees it: the engine's needed-later
recall beside keep-last and random, and the role balance chart drawn with a bar per role and
side; a link's k and a pasted probe file reaching the Budget sweep's probe recall curve."""

import json
import re
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import expect

from compactor import run, validate
from compactor.analyses.outcomes import (
    continuation_check,
    parse_probes,
    probe_outcomes,
    role_balance,
)
from compactor.samples import load_sample
from explorer.frames.outcomes import baseline_label, percent, signed_points

SAMPLE = "pins-and-ids"


def test_the_overview_needs_section_shows_the_engines_figures_and_its_chart(visit):
    visit.open(f"?sample={SAMPLE}")
    request = validate(load_sample(SAMPLE).request)
    check = continuation_check(request)
    section = visit.main.get_by_role("heading", name="What the next k messages need")
    section.scroll_into_view_if_needed()
    expect(visit.metric("Needed-later recall")).to_contain_text(percent(check.recall))
    # the sample pins messages and has a system prompt: the baselines keep them first, and say so
    keep_last = baseline_label(check)
    assert keep_last.startswith("keep-last, ") and keep_last.endswith("pinned + system kept")
    expect(visit.metric(keep_last.capitalize())).to_contain_text(percent(check.keep_last.recall))
    random = f"{baseline_label(check, 'random').capitalize()} (20 draws)"
    expect(visit.metric(random)).to_contain_text(percent(check.random.mean))
    expect(visit.metric(f"Lift over {keep_last}")).to_contain_text(signed_points(check.lift))
    visit.wait_for_mark("side", "output")
    bars = visit.rows_with("side")
    balance = role_balance(run(request))
    assert {(b["role"], b["side"]) for b in bars} == {
        (r.role, side) for r in balance.roles for side in ("input", "output")
    }
    assert not visit.exceptions()


def test_a_link_with_k_and_pasted_probes_draw_the_probe_curve_on_the_budget_sweep(visit):
    visit.open(f"?sample={SAMPLE}&k=3")
    request = validate(load_sample(SAMPLE).request)
    visit.go("Conversation")
    probes = {"probes": [{"id": "a", "evidence": [1, 2]}, {"id": "b", "evidence": [3]}]}
    visit.main.get_by_role("textbox", name="or paste one").fill(json.dumps(probes))
    visit.main.get_by_role("button", name="Use the pasted probes").click()
    visit.settle()
    expect(visit.main.get_by_text("2 probes kept for this conversation.")).to_be_visible()
    visit.go("Budget sweep")
    k_box = visit.main.get_by_role("spinbutton", name=re.compile(r"^k: the last k"))
    expect(k_box).to_have_value("3")
    assert parse_qs(urlsplit(visit.page.url).query)["k"] == ["3"]
    heading = visit.main.get_by_role("heading", name="Probe recall against the budget")
    heading.scroll_into_view_if_needed()
    visit.wait_for_mark("kind", "strict")
    found = probe_outcomes(parse_probes(probes, request.messages), run(request))
    sentence = f"this setting {percent(found.setting.strict)}, {baseline_label(found)}"
    expect(visit.main.get_by_text(sentence, exact=False)).to_be_visible()
    assert not visit.exceptions()
