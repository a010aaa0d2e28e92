"""RepeatedEvaluation: the same rows as evaluate_strategy, call after call, in this process and
on a pool of workers that keep each conversation prepared."""

from compactor.evaluation import CorpusItem, RepeatedEvaluation, evaluate_strategy
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


def test_the_workers_shares_cover_the_corpus_in_order_none_empty_about_equal():
    import random

    from compactor.evaluation._repeated import shares

    rnd = random.Random(7)
    for _ in range(200):
        sizes = [rnd.randint(1, 500) for _ in range(rnd.randint(1, 30))]
        items = [CorpusItem(k, {"messages": [{"content": "x" * n}]}) for k, n in enumerate(sizes)]
        workers = rnd.randint(1, 6)
        cut = shares(items, workers)
        assert [k for share in cut for k in share] == list(range(len(items)))
        assert len(cut) == min(workers, len(items)) and all(cut)
        if len(cut) == 2 and len(items) > 2:  # no conversation could move to even them out more
            a, b = (sum(sizes[k] for k in share) for share in cut)
            edge = cut[0][-1] if a > b else cut[1][0]
            assert abs(a - b) <= 2 * sizes[edge]
