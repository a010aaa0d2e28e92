"""Watched facts are anchors of kind watched wherever anchors are shown: the fate timeline's
detail, the Overview's stage sentence and the Budget sweep's curve, as the engine reports them."""

from compactor.analyses.anchors._report import anchor_report, message_anchors
from explorer.frames import sweeps as sweep_frames
from explorer.session.keys import PHRASES_KEY
from harness.apptest import assert_clean, engine, goto, on_page, table
from tests.explorer.requests import rich_request

PHRASE = "express fee"


def watching():
    at = on_page("pages/facts.py", rich_request())
    at.text_area(key=PHRASES_KEY).set_value(PHRASE).run()
    return at


def test_the_timeline_detail_lists_a_watched_phrase_as_an_anchor():
    at = goto(watching(), "pages/timeline.py")
    index = 11  # "Great, thank you. Refund the express fee, please."
    at.selectbox(key="timeline_message").set_value(index).run()
    assert_clean(at)
    frame = table(at, "anchor")
    report = anchor_report(engine(at), [PHRASE])
    assert list(zip(frame["kind"], frame["anchor"], strict=True)) == [
        (a.kind, a.text) for a in message_anchors(report, index)
    ]
    assert ("watched", PHRASE) in set(zip(frame["kind"], frame["anchor"], strict=True))


def test_the_overview_and_the_sweep_count_the_watched_anchor():
    at = goto(watching(), "pages/overview.py")
    assert_clean(at)
    report = anchor_report(engine(at), [PHRASE])
    caption = next(c.value for c in at.caption if c.value.startswith("Anchors (ids"))
    assert f"of {len(report.anchors):,} kept" in caption
    goto(at, "pages/sweeps.py")
    assert_clean(at)
    assert sweep_frames.retention_sentence(report) in [m.value for m in at.markdown]
