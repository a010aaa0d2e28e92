"""RepeatedEvaluation: the same rows as evaluate_strategy, call after call, in this process and
on a pool of workers that keep each conversation prepared."""

from compactor.evaluation import RepeatedEvaluation, evaluate_strategy
from tests.compactor.recommend.test_recommend import CORPUS

SETTINGS = [("keep-last", {}), ("anchor-keep", {"unit_chars": 80}), ("memory-compact", {})]


def test_every_call_gives_the_rows_evaluate_strategy_gives():
    expected = {
        name: list(evaluate_strategy(CORPUS, name, [params], [900], workers=1))
        for name, params in SETTINGS
    }
    for workers in (1, 2):
        with RepeatedEvaluation(CORPUS, future=5, workers=workers) as judged:
            for _ in range(2):  # the second call reads the prepared conversations
                for name, params in SETTINGS:
                    assert judged.rows(name, params, 900) == expected[name]
