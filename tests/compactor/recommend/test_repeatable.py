"""The same corpus, goal and seed give the same recommendation whatever the workers: the
conversations prepared once per worker (and the texts' salient terms remembered) change
nothing a trial or the check reports."""

from dataclasses import replace

from compactor.recommend import recommend
from tests.compactor.recommend.test_recommend import CORPUS, FAST, GOAL


def test_two_workers_give_the_trials_winner_and_check_of_one():
    one = recommend(CORPUS, GOAL, FAST)
    two = recommend(CORPUS, GOAL, replace(FAST, workers=2))
    again = recommend(CORPUS, GOAL, FAST)  # every text's terms now remembered
    for other in (two, again):
        assert other.trials == one.trials
        assert other.winner == one.winner
        assert other.check == one.check
