"""The Corpus page in the real explorer: a small corpus uploaded from a file, a grid run with its
progress bar, the frontier chart drawing every setting of the engine's summary, and a worst
conversation opening in the Overview with that setting."""

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from compactor.evaluation import (
    RunOptions,
    evaluate,
    grid_points,
    load_corpus,
    read_corpus_text,
    summarise,
)
from explorer.corpus import charts, frames, widgets
from explorer.navigation import PAGES
from tests.corpora import tau_bench_corpus
from tests.paths import ROOT

CORPUS = next(spec for spec in PAGES if spec.path == "pages/corpus.py")
SHAREGPT = ROOT / "tests" / "fixtures" / "real" / "sharegpt_glaive_toolcall_4_records.json"


MAIN_SCROLL = "() => document.querySelector('[data-testid=\"stMain\"]').scrollTop"


def fill(visit, label, text):
    box = visit.main.get_by_test_id("stTextInput").filter(
        has=visit.page.get_by_text(label, exact=True)
    )
    box.locator("input").fill(text)


@pytest.mark.slow
def test_a_corpus_file_runs_and_a_worst_conversation_opens_in_a_view(visit):
    items = load_corpus(SHAREGPT)
    settings = grid_points({}, {"keep_last_n": [1, 4], "max_message_chars": [400]})
    rows = list(evaluate(items, settings, budgets=[300, 1500], options=RunOptions(workers=1)))
    summarised = summarise(rows)
    summaries = frames.settings_of(summarised)  # the baselines are reference points

    visit.open()
    visit.go(CORPUS.title)
    visit.main.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(
        files=[
            {"name": SHAREGPT.name, "mimeType": "application/json", "buffer": SHAREGPT.read_bytes()}
        ]
    )
    expect(visit.main.get_by_text(f"Corpus: {SHAREGPT.name}, 4 conversations.")).to_be_visible()
    visit.settle()
    fill(visit, "keep_last_n", "1,4")
    fill(visit, "keep_roles", "system")
    fill(visit, "duplicate_threshold", "0.9")
    fill(visit, "max_message_chars", "400")
    visit.main.get_by_test_id("stRadio").get_by_text(widgets.LISTED).click()
    fill(visit, "budget_chars (when listed)", "300,1500")
    visit.main.get_by_role("button", name=widgets.RUN_BUTTON, exact=True).click()
    expect(visit.main.get_by_test_id("stProgress")).to_contain_text("4 conversations in")
    visit.settle()
    assert not visit.exceptions()

    # the settings' points (the baselines' grey reference points have no frontier place),
    # each budget's frontier named by its settings
    drawn = [r for r in visit.rows_with("chars_per_conversation") if "place" in r]
    assert {r["setting"] for r in drawn} == {frames.setting_label(s) for s in summaries}
    summary = frames.summary_frame(summarised)  # a point keep-last dominates is inside
    for s in summary.itertuples():
        point = next(r for r in drawn if r["setting"] == s.setting)
        assert point["retention"] == s.anchors_kept / s.anchors
        on = "on the frontier" if s.frontier_at_budget else "inside the frontier"
        assert point["place"] == on
    texts = (
        visit.chart_with("chars_per_conversation")
        .locator("g.mark-text.role-mark text")
        .all_text_contents()
    )
    # a handful of labels (issue 39): the chosen setting's, then frontier points'
    named = [text.removeprefix("current: ") for text in texts]
    assert 0 < len(named) <= charts.MAX_LABELS
    assert set(named) <= set(summary["point"])

    visit.screenshot("corpus_page_results")
    # the setting shown first is the first on the frontier; its worst conversation opens
    chosen = next(s for s in summaries if s["frontier"])
    worst = frames.worst_frame(frames.rows_frame(frames.setting_rows(rows, chosen)))
    first = worst["conversation"][0]
    item = next(i for i in items if frames.conversation_label(i.conversation) == first)
    # the first list is the worst by anchors lost; the one by needed-later recall follows
    button = visit.main.get_by_role("button", name="Open with this setting").first
    button.scroll_into_view_if_needed()
    assert visit.page.evaluate(MAIN_SCROLL) > 0  # far down the Corpus page
    button.click()
    expect(visit.heading()).to_have_text("Overview")
    visit.settle()
    assert visit.page.evaluate(MAIN_SCROLL) == 0  # the view opens at its top
    messages = item.request["messages"]
    chars = sum(len(m["content"]) for m in messages)
    expect(visit.sidebar).to_contain_text(f"{len(messages):,} messages, {chars:,} characters")
    expect(visit.page).to_have_url(re.compile(r"[?&]c=[0-9a-f]{24}(&|$)"))
    query = {k: v[-1] for k, v in parse_qs(urlsplit(visit.page.url).query).items()}
    assert int(query["budget_chars"]) == chosen["budget_chars"]
    assert int(query["keep_last_n"]) == chosen["keep_last_n"]
    assert int(query["max_message_chars"]) == chosen["max_message_chars"]
    expect(visit.metric("Characters out")).to_contain_text(f"{worst['output_chars'][0]:,}")
    assert not visit.exceptions() and not visit.errors


def upload_and_run(visit, data, grid, budgets):
    visit.open()
    visit.go(CORPUS.title)
    visit.main.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(
        files=[{"name": "tau.json", "mimeType": "application/json", "buffer": data}]
    )
    visit.settle()
    for name, text in grid.items():
        fill(visit, name, text)
    visit.main.get_by_test_id("stRadio").get_by_text(widgets.LISTED).click()
    fill(visit, "budget_chars (when listed)", budgets)
    visit.main.get_by_role("button", name=widgets.RUN_BUTTON, exact=True).click()
    expect(visit.main.get_by_test_id("stProgress")).to_contain_text("conversations in")
    visit.settle()


@pytest.mark.slow
def test_the_worst_picker_shows_the_label_of_the_setting_chosen_not_an_earlier_one(visit):
    # issue 26: after another setting was chosen, the picker still said the first setting's
    # "budget missed by ..." while the table beside it said the new one's
    data = tau_bench_corpus(30, long_record=None)
    grid = {"keep_last_n": "2,5", "keep_roles": "system", "duplicate_threshold": "0.9"}
    upload_and_run(visit, data, {**grid, "max_message_chars": "400"}, "3000,7000")
    items = read_corpus_text(data).items
    settings = grid_points({}, {"keep_last_n": [2, 5], "max_message_chars": [400]})
    rows = list(evaluate(items, settings, [3000, 7000], RunOptions(workers=1)))
    for summary in frames.settings_of(summarise(rows))[::-1]:
        label = frames.setting_label(summary)
        visit.pick(visit.main.get_by_role("combobox", name="Setting", exact=True), label)
        worst = frames.worst_frame(frames.rows_frame(frames.setting_rows(rows, summary)))
        said = f"{worst['conversation'][0]}: {worst['problems'][0]}"
        picker = visit.main.get_by_role("combobox", name="Conversation").first
        expect(picker).to_have_value(said)
    assert not visit.exceptions()
