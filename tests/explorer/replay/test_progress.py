"""A long replay's progress: one update per whole percent of the turns, naming the loop and
the turn."""

from explorer.replay.replay_cache import turn_progress


def test_a_thousand_turns_show_a_hundred_and_one_steps_ending_at_the_last_turn():
    shown = []
    on_turn = turn_progress("keep-last (what fits the budget)", lambda f, t: shown.append((f, t)))
    for t in range(1, 1001):
        on_turn(t, 1000)
    assert len(shown) == 101  # 0% at turn 1 (turns 1 to 9), 1% at turn 10 ... 100% at 1,000
    assert shown[0] == (0.0, "Replaying keep-last (what fits the budget): turn 1 of 1,000")
    assert shown[-1] == (1.0, "Replaying keep-last (what fits the budget): turn 1,000 of 1,000")
    assert [f for f, _ in shown] == sorted({f for f, _ in shown})


def test_a_short_replay_shows_every_turn():
    shown = []
    on_turn = turn_progress("loop", lambda f, t: shown.append(t))
    for t in range(1, 5):
        on_turn(t, 4)
    assert shown == [f"Replaying loop: turn {t} of 4" for t in range(1, 5)]
