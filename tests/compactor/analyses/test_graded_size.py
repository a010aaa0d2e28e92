"""Graded compactions at the summary's size (issue 36, item 1): a strategy that returned more
than the summary's characters and the stated tolerance is flagged with its excess and never
counted among those that "kept more"."""

from compactor import validate
from compactor.analyses import RECORDED, SIZE_TOLERANCE, grade
from compactor.formats import convert_text
from explorer.graded import frames as graded_frames
from tests.paths import ROOT

LOG = ROOT / "tests" / "fixtures" / "compactions" / "claude_code_two_compactions.jsonl"


def graded():
    conversion = convert_text(LOG.read_text("utf-8"))
    return grade(validate(conversion.request, limits="auto"), conversion.compactions).compactions


def test_each_row_states_its_size_against_the_summary_and_only_those_at_size_are_compared():
    seen_over = 0
    for g in graded():
        if not g.valid:
            continue
        limit = g.budget_chars + int(g.budget_chars * SIZE_TOLERANCE)
        assert g.size_limit == limit
        frame = graded_frames.lineup_frame(g).set_index("strategy")
        shown = g.to_dict()["rows"]
        ran = [r for r in g.rows if r.key != RECORDED and r.available and r.recall is not None]
        for row, said in zip(g.rows, shown, strict=True):
            if not row.available:
                continue
            over = max(0, row.output_chars - limit)
            assert said["over_size_chars"] == over and said["at_size"] == (over == 0)
            assert said["budget_met"] == (row.output_chars <= g.budget_chars)
            if row.key != RECORDED:
                text = frame.loc[row.name, "size"]
                assert text == (
                    "at its size" if not over else f"over its size by {over:,} characters"
                )
        recorded = g.row(RECORDED).recall
        at_size = [r for r in ran if r.output_chars <= limit]
        seen_over += len(ran) - len(at_size)
        if recorded is not None and recorded.recall is not None:
            better = sum((r.recall.recall or 0) > recorded.recall for r in at_size)
            verdict = graded_frames.verdict(g)
            assert f"{better} of {len(at_size)} strategies at its size" in verdict
            if len(ran) > len(at_size):
                assert "returned more and" in verdict
    assert seen_over  # the clearing strategies return what they do not clear: over its size
