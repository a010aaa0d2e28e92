"""Word ids: the vectorised numbering equals a dictionary of the words' strings."""

import numpy as np
import pytest
from hypothesis import given, settings

from compactor.text import _wordids as wordids
from compactor.text._words import word_runs, words
from tests.compactor.text.test_words import texts


def by_dictionary(contents):
    """Per text, each word's count, and every word in order of first occurrence."""
    first = {}
    per_text = []
    for text in contents:
        counts = {}
        for word in words(text):
            first.setdefault(word, len(first))
            counts[word] = counts.get(word, 0) + 1
        per_text.append(counts)
    return per_text, list(first)


def as_words(vocabulary, rows, ids, counts, n):
    per_text = [{} for _ in range(n)]
    for row, w, c in zip(rows.tolist(), ids.tolist(), counts.tolist(), strict=True):
        assert vocabulary.words[w] not in per_text[row]  # each pair once
        per_text[row][vocabulary.words[w]] = c
    return per_text


@settings(max_examples=300, deadline=None)
@given(texts)
def test_group_words_finds_each_texts_words_and_counts(contents):
    runs = word_runs(contents)
    vocabulary, rows, ids, counts = wordids.group_words(runs)
    expected, first = by_dictionary(contents)
    assert as_words(vocabulary, rows, ids, counts, len(contents)) == expected
    assert sorted(vocabulary.words[w] for w in range(len(vocabulary))) == sorted(first)
    assert vocabulary.lengths.tolist() == [len(vocabulary.words[w]) for w in range(len(vocabulary))]


@settings(max_examples=200, deadline=None)
@given(texts)
def test_number_runs_gives_every_run_its_words_id(contents):
    runs = word_runs(contents)
    vocabulary, rows, ids, counts, run_ids = wordids.number_runs(runs)
    spelled = [runs.text[s:e].lower() for s, e in zip(runs.starts, runs.ends, strict=True)]
    assert [vocabulary.words[w] for w in run_ids.tolist()] == spelled
    assert len(set(run_ids.tolist())) == len(vocabulary)


@settings(max_examples=200, deadline=None)
@given(texts)
def test_code_points_order_words_as_python_does(contents):
    vocabulary = wordids.group_words(word_runs(contents))[0]
    ids = np.arange(len(vocabulary))
    for depth in range(4):
        points = vocabulary.code_points(ids, depth).tolist()
        assert points == [
            ord(vocabulary.words[w][depth]) if len(vocabulary.words[w]) > depth else 0
            for w in range(len(vocabulary))
        ]


@pytest.fixture
def colliding():
    """Every word gets the same key, as if the keys of different words collided."""
    with pytest.MonkeyPatch.context() as patch:
        wordids._odd_multipliers.cache_clear()
        patch.setattr(wordids, "_mix", lambda x: x * np.uint64(0))
        yield
    wordids._odd_multipliers.cache_clear()


def test_a_shared_key_is_caught_and_the_dictionary_numbers_the_words(colliding):
    contents = ["the order left Lyon", "where is the order", "Lyon"]
    runs = word_runs(contents)
    assert wordids.group_words(runs) is None
    vocabulary, rows, ids, counts, run_ids = wordids.number_runs(runs)
    assert as_words(vocabulary, rows, ids, counts, 3) == by_dictionary(contents)[0]
    assert [vocabulary.words[w] for w in run_ids.tolist()] == [
        w for c in contents for w in words(c)
    ]
