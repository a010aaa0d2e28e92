"""Counting in tokens, in a real browser: pick o200k_base in the sidebar, and the stage table,
the Output table and the link show o200k_base tokens, as bpe-openai counts them."""

import bpe_openai
import pytest
from playwright.sync_api import expect

from compactor.analyses._token_report import token_report
from compactor.analyses.anchors._report import anchor_report
from compactor.samples import load_sample
from explorer.frames import sweeps as sweep_frames
from tests.browser.expected import result

DISPATCHER = load_sample("dispatcher").request


def tokens(text):
    return len(bpe_openai.get_encoding("o200k_base").encode_ordinary(text))


@pytest.mark.slow
def test_picking_o200k_base_shows_token_columns(visit):
    visit.open("?sample=dispatcher")
    choice = visit.sidebar.get_by_role("combobox", name="Count in")
    expect(choice).to_have_value("characters")
    visit.pick(choice, "o200k_base")
    expect(choice).to_have_value("o200k_base")
    visit.page.wait_for_url("**tokens=o200k_base**")

    engine = result(DISPATCHER)
    header = "o200k_base tokens removed"
    rows = visit.static_rows(header)
    removed = sum(int(row[-2].replace(",", "")) for row in rows.values())
    tokens_in = sum(tokens(t.message.content) for t in engine.messages)
    tokens_out = sum(tokens(t.output) for t in engine.messages if t.survived)
    assert removed == tokens_in - tokens_out
    expect(visit.main).to_contain_text(f"are {tokens_in:,} o200k_base tokens")

    visit.go("Output")
    table = visit.main.get_by_test_id("stDataFrame").first
    expect(table).to_contain_text("o200k_base tokens out")
    first_out = next(t for t in engine.messages if t.survived)
    expect(visit.cell(table, f"{tokens(first_out.output):,}").first).to_be_attached()
    assert not visit.exceptions()


@pytest.mark.slow
def test_the_sweep_draws_the_anchor_curve_and_the_budget_in_tokens(visit):
    visit.open("?tokens=o200k_base&sample=support-chat")
    visit.go("Budget sweep")
    engine = result(load_sample("support-chat").request)
    report = anchor_report(engine)
    frame = sweep_frames.retention_frame(report, engine.totals.input)
    drawn = sorted(
        (row["budget"], row["anchors_kept"])
        for row in visit.rows_with("anchors_kept")
        if "anchor_share" in row and "measure" not in row  # the points, not the folded lines
    )
    assert drawn == [
        (int(r.budget), int(r.anchors_kept)) for r in frame[~frame["end"]].itertuples()
    ]
    expect(visit.main).to_contain_text(token_report(engine, "o200k_base").budget.sentence)
    expect(visit.main).to_contain_text(sweep_frames.retention_sentence(report))
    visit.screenshot("tokens-sweep")
    assert not visit.exceptions()
