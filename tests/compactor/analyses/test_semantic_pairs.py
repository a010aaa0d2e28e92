"""Meaning-level pairs on paraphrases and unrelated pairs written for the purpose, with recall
and precision measured, and the semantic pairs of a conversation against their definition."""

import numpy as np
import pytest

from compactor import run, validate
from compactor.analyses._semantic_pairs import semantic_pairs
from compactor.text import _semantic as semantic
from compactor.text._words import jaccard, words
from tests.compactor.analyses.paraphrases import (
    HELD_OUT_PARAPHRASES,
    HELD_OUT_UNRELATED,
    PARAPHRASES,
    UNRELATED,
)

pytest.importorskip("wordllama")


def word_similarity(a, b):
    """Jaccard of the word sets, as the contract defines it (SPEC A, stage 2)."""
    return jaccard(set(words(a)), set(words(b)), a, b)


def cosines(pairs):
    return np.array([semantic.embed([a, b]).prod(axis=0).sum() for a, b in pairs])


def recall_precision(paraphrases, unrelated, threshold):
    hits = int((cosines(paraphrases) >= threshold).sum())
    false = int((cosines(unrelated) >= threshold).sum())
    return hits / len(paraphrases), hits / (hits + false) if hits + false else 1.0


def test_paraphrases_score_higher_than_unrelated_pairs():
    for paraphrases, unrelated in (
        (PARAPHRASES, UNRELATED),
        (HELD_OUT_PARAPHRASES, HELD_OUT_UNRELATED),
    ):
        assert np.median(cosines(paraphrases)) > np.max(cosines(unrelated)) * 1.2
    # What docs/tokens.md reports: recall and precision at a few thresholds, on both sets.
    measured = {
        t: (
            recall_precision(PARAPHRASES, UNRELATED, t),
            recall_precision(HELD_OUT_PARAPHRASES, HELD_OUT_UNRELATED, t),
        )
        for t in (0.2, 0.3, semantic.DEFAULT_THRESHOLD)
    }
    for (_, precision), (_, held_precision) in measured.values():
        assert precision >= 0.9 and held_precision >= 0.9
    (recall, _), (held_recall, _) = measured[0.3]
    assert recall >= 0.6 and held_recall >= 0.6


def test_the_written_paraphrases_share_few_words():
    assert max(word_similarity(a, b) for a, b in PARAPHRASES + HELD_OUT_PARAPHRASES) < 0.5


def test_pairs_are_same_role_close_in_meaning_and_apart_in_words():
    messages = [
        {"role": "user", "content": PARAPHRASES[0][0]},
        {"role": "assistant", "content": PARAPHRASES[0][1]},  # other role: never a pair
        {"role": "user", "content": PARAPHRASES[0][1]},
        {"role": "user", "content": UNRELATED[0][1]},
        {"role": "user", "content": PARAPHRASES[0][0]},  # a word duplicate: dedupe's business
    ]
    result = run(validate({"messages": messages, "budget_chars": 1000, "keep_last_n": 0}))
    matrix = semantic.semantic_similarity(result.request.contents, result.request.roles)
    pairs = semantic_pairs(result, 0.3, semantic=matrix)
    expected = [
        (j, i)
        for i in range(5)
        for j in range(i)
        if messages[i]["role"] == messages[j]["role"]
        and matrix[i, j] >= 0.3
        and word_similarity(messages[i]["content"], messages[j]["content"]) < 0.9
    ]
    assert sorted((p.a, p.b) for p in pairs) == sorted(expected)
    assert (0, 2) in expected and all(1 not in pair for pair in expected)
    for p in pairs:
        assert p.word_overlap == round(
            word_similarity(messages[p.a]["content"], messages[p.b]["content"]), 6
        )
