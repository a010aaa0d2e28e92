"""Sensitivity: the threshold steps and the trim curve are the engine's sweeps of the request."""

import pytest

from compactor.analyses._sweeps import threshold_sweep, trim_sweep
from compactor.samples import load_samples
from explorer.frames import sweeps as sweep_frames
from explorer.frames import views
from harness.apptest import (
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
from tests.explorer.requests import rich_request

PAGE = "pages/sensitivity.py"


def reported(at):
    has_steps = any("span" in frame.value.columns for frame in at.dataframe)
    steps = table(at, "span") if has_steps else None
    curve = chart_rows(at, "cut_chars")
    return {
        "thresholds": None
        if steps is None
        else [
            (r.span, int(r.removed_messages), int(r.removed_chars), r.removed)
            for r in steps.itertuples()
        ],
        "empty": [i.value for i in at.info if i.value.startswith("No duplicates")],
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


def plural(count, word):
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def expected(result):
    thresholds = threshold_sweep(result)
    trims = trim_sweep(result)
    params = result.request.params
    curve = sweep_frames.trim_sweep_frame(trims, sweep_frames.trim_view_limit(trims))
    now, point = thresholds.current, trims.current
    trim_said = (
        f"At **{params.max_message_chars:,}** trim cuts **{plural(point.cut_chars, 'character')}**"
        f" from {plural(point.trimmed_messages, 'message')} ({point.sentence_cuts:,} at a sentence"
        f" end, {point.hard_cuts:,} hard), leaving {plural(point.after_trim_chars, 'character')} "
        "for drop."
    )
    nothing = all(s.removed_messages == 0 for s in thresholds.steps)
    if nothing:
        low, high = thresholds.steps[0].low, thresholds.steps[-1].high
        closest = sweep_frames.closest_pair_text(views.similarity_frame(result), low)
        return {
            "thresholds": None,
            "empty": [
                f"No duplicates at any duplicate_threshold from {low:g} to {high:g}: dedupe "
                f"removes nothing over the whole range, so there is no curve to draw. {closest}"
            ],
            "curve": [(int(r.max_message_chars), int(r.cut_chars)) for r in curve.itertuples()],
            "said": [trim_said],
            "marked": [float(params.max_message_chars)],
        }
    return {
        "thresholds": [
            (
                sweep_frames.threshold_span(s),
                s.removed_messages,
                s.removed_chars,
                views.name_list([f"#{i}" for i in s.removed]),
            )
            for s in thresholds.steps
        ],
        "empty": [],
        "curve": [(int(r.max_message_chars), int(r.cut_chars)) for r in curve.itertuples()],
        "said": [
            f"At **{params.duplicate_threshold:g}** dedupe removes "
            f"**{plural(now.removed_messages, 'message')}**, "
            f"{plural(now.removed_chars, 'character')}; the same holds for "
            f"{sweep_frames.threshold_span(now)}.",
            trim_said,
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


def test_a_history_without_duplicates_gets_a_sentence_instead_of_an_empty_chart():
    at = goto(start({"sample": "support-chat"}), PAGE)
    assert_clean(at)
    result = engine(at)
    assert all(s.removed_messages == 0 for s in threshold_sweep(result).steps)
    assert reported(at) == expected(result)
    shown = reported(at)
    assert shown["thresholds"] is None and len(shown["empty"]) == 1
    assert "#44 and #38, reaches 0.352." in shown["empty"][0]
    assert len(charts(at)) == 1  # only the trim curve
