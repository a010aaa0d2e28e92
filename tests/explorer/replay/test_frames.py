"""The Replay page's frames are the engine's replay, turn by turn and loss by loss; the drift
lost so far never falls, and the count of what is not sent says why it falls; what each loop
shrinks to, and a warning when two loops compared do not share a budget."""

import pytest

from compactor import validate
from compactor.analyses.anchors._report import find_anchors
from compactor.analyses.replay._fates import cache_reuse, recorded_of
from compactor.analyses.replay._loop import Fact
from compactor.analyses.replay._strategies import KeepLast, MemoryCompact
from compactor.formats import apply_fixes, convert_text
from compactor.samples import load_sample
from explorer.replay import frames
from explorer.replay.runs import (
    DROP_OLDEST_LOOP,
    KEEP_LAST,
    MEMORY_ALWAYS,
    SEED_LOOP,
    ReplayRun,
    replay_loop,
)
from tests.explorer.requests import rich_request
from tests.paths import ROOT

REAL = ROOT / "tests" / "fixtures" / "real"


def run_of(request, loop=MEMORY_ALWAYS, keep_last=600):
    typed = validate(request)
    facts = tuple(Fact(a.text, a.occurrences) for a in find_anchors(typed.contents))
    strategy = MemoryCompact(typed.params) if loop == MEMORY_ALWAYS else KeepLast(keep_last)
    return replay_loop(loop, typed, strategy, "always", facts)


def real_runs(name):
    """A real recorded file replayed with memory-compact and keep-last at its own budget."""
    request = apply_fixes(convert_text((REAL / name).read_bytes())).request
    budget = validate(request).params.budget_chars
    return [run_of(request), run_of(request, KEEP_LAST, budget)]


@pytest.fixture(scope="module")
def runs():
    request = load_sample("support-chat").request
    return [run_of(request), run_of(request, KEEP_LAST)]


def test_the_turns_frame_is_each_settings_turns(runs):
    frame = frames.turns_frame(runs)
    assert len(frame) == sum(len(r.replay.turns) for r in runs)
    for run in runs:
        rows = frame[frame["loop"] == run.loop]
        engine = rows.drop(
            columns=[
                "loop",
                "stable_share",
                "stable_share_smoothed",
                "anchors_lost_ever",
                "anchors_back",
            ]
        ).rename(columns={"anchors_missing": "anchors_lost"})
        assert engine.to_dict("records") == [t.to_dict() for t in run.replay.turns]
        assert list(rows["stable_share"]) == [
            t.stable_prefix_chars / t.chars_out for t in run.replay.turns
        ]


def test_the_losses_frame_and_its_points_are_the_replays_losses(runs):
    lost = frames.losses_frame(runs)
    expected = [(r.loop, x.turn, x.fact, x.index, x.how) for r in runs for x in r.losses]
    assert (
        list(lost[["loop", "turn", "anchor", "index", "how"]].itertuples(index=False, name=None))
        == expected
    )
    points = frames.loss_points(runs)
    assert points["anchors"].sum() == len(lost)
    assert list(points.columns) == frames.POINT_COLUMNS
    for point in points.itertuples():
        run = next(r for r in runs if r.loop == point.loop)
        here = [x for x in run.losses if (x.turn, x.index) == (point.turn, point.index)]
        assert point.anchors == len(here) and point.first == here[0].fact
        ever = {x.fact for x in run.losses if x.turn <= point.turn}
        assert point.lost_so_far == len(ever)  # on the line of anchors lost so far
        earlier = {x.fact for x in run.losses if x.turn < point.turn}
        assert point.again == sum(x.fact in earlier for x in here)


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


def test_the_marked_history_flags_only_the_message_a_click_picked_and_says_what_is_sent():
    run = run_of(rich_request())
    turn = len(run.replay.histories) - 1
    plain = frames.history_frame(run, turn)
    picked = int(plain["index"].dropna().iloc[0])
    marked = frames.marked_history(run, turn, picked)
    assert list(marked.columns) == [frames.LOST_HERE, *plain.columns]
    assert marked[frames.LOST_HERE].tolist() == [i == picked for i in plain["index"].fillna(-1)]
    assert not frames.marked_history(run, turn, None)[frames.LOST_HERE].any()
    sent = run.replay.histories[turn]
    gone = int(plain["position"].isna().sum())
    assert frames.history_sentence(marked, turn) == (
        f"Turn {turn}: {len(sent):,} messages, {sum(len(m.content) for m in sent):,} "
        f"characters sent; {gone:,} recorded messages already gone."
    )


def test_fate_labels():
    assert frames.fate_label("kept", None) == "kept"
    assert frames.fate_label("trimmed", 12) == "trimmed at turn 12"
    assert frames.fate_label("dropped", 30) == "dropped at turn 30"


def test_the_summary_line_states_reuse_and_the_first_loss(runs):
    run = runs[0]
    line = frames.summary_line(run)
    turns = len(run.replay.turns)
    share = f"{cache_reuse(run.replay):.0%}"
    assert line.startswith(f"{run.loop}: over {turns} turns, {share} of sent characters")
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
        replay_loop(MEMORY_ALWAYS, typed, MemoryCompact(typed.params), "always", ()).replay,
        tuple(recorded_of(typed.messages)),
        (),
        (),
    )
    assert frames.summary_line(run).endswith("0 anchors lost (no anchors to watch).")


def test_no_losses_no_points():
    request = load_sample("support-chat").request
    quiet = run_of(request)
    quiet = ReplayRun(quiet.loop, quiet.replay, quiet.recorded, (), ())
    points = frames.loss_points([quiet])
    assert points.empty and list(points.columns) == frames.POINT_COLUMNS


@pytest.mark.parametrize(
    "name", ["codex_tool_calls.jsonl", "claude_code_coverage_fix.jsonl"], ids=str
)
def test_on_a_real_rollout_the_anchors_lost_so_far_never_fall_and_each_fall_of_the_rest_is_said(
    name,
):
    runs = real_runs(name)
    frame = frames.turns_frame(runs)
    fell = False
    for run in runs:
        rows = frame[frame["loop"] == run.loop]
        ever = list(rows["anchors_lost_ever"])
        assert ever == sorted(ever)  # a cumulative figure never falls
        turns = run.replay.turns
        missing = [t.anchors_lost for t in turns]
        assert list(rows["anchors_missing"]) == missing
        fell = fell or any(b < a for a, b in zip(missing, missing[1:], strict=False))
        recorded = run.recorded
        before: set[str] = set()
        for k, t in enumerate(turns):
            assert ever[k] == len({x.fact for x in run.losses if x.turn <= t.turn})
            assert ever[k] >= missing[k]
            now = set(t.lost)
            back = before - now
            assert rows["anchors_back"].iloc[k] == len(back)
            for fact in back:  # every one is back with the turn's new message, sent whole
                assert fact in recorded[t.turn].content
            before = now
        assert ever[-1] == len({x.fact for x in run.losses})  # the summary line's count
    # the Claude Code file's falls were tool-call argument keys (file_path, old_string), which
    # are no anchors since issue 36; the Codex file still shows a fall
    assert fell or name == "claude_code_coverage_fix.jsonl", "the file shows the fall"
    said = frames.drift_sentence(frame)
    assert "never falls" in said
    for loop, rows in frame.groupby("loop"):
        falls = int((rows["anchors_back"] > 0).sum())
        if falls:
            assert f"{loop}: it falls at {falls:,} turns" in said


def test_the_smoothed_cache_share_is_the_share_over_the_last_turns():
    run = run_of(load_sample("coding-agent").request)
    turns = run.replay.turns
    window = frames.smoothing_window(len(turns))
    assert window > 1
    frame = frames.turns_frame([run])
    for k in range(len(turns)):
        last = turns[max(0, k - window + 1) : k + 1]
        share = sum(t.stable_prefix_chars for t in last) / sum(t.chars_out for t in last)
        assert frame["stable_share_smoothed"].iloc[k] == pytest.approx(share)
    assert f"over the last {window} turns" in frames.smoothing_sentence(frame)
    assert [frames.smoothing_window(n) for n in (4, 12, 29, 199)] == [1, 3, 3, 10]


def test_what_each_setting_shrinks_to():
    assert frames.budget_of(MEMORY_ALWAYS, 4000, {}).in_tokens() == 1000
    assert frames.budget_of(KEEP_LAST, 4001, {}).in_tokens() == 1001  # ceil(chars / 4)
    trim = frames.budget_of(DROP_OLDEST_LOOP, 4000, {"keep_last_messages": 10})
    assert trim.in_tokens() is None and trim.describe() == f"{DROP_OLDEST_LOOP} has no size limit"
    loop = frames.budget_of(SEED_LOOP, 4000, {"token_limit": 20_000})
    assert loop.describe() == (
        f"{SEED_LOOP} compacts over 20,000 tokens by the estimate (about 80,000 characters)"
    )


def test_settings_that_do_not_share_a_budget_are_said_to_differ():
    chars = frames.budget_of(MEMORY_ALWAYS, 4000, {})
    same = frames.budget_of(SEED_LOOP, 4000, {"token_limit": 1000})
    assert frames.unequal_budgets([chars, same]) is None
    assert frames.unequal_budgets([chars]) is None
    loop = frames.budget_of(SEED_LOOP, 4000, {"token_limit": 20_000})
    said = frames.unequal_budgets([chars, loop])
    assert said is not None and "do not work to the same budget" in said
    assert f"{MEMORY_ALWAYS} works to 4,000 characters (about 1,000 tokens)" in said
    assert "20,000 tokens" in said
    unlimited = frames.budget_of(DROP_OLDEST_LOOP, 4000, {})
    assert "no size limit" in frames.unequal_budgets([chars, unlimited])
