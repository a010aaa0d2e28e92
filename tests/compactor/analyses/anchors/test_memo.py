"""The remembered finder and the report's fast path are the plain definition (SPEC part C).

The finder remembers the last few conversations by their contents; a report under another
request over the same messages reads the remembered anchors and their columns. Here: every path
into :func:`anchor_report` (the finder's table, the remembered anchors handed back in, anchors
given as a plain list, watched phrases) gives what the definition gives, read by a plain loop per
anchor and occurrence from the result's traces and its budget sweep, under a sequence of
parameter changes over the same messages; the brute-force tests in test_anchors.py compact at
many budgets with the memo in place.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor import run, validate
from compactor.analyses._sweeps import budget_sweep
from compactor.analyses.anchors import _finder as anchor_finder
from compactor.analyses.anchors._memo import ContentsMemo
from compactor.analyses.anchors._report import (
    CUT_AWAY,
    KEPT,
    REMOVED,
    STAGES,
    anchor_report,
    find_anchors,
)
from compactor.engine._result import Fate
from tests.compactor.analyses.anchors.test_report import PIECES, REAL, anchor_requests

EXAMPLES = settings(max_examples=80, deadline=None)


def plain_fates(result, anchors):
    """``(text, kind, occurrences, kept, survives_from_budget, lost_at, status)`` per anchor,
    by the definition: an occurrence is left after a stage while its message is (not a
    duplicate; after trim, also long enough; after drop, also returned); an anchor is lost at
    the first stage after which none of its occurrences is left; it survives from the smallest
    budget that returns a message where an occurrence fits the returned prefix."""
    survival = {s.index: s for s in budget_sweep(result).survival}
    traces = result.messages

    def left_after(stage, index, end):
        trace = traces[index]
        if trace.fate is Fate.DUPLICATE:
            return False
        trimmed = trace.cut.chars if trace.cut is not None else trace.original_chars
        if stage != "dedupe" and end > trimmed:
            return False
        return stage != "drop" or trace.survived

    rows = []
    for a in anchors:
        left = {s: any(left_after(s, i, e) for i, _, e in a.occurrences) for s in STAGES}
        kept = left["drop"]
        lost_at = None if kept else next(s for s in STAGES if not left[s])
        budgets = [
            survival[i].survives_from_budget
            for i, _, e in a.occurrences
            if e <= survival[i].chars and survival[i].survives_from_budget is not None
        ]
        status = KEPT if kept else CUT_AWAY if lost_at == "trim" else REMOVED
        rows.append(
            (a.text, a.kind, a.occurrences, kept, min(budgets, default=None), lost_at, status)
        )
    return rows


def fates(report):
    return [
        (a.text, a.kind, a.occurrences, a.kept, a.survives_from_budget, a.lost_at, a.status)
        for a in report.anchors
    ]


def fresh_anchors(contents, watched=()):
    """The anchors found with nothing remembered."""
    anchor_finder.forget_found_anchors()
    return find_anchors(contents, watched)


changes = st.lists(
    st.fixed_dictionaries(
        {},
        optional={
            "budget_chars": st.integers(100, 400_000),
            "max_message_chars": st.integers(80, 400),
            "keep_last_n": st.integers(0, 3),
        },
    ),
    min_size=1,
    max_size=4,
)


@EXAMPLES
@given(anchor_requests(), changes, st.lists(st.sampled_from(PIECES[:30]), max_size=2))
def test_every_path_into_the_report_is_the_plain_definition(request, changed, watched):
    plain_anchors = fresh_anchors([m["content"] for m in request["messages"]])
    plain_watched = fresh_anchors([m["content"] for m in request["messages"]], watched)
    for change in changed:
        result = run(validate({**request, **change}))
        contents = result.request.contents
        expected = plain_fates(result, plain_anchors)
        by_table = anchor_report(result)
        remembered = anchor_report(result, anchors=find_anchors(contents))
        as_list = anchor_report(result, anchors=list(find_anchors(contents)))
        for report in (by_table, remembered, as_list):
            assert fates(report) == expected
        for array in ("_anchor", "_message", "_lost", "_from_budget"):
            for report in (remembered, as_list):
                assert np.array_equal(getattr(report, array), getattr(by_table, array))
        with_watched = anchor_report(result, watched)
        handed_in = anchor_report(result, watched, anchors=find_anchors(contents, watched))
        for report in (with_watched, handed_in):
            assert fates(report) == plain_fates(result, plain_watched)


@pytest.mark.parametrize("name", sorted(n for n in REAL if n != "largest"))
def test_the_plain_definition_on_real_conversations_under_several_requests(name):
    plain_anchors = fresh_anchors([m["content"] for m in REAL[name]["messages"]])
    for change in ({}, {"budget_chars": 300}, {"max_message_chars": 200, "keep_last_n": 2}):
        result = run(validate({**REAL[name], **change}))
        anchors = find_anchors(result.request.contents)
        assert anchors == plain_anchors
        expected = plain_fates(result, plain_anchors)
        assert fates(anchor_report(result)) == expected
        assert fates(anchor_report(result, anchors=anchors)) == expected


def test_the_finder_remembers_by_contents_and_what_it_returns_cannot_change():
    contents = ["Order DE-4471 ships Thursday 14:00.", "Refund of $1,250.00 for DE-4471"]
    anchor_finder.forget_found_anchors()
    first = find_anchors(contents)
    assert find_anchors(tuple(contents)) is first  # equal contents, another sequence
    copies = ["".join(list(c)) for c in contents]  # equal strings, other objects
    assert copies[0] is not contents[0] and find_anchors(copies) is first
    assert find_anchors(contents, ["Refund"]) != first  # the phrases are part of the key
    table = anchor_finder.find_anchor_table(contents)
    assert anchor_finder.find_anchor_table(list(contents)) is table
    for array in (table.counts, table.message, table.end):
        with pytest.raises(ValueError):
            array[0] = 7
    columns = anchor_finder.columns_of(first)
    with pytest.raises(ValueError):
        columns.end[0] = 0
    # Other conversations push it out; found again it is equal, a new tuple.
    for k in range(anchor_finder.MEMO_SIZE):
        find_anchors([f"ticket T-{k}0{k}"])
    again = find_anchors(contents)
    assert again == first and again is not first


def test_columns_of_anchors_not_from_the_finder_are_read_from_their_occurrences():
    contents = ["see DE-4471 and call_9f2a", "DE-4471 again"]
    anchors = list(find_anchors(contents))
    columns = anchor_finder.columns_of(anchors)
    assert columns.counts.tolist() == [len(a.occurrences) for a in anchors]
    assert columns.message.tolist() == [i for a in anchors for i, _, _ in a.occurrences]
    assert columns.end.tolist() == [e for a in anchors for _, _, e in a.occurrences]


def test_the_memo_drops_the_least_recently_used_first():
    memo: ContentsMemo[str] = ContentsMemo(2)
    calls = []

    def value(key):
        return lambda: calls.append(key) or key.upper()

    assert memo.get("a", value("a")) == "A"
    assert memo.get("b", value("b")) == "B"
    assert memo.get("a", value("a")) == "A"  # remembered; now the most recent
    assert memo.get("c", value("c")) == "C"  # pushes out b
    assert memo.values() == ["A", "C"]
    assert memo.get("b", value("b")) == "B"
    assert calls == ["a", "b", "c", "b"]
