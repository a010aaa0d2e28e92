"""Anchors: the page's table is the engine's anchor report under the sidebar's parameters, it
follows every parameter move, and watched phrases join it as anchors of kind watched."""

import pytest

from compactor.analyses.anchors._report import anchor_report, stage_losses
from explorer.frames.anchors import survives_label
from explorer.session.keys import PHRASES_KEY
from harness.apptest import (
    MOVES,
    assert_clean,
    engine,
    follows_the_engine,
    goto,
    on_page,
    table,
)
from tests.explorer.requests import rich_request

PAGE = "pages/anchors.py"


def reported(at):
    frame = table(at, "anchor")
    return sorted(zip(frame["kind"], frame["anchor"], frame["status"], strict=True))


def expected(result):
    return sorted((a.kind, a.text, a.status) for a in anchor_report(result).anchors)


@pytest.mark.parametrize("move", MOVES, ids=lambda m: f"{m[0]}={m[1]}")
def test_the_anchor_table_follows_the_engine(move):
    follows_the_engine(PAGE, rich_request(), reported, expected, move)


def test_the_budgets_and_stage_losses_are_the_reports():
    at = on_page(PAGE, rich_request())
    assert_clean(at)
    report = anchor_report(engine(at))
    frame = table(at, "anchor").set_index("anchor")
    for a in report.anchors:
        assert frame.loc[a.text, "survives_from"] == survives_label(a.survives_from_budget)
    sentence = "; ".join(loss.sentence for loss in stage_losses(report)) + "."
    assert sentence in [m.value for m in at.markdown]


def test_watched_phrases_are_anchors_of_kind_watched():
    at = on_page("pages/facts.py", rich_request())
    at.text_area(key=PHRASES_KEY).set_value("express fee").run()
    goto(at, PAGE)
    assert_clean(at)
    frame = table(at, "anchor")
    assert frame.loc[frame["anchor"] == "express fee", "kind"].tolist() == ["watched"]


def test_the_overview_says_what_each_stage_did_to_the_anchors():
    at = on_page("pages/overview.py", rich_request())
    report = anchor_report(engine(at))
    captions = [c.value for c in at.caption if c.value.startswith("Anchors (ids")]
    assert captions and f"{report.kept_count:,} of {len(report.anchors):,} kept" in captions[0]


def test_kept_and_lost_are_shares_without_an_arrow_or_a_colour():
    # A loss must not read as a gain: "↑ 27% retained" in green was shown for a 73% loss.
    at = on_page(PAGE, rich_request())
    assert_clean(at)
    report = anchor_report(engine(at))
    total, kept = len(report.anchors), report.kept_count
    assert 0 < kept < total  # the request loses some anchors and keeps some
    metrics = {m.label: m for m in at.metric}
    for label, count in (("Kept", kept), ("Lost", total - kept)):
        metric = metrics[label]
        assert metric.value == f"{count:,}"
        assert metric.proto.delta == f"{count / total:.0%} of the anchors"
        shown = metric.proto  # what the browser draws: the arrow's direction and the colour
        assert shown.MetricDirection.Name(shown.direction) == "NONE"
        assert shown.MetricColor.Name(shown.color) == "GRAY"
