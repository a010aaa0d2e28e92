"""memory-compact with semantic dedupe: the contract's run plus meaning duplicates, and nothing
else changed."""

import numpy as np
import pytest

from compactor import run, validate
from compactor.engine import build_response
from compactor.samples import load_sample
from compactor.strategies._lineup import compare_strategies
from compactor.strategies._semantic_dedupe import BY_MEANING, BY_WORDS, semantic_dedupe

pytest.importorskip("wordllama")


def test_an_impossible_threshold_is_the_contract_run():
    request = validate(load_sample("repeated-questions").request)
    plain = run(request)
    found = semantic_dedupe(request, threshold=1.01)
    assert build_response(found.result) == build_response(plain)
    assert all(r.by == BY_WORDS for r in found.removals)


def test_meaning_removals_follow_the_rule():
    request = validate(load_sample("repeated-questions").request)
    found = semantic_dedupe(request, threshold=0.8)
    words = found.result.analysis.similarity
    protected = found.result.protection.protected
    removed = {r.index for r in found.removals}
    assert found.by_meaning  # this sample repeats questions in other words
    for r in found.removals:
        assert not protected[r.index] and r.duplicate_of < r.index
        assert (r.by == BY_WORDS) == (
            words[r.index, r.duplicate_of] >= request.params.duplicate_threshold
        )
        if r.by == BY_MEANING:
            assert r.semantic >= 0.8
    # A message that stays has no word or meaning duplicate among the earlier ones still present.
    from compactor.text._semantic import semantic_similarity

    meaning = semantic_similarity(request.contents, request.roles)
    for t in found.result.messages:
        if t.index in removed or t.protected:
            continue
        earlier = [
            j for j in range(t.index) if j not in removed and not np.isnan(words[t.index, j])
        ]
        assert all(words[t.index, j] < request.params.duplicate_threshold for j in earlier)
        assert all(meaning[t.index, j] < 0.8 for j in earlier)


def test_the_lineup_compares_it_message_by_message_only_when_asked():
    request = validate(load_sample("repeated-questions").request)
    assert "semantic-dedupe" not in {o.key for o in compare_strategies(request).results}
    comparison = compare_strategies(request, semantic_threshold=0.8)
    outcome = comparison.result("semantic-dedupe")
    found = semantic_dedupe(request, 0.8)
    assert outcome.kept == tuple(t.index for t in found.result.messages if t.survived)
    assert all("semantic-dedupe" in row for row in comparison.rows())
