"""Graded compactions: each compaction the imported log recorded, its summary as text and the
lineup table as the grading says; a conversation without one says so."""

import json

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


def test_files_read_again_after_a_compaction_are_shown_with_each_rows_reread_recall(tmp_path):
    from compactor.analyses import REREAD_JUDGE
    from tests.compactor.analyses.test_rereads import A, B, Log, numbered

    log = Log().read(B, result=numbered(1, 120, "beta")).read(A, result=numbered(1, 40))
    log.call("Bash", {"command": "pytest -q"}).compact("Fixing the bug. " * 40)
    log.read(A, offset=3, limit=5).read(B).call("Bash", {"command": "pytest -q"})
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in log.records), "utf-8")
    at, conversion = imported(path)
    assert_clean(at)
    (g,) = grade(engine(at).request, conversion.compactions).compactions
    assert len(g.rereads.rereads) == 2 and len(g.rereads.commands) == 1
    (lineup,) = [in_shares(f) for f in at.dataframe if "strategy" in f.value.columns]
    shown = lineup.drop(columns=["cost"])  # the price column has tests of its own
    pd.testing.assert_frame_equal(shown, graded_frames.lineup_frame(g), check_exact=False)
    assert lineup["strategy"].iloc[-1] == graded_frames.RANDOM_ROW
    assert lineup["rereads_held"].iloc[0] == f"{g.row(RECORDED).rereads.held} of 2"
    said = [c.value for c in at.caption if REREAD_JUDGE in c.value]
    assert said == [graded_frames.rereads_said(g)]
    assert "2 file reads of the history were read again" in said[0]
    files = table(at, "before_lines")
    assert files["file"].tolist() == [r.earlier.path for r in g.rereads.rereads] == [A, B]
    assert table(at, "what")["what"].tolist() == ["pytest -q"]
