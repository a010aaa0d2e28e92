"""Sensitivity: the threshold steps and the trim curve are compactor.sweeps on the same request."""

import pytest

from compactor.samples import load_samples
from compactor.sweeps import threshold_sweep, trim_sweep
from explorer import tuning, views
from tests.explorer.requests import rich_request
from tests.pages.apptest import (
    MOVES,
    assert_clean,
    chart_rows,
    charts,
    engine,
    follows_the_engine,
    goto,
    start,
    table,
)

PAGE = "pages/sensitivity.py"


def reported(at):
    steps = table(at, "span")
    curve = chart_rows(at, "cut_chars")
    return {
        "thresholds": [
            (r.span, int(r.removed_messages), int(r.removed_chars), r.removed)
            for r in steps.itertuples()
        ],
        "curve": [(int(r.max_message_chars), int(r.cut_chars)) for r in curve.itertuples()],
        "said": [m.value for m in at.markdown if m.value.startswith("At ")],
        "marked": sorted(
            float(v)
            for _, data in charts(at)
            for f in data.values()
            if "label" in f.columns and "value" in f.columns
            for v in f["value"]
        ),
    }


def expected(result):
    thresholds = threshold_sweep(result)
    trims = trim_sweep(result)
    params = result.request.params
    curve = tuning.trim_frame(trims, tuning.trim_view_limit(trims))
    now, point = thresholds.current, trims.current
    return {
        "thresholds": [
            (
                tuning.threshold_span(s),
                s.removed_messages,
                s.removed_chars,
                views.name_list([f"#{i}" for i in s.removed]),
            )
            for s in thresholds.steps
        ],
        "curve": [(int(r.max_message_chars), int(r.cut_chars)) for r in curve.itertuples()],
        "said": [
            f"At **{params.duplicate_threshold:g}** dedupe removes **{now.removed_messages:,}** "
            f"message(s), {now.removed_chars:,} characters; the same holds for "
            f"{tuning.threshold_span(now)}.",
            f"At **{params.max_message_chars:,}** trim cuts **{point.cut_chars:,}** characters "
            f"from {point.trimmed_messages:,} message(s) ({point.sentence_cuts:,} at a sentence "
            f"end, {point.hard_cuts:,} hard), leaving {point.after_trim_chars:,} characters for "
            "drop.",
        ],
        "marked": sorted([float(params.duplicate_threshold), float(params.max_message_chars)]),
    }


@pytest.mark.parametrize("move", MOVES, ids=lambda m: f"{m[0]}={m[1]}")
def test_the_sensitivity_sweeps_follow_the_engine(move):
    follows_the_engine(PAGE, rich_request(), reported, expected, move)


@pytest.mark.parametrize("sample", load_samples(), ids=lambda s: s.slug)
def test_every_sample_gets_both_sweeps(sample):
    at = goto(start({"sample": sample.slug}), PAGE)
    assert_clean(at)
    assert reported(at) == expected(engine(at))
