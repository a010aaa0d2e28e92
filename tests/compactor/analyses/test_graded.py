"""Recorded compactions graded: every figure equals the plain computation (compact the history
with ``compactor.compact`` at the summary's size, look for each source in what it returned; for
the summary, look for the anchor's text in it)."""

import pytest

from compactor import validate
from compactor.analyses import RECORDED, grade
from compactor.analyses.anchors import find_anchors
from compactor.analyses.outcomes import find_needs, judge_text
from compactor.formats import RecordedCompaction, convert_text
from compactor.samples import load_samples
from compactor.strategies import KEEP_LAST, MEMORY_COMPACT
from tests.compactor.analyses.outcomes.brute import (
    kept_source,
    plain_keep_last,
    plain_needs,
    returned_by_compact,
    whole,
)
from tests.paths import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "compactions"
LOGS = ["claude_code_two_compactions.jsonl", "codex_compacted.jsonl"]


def plain_grade(request, compaction, end, previous=None):
    """``{key: (judged, met, anchors kept)}`` for the summary, memory-compact and keep-last.

    The history is what the tool had: from the start, or ``previous``'s summary (a user
    message) and the messages from its boundary on."""
    summary = compaction.summary
    budget = min(2_000_000, max(100, len(summary)))
    start = previous.boundary if previous else 0
    lead = [{"role": "user", "content": previous.summary}] if previous and previous.summary else []
    messages = lead + request["messages"][start:end]
    b = len(lead) + compaction.boundary - start
    contents = [m["content"] for m in messages]
    roles = [m["role"] for m in messages]
    needs = [n for n in plain_needs(contents, roles) if n[0] >= b]
    past = {**request, "messages": messages[:b], "budget_chars": budget}
    anchors = find_anchors(contents[:b])
    lengths = [len(c) for c in contents[:b]]
    ways = {
        MEMORY_COMPACT: returned_by_compact(past),
        KEEP_LAST: whole(contents, plain_keep_last(lengths, budget)),
    }
    out = {}
    for key, returned in ways.items():
        judged = [n for n in needs if any(s[0] < b for s in n[3])]
        met = [
            n for n in judged if any(kept_source(returned, contents, s) for s in n[3] if s[0] < b)
        ]
        kept = [
            a for a in anchors if any(kept_source(returned, contents, o) for o in a.occurrences)
        ]
        out[key] = (len(judged), len(met), len(kept))
    judged = [n for n in needs if any(s[0] < b for s in n[3])]
    met = [n for n in judged if n[1] in summary]
    out[RECORDED] = (len(judged), len(met), sum(a.text in summary for a in anchors))
    return out


def figures(graded_compaction):
    return {
        r.key: (r.recall.needs, r.recall.met, r.anchors_kept)
        for r in graded_compaction.rows
        if r.key in (RECORDED, MEMORY_COMPACT, KEEP_LAST)
    }


@pytest.mark.parametrize("name", LOGS)
def test_each_recorded_compaction_is_graded_as_the_plain_loop_says(name):
    conversion = convert_text((FIXTURES / name).read_bytes())
    request = conversion.request
    graded = grade(validate(request), conversion.compactions)
    assert len(graded.compactions) == len(conversion.compactions) > 0
    n = len(request["messages"])
    for k, g in enumerate(graded.compactions):
        c = conversion.compactions[k]
        end = conversion.compactions[k + 1].boundary if k + 1 < len(conversion.compactions) else n
        previous = conversion.compactions[k - 1] if k else None
        start = previous.boundary if previous else 0
        assert g.valid
        assert (g.past_messages, g.future_messages) == (
            (k > 0) + c.boundary - start,
            end - c.boundary,
        )
        assert g.budget_chars == len(c.summary)
        assert g.row(RECORDED).output_chars == len(c.summary)
        assert figures(g) == plain_grade(request, c, end, previous)
        assert g.rows[0].key == RECORDED


@pytest.mark.parametrize("sample", load_samples()[:4], ids=lambda s: s.slug)
@pytest.mark.parametrize("cut", [0.4, 0.7])
def test_a_summary_made_of_message_text_is_graded_as_the_plain_loop_says(sample, cut):
    # a stand-in summary: the history's second half pasted, so some anchors occur and some not
    request = sample.request
    n = len(request["messages"])
    b = max(2, int(n * cut))
    contents = [m["content"] for m in request["messages"]]
    summary = " ".join(contents[b // 2 : b])[:3000] or "nothing kept at all, none of it"
    compaction = RecordedCompaction(b, summary.ljust(100, "."))
    (g,) = grade(validate(request), [compaction]).compactions
    assert figures(g) == plain_grade(request, compaction, n)


def test_judge_text_meets_a_need_exactly_when_its_anchor_is_in_the_text():
    contents = [
        "Order DE-4471 ships from src/app/main.py at 03:10.",
        "Total 139 USD.",
        "DE-4471 and 139 USD again, and 03:10.",
        "src/app/main.py at 03:10",
    ]
    roles = ["user", "assistant", "user", "assistant"]
    needs = find_needs(contents, roles)
    for text in ("", "DE-4471", "de-4471 139 USD", "03:10 src/app/main.py DE-4471 139 USD"):
        for past in (1, 2, 3):
            recall = judge_text(needs, past, text)
            plain = [n for n in plain_needs(contents, roles) if n[0] >= past]
            judged = [n for n in plain if any(s[0] < past for s in n[3])]
            met = [n for n in judged if n[1] in text]
            assert (recall.needs, recall.met) == (len(judged), len(met))
            assert {(u.user, u.anchor) for u in recall.unmet} == {
                (n[0], n[1]) for n in judged if n not in met
            }


def test_a_compaction_without_a_summary_or_history_has_problems_and_no_figure():
    request = validate(load_samples()[0].request)
    no_summary, after_it = grade(
        request, [RecordedCompaction(3, "", source="line 9"), RecordedCompaction(6, "x" * 150)]
    ).compactions
    assert not no_summary.valid and no_summary.rows == ()
    assert no_summary.problems[0].path == "line 9"
    assert after_it.valid and after_it.past_messages == 3  # messages 3..5, no summary before
    (short,) = grade(request, [RecordedCompaction(1, "y" * 120)]).compactions
    assert not short.valid
    assert "not a request" in short.problems[0].message
    assert short.to_dict()["valid"] is False


def test_no_recorded_compaction_grades_nothing():
    request = validate(load_samples()[0].request)
    assert grade(request, []).to_dict() == {
        "judge": "needed-later recall (anchors, the product's own notion of a fact)",
        "recorded_compactions": 0,
        "compactions": [],
    }
