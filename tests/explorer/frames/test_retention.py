"""The Budget sweep's anchors curve, checked against brute force: compact at the budgets the
curve shows (each step's first and last budget) and count the anchors the run keeps."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor import run, validate
from compactor.analyses.anchors._report import anchor_report
from compactor.samples import load_samples
from explorer.frames import sweeps as sweep_frames
from tests.explorer.requests import rich_request
from tests.generate import requests


def rerun(result, budget):
    request = replace(result.request, params=replace(result.request.params, budget_chars=budget))
    return run(request, analysis=result.analysis)


def assert_the_curve_is_compact_at_its_budgets(result):
    report = anchor_report(result)
    frame = sweep_frames.retention_frame(report, result.totals.input)
    assert frame["budget"].is_monotonic_increasing and frame["end"].tolist()[:-1] == [False] * (
        len(frame) - 1
    )
    limit = int(frame["budget"].iloc[-1])
    for row in frame[~frame["end"]].itertuples():
        for budget in {row.budget, min(row.to_budget, limit)}:
            at = rerun(result, int(budget))
            assert anchor_report(at).kept_count == row.anchors_kept, budget
            assert at.totals.output == row.output_chars, budget
            assert row.char_share == pytest.approx(at.totals.output / result.totals.input)
        assert row.anchors == len(report.anchors)
        assert row.anchor_share == pytest.approx(
            row.anchors_kept / row.anchors if row.anchors else 1.0
        )


def test_the_rich_conversation_s_curve():
    result = run(validate(rich_request()))
    assert len(anchor_report(result).anchors) > 3
    assert_the_curve_is_compact_at_its_budgets(result)


@pytest.mark.parametrize("sample", load_samples()[:4], ids=lambda s: s.slug)
def test_each_sample_s_curve(sample):
    assert_the_curve_is_compact_at_its_budgets(run(validate(sample.request)))


@settings(max_examples=25, deadline=None)
@given(requests())
def test_random_conversations_curves(request):
    assert_the_curve_is_compact_at_its_budgets(run(validate(request)))


@settings(max_examples=25, deadline=None)
@given(requests(), st.integers(100, 6000))
def test_the_sentence_counts_the_current_budget(request, budget):
    result = run(validate({**request, "budget_chars": budget}))
    report = anchor_report(result)
    sentence = sweep_frames.retention_sentence(report)
    kept = sum(
        any(result.messages[i].survived and e <= len(result.messages[i].output) for i, _, e in occ)
        for occ in (a.occurrences for a in report.anchors)
    )
    assert sentence.startswith(
        f"At the current budget of {budget:,}, {kept:,} of {len(report.anchors):,} anchors"
    )
