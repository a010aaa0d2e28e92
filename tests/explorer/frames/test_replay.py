"""The Replay page's frames are the engine's replay, turn by turn and loss by loss."""

import pytest

from compactor import validate
from compactor.analyses.anchors.report import find_anchors
from compactor.analyses.replay.fates import cache_reuse, recorded_of
from compactor.analyses.replay.loop import Fact
from compactor.analyses.replay.strategies import KeepLast, MemoryCompact
from compactor.samples import load_sample
from explorer.frames import replay as frames
from explorer.session.replays import KEEP_LAST, MEMORY_ALWAYS, ReplayRun, replay_setting
from tests.explorer.requests import rich_request


def run_of(request, setting=MEMORY_ALWAYS):
    typed = validate(request)
    facts = tuple(Fact(a.text, a.occurrences) for a in find_anchors(typed.contents))
    strategy = MemoryCompact(typed.params) if setting == MEMORY_ALWAYS else KeepLast(600)
    return replay_setting(setting, typed, strategy, "always", facts)


@pytest.fixture(scope="module")
def runs():
    request = load_sample("support-chat").request
    return [run_of(request), run_of(request, KEEP_LAST)]


def test_the_turns_frame_is_each_settings_turns(runs):
    frame = frames.turns_frame(runs)
    assert len(frame) == sum(len(r.replay.turns) for r in runs)
    for run in runs:
        rows = frame[frame["setting"] == run.setting]
        assert rows.drop(columns=["setting", "stable_share"]).to_dict("records") == [
            t.to_dict() for t in run.replay.turns
        ]
        assert list(rows["stable_share"]) == [
            t.stable_prefix_chars / t.chars_out for t in run.replay.turns
        ]


def test_the_losses_frame_and_its_points_are_the_replays_losses(runs):
    lost = frames.losses_frame(runs)
    expected = [(r.setting, x.turn, x.fact, x.index, x.how) for r in runs for x in r.losses]
    assert (
        list(lost[["setting", "turn", "anchor", "index", "how"]].itertuples(index=False, name=None))
        == expected
    )
    points = frames.loss_points(runs)
    assert points["anchors"].sum() == len(lost)
    assert list(points.columns) == frames.POINT_COLUMNS
    for point in points.itertuples():
        run = next(r for r in runs if r.setting == point.setting)
        here = [x for x in run.losses if (x.turn, x.index) == (point.turn, point.index)]
        assert point.anchors == len(here) and point.first == here[0].fact
        assert point.lost_so_far == run.replay.turns[point.turn - 1].anchors_lost


def test_the_history_frame_is_what_is_sent_then_what_is_gone():
    run = run_of(rich_request())
    for turn in range(len(run.replay.histories)):
        frame = frames.history_frame(run, turn)
        sent = frame[frame["position"].notna()]
        history = run.replay.histories[turn]
        assert list(sent["content"]) == [m.content for m in history]
        assert list(sent["index"]) == [m.origin for m in history]
        gone = frame[frame["position"].isna()]
        assert all(f.startswith("dropped at turn ") for f in gone["fate"])
        assert set(gone["index"]) == set(range(turn + 1)) - {m.origin for m in history}
        trimmed = sent[sent["fate"].str.startswith("trimmed")]
        assert (trimmed["chars"] < trimmed["original_chars"]).all()
        kept = sent[sent["fate"] == "kept"]
        assert (kept["chars"] == kept["original_chars"]).all()


def test_fate_labels():
    assert frames.fate_label("kept", None) == "kept"
    assert frames.fate_label("trimmed", 12) == "trimmed at turn 12"
    assert frames.fate_label("dropped", 30) == "dropped at turn 30"


def test_the_summary_line_states_reuse_and_the_first_loss(runs):
    run = runs[0]
    line = frames.summary_line(run)
    turns = len(run.replay.turns)
    share = f"{cache_reuse(run.replay):.0%}"
    assert line.startswith(f"{run.setting}: over {turns} turns, {share} of sent characters")
    lost = len({x.fact for x in run.losses})
    assert f"; {lost:,} anchors lost" in line
    if run.losses:
        first = run.losses[0]
        assert line.endswith(
            f", the first at turn {first.turn} (the {first.how} of message {first.index})."
        )


def test_a_replay_without_facts_says_so():
    typed = validate(rich_request())
    run = ReplayRun(
        MEMORY_ALWAYS,
        replay_setting(MEMORY_ALWAYS, typed, MemoryCompact(typed.params), "always", ()).replay,
        tuple(recorded_of(typed.messages)),
        (),
        (),
    )
    assert frames.summary_line(run).endswith("0 anchors lost (no anchors to watch).")


def test_no_losses_no_points():
    request = load_sample("support-chat").request
    quiet = run_of(request)
    quiet = ReplayRun(quiet.setting, quiet.replay, quiet.recorded, (), ())
    points = frames.loss_points([quiet])
    assert points.empty and list(points.columns) == frames.POINT_COLUMNS
