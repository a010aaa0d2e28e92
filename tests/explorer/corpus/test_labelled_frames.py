"""The Corpus page's frames of labelled questions: a registry strategy's summary pools probe
recall over the questions, beside keep-last and random at the same budget, as recomputing each
conversation's figure from the strategy's own result gives."""

import json

from compactor.analyses.outcomes import probe_recall_outcome
from compactor.contract import AUTO_LIMITS
from compactor.evaluation import CorpusStream, evaluate_strategy, read_questions_text
from compactor.input import validate
from compactor.strategies import get_strategy
from explorer.corpus import frames
from tests.compactor.evaluation.brute import brute_baseline
from tests.corpora import shared_questions
from tests.paths import CORPUS


def test_a_strategy_s_summary_pools_its_probe_recall_beside_the_baselines():
    questions = read_questions_text(json.dumps(shared_questions()), "shared.json")
    items = list(CorpusStream(CORPUS, questions=questions))
    rows = list(evaluate_strategy(items, "anchor-keep", [{}], [4_000], workers=1))
    (shown,) = frames.strategy_summary(rows).to_dict("records")
    strategy = get_strategy("anchor-keep")
    met = kept_last = total = 0
    for item in items:
        request = validate(item.request, limits=AUTO_LIMITS)
        result = strategy.apply(request, budget_chars=4_000, params={})
        n = len(item.probes)
        met += probe_recall_outcome(item.probes, request.contents, result).strict * n
        kept_last += brute_baseline(item, "keep-last", 4_000)["probes_strict"] * n
        total += n
    assert shown["questions"] == total == len(shared_questions())
    assert abs(shown["strict"] - met / total) < 1e-9
    assert abs(shown["strict_keep_last"] - kept_last / total) < 1e-6
