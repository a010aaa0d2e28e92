"""Graded compactions at the summary's size (issue 36, item 1): a strategy that returned more
than the summary's characters and the stated tolerance is flagged with its excess and never
counted among those that "kept more"."""

import pandas as pd

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


def test_a_strategy_over_its_size_is_set_beside_keep_last_and_random_at_its_own_size():
    """Issue 36 items 1 and 4: the over-size figure is compared at its own size (keep-last
    and random there, by their plain definition on the history), and anchor-keep's figure
    carries the note that its selection resembles the judge's."""
    from tests.compactor.analyses.outcomes.brute import (
        plain_keep_last,
        plain_needs,
        plain_protected,
        plain_protection,
    )

    conversion = convert_text(LOG.read_text("utf-8"))
    request = validate(conversion.request, limits="auto")
    checked = plain_checked = 0
    for g in graded():
        if not g.valid:
            continue
        frame = graded_frames.lineup_frame(g).set_index("strategy")
        bare = graded_frames.lineup_frame(g, form="bare").set_index("strategy")
        rows = {r["key"]: r for r in g.to_dict()["rows"]}
        for row in g.rows:
            if row.key == RECORDED or not row.available:
                continue
            said = rows[row.key]
            if row.key == "anchor-keep":
                assert "resembles the judge's notion" in frame.loc[row.name, "note"]
                assert "salient terms ~ anchors" in said["judge_note"]
            if not g.over_size(row):
                assert "at_own_size" not in said
                assert frame.loc[row.name, "keep_last_at_size"] is pd.NA
                continue
            own = said["at_own_size"]
            assert own["budget_chars"] == row.output_chars
            assert frame.loc[row.name, "keep_last_at_size"] == own["protected"]["keep_last"]
            assert bare.loc[row.name, "keep_last_at_size"] == own["bare"]["keep_last"]
            checked += 1
        # keep-last at one over-size strategy's size, by its plain definition on the history
        over = [r for r in g.rows if r.key != RECORDED and r.available and g.over_size(r)]
        if not over:
            continue
        budget = min(over[0].output_chars, 2_000_000)
        start = g.compaction.boundary - (g.past_messages - (1 if g.number else 0))
        history = [
            *([{"role": "user", "content": graded_prev(conversion, g)}] if g.number else []),
            *(m.to_dict() for m in request.messages[start : g.compaction.boundary]),
        ]
        end = g.compaction.boundary + g.future_messages
        future = [m.to_dict() for m in request.messages[g.compaction.boundary : end]]
        contents = [m["content"] for m in history + future]
        roles = [m["role"] for m in history + future]
        lengths = [len(m["content"]) for m in history]
        protection = plain_protection({"messages": history, **request.params.to_dict()})
        needs = [n for n in plain_needs(contents, roles) if n[0] >= len(history)]
        for rule_kept, form in (
            (plain_protected(plain_keep_last, lengths, budget, protection), "protected"),
            (plain_keep_last(lengths, budget), "bare"),
        ):
            judged = [n for n in needs if any(o[0] < len(history) for o in n[3])]
            met = [
                n for n in judged if any(o[0] in rule_kept and o[0] < len(history) for o in n[3])
            ]
            expected = len(met) / len(judged) if judged else None
            assert rows[over[0].key]["at_own_size"][form]["keep_last"] == expected, form
        plain_checked += 1
    assert checked and plain_checked


def graded_prev(conversion, g):
    return conversion.compactions[g.number - 1].summary
