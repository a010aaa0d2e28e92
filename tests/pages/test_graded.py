"""Graded compactions: each compaction the imported log recorded, its summary as text and the
lineup table as the grading says; a conversation without one says so."""

import pandas as pd

from compactor.analyses import RECORDED, grade
from compactor.analyses.pricing import graded_costs, load_prices
from compactor.formats import convert_text
from explorer.frames.imports import finish
from explorer.graded import frames as graded_frames
from explorer.session import state
from explorer.widgets.pricing import DEFAULT_MODEL
from harness.apptest import assert_clean, engine, goto, in_shares, page_text, start, table
from tests.paths import ROOT

PAGE = "pages/graded.py"
CLAUDE = ROOT / "tests" / "fixtures" / "compactions" / "claude_code_two_compactions.jsonl"


def imported(path):
    at = start()
    conversion = convert_text(path.read_bytes())
    conv, _ = finish(conversion, fallback={}, label="Imported log", source="uploaded")
    at.session_state[state.PENDING_KEY] = (conv, None)
    return goto(at.run(), PAGE), conversion


def test_each_recorded_compaction_shows_its_summary_and_the_lineup_as_graded():
    at, conversion = imported(CLAUDE)
    assert_clean(at)
    result = engine(at)
    graded = grade(result.request, conversion.compactions)
    shown = page_text(at)
    for c in conversion.compactions:
        assert c.summary in [t.value for t in at.text]
    titles = [s.value for s in at.subheader if s.value.startswith("Compaction ")]
    assert titles == [graded_frames.title(g) for g in graded.compactions]
    assert len([e for e in at.expander if e.label.startswith("History before it")]) == 2
    frames = [in_shares(f) for f in at.dataframe if "strategy" in f.value.columns]
    assert len(frames) == 2
    for frame, g in zip(frames, graded.compactions, strict=True):
        # priced at the page's first model (tests/pages/test_graded_cost.py checks the prices)
        costs = graded_costs(g, load_prices().get(DEFAULT_MODEL))
        pd.testing.assert_frame_equal(
            frame, graded_frames.lineup_frame(g, costs), check_exact=False
        )
        recorded = frame[frame["recorded"]].iloc[0]
        assert recorded["chars"] == len(g.compaction.summary)
        assert (
            recorded["needs_met"]
            == f"{g.row(RECORDED).recall.met} of {g.row(RECORDED).recall.needs}"
        )
    assert "no recorded compaction" not in shown
    assert table(at, "content")["index"].tolist() == list(range(conversion.compactions[0].boundary))


def test_a_conversation_without_a_recorded_compaction_says_so():
    at = goto(start(), PAGE)
    assert_clean(at)
    assert "has no recorded compaction" in page_text(at)
    assert not [f for f in at.dataframe if "strategy" in f.value.columns]
