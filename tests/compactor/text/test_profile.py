"""The parameter-free text analysis, checked against plain set arithmetic."""

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor.text import _wordids as wordids
from compactor.text._incremental import IncrementalAnalysis
from compactor.text._profile import analyse
from compactor.text._words import jaccard, words
from tests.compactor.text.test_words import texts as any_texts
from tests.generate import conversations


def brute_force(contents, roles):
    sets = [set(words(c)) for c in contents]
    counts = Counter(w for c in contents for w in words(c) if len(w) > 3)
    terms = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:25]
    topic = {t for t, _ in terms}
    overlap = [len(s & topic) / len(s) if s else 0.0 for s in sets]
    n = len(contents)
    similarity = np.full((n, n), np.nan)
    for i in range(n):
        for j in range(i):
            if roles[i] == roles[j]:
                similarity[i, j] = jaccard(sets[i], sets[j], contents[i], contents[j])
    return terms, overlap, similarity


def check(contents, roles):
    result = analyse(contents, roles)
    terms, overlap, similarity = brute_force(contents, roles)
    assert list(result.topic_terms) == terms
    assert list(result.topic_overlap) == overlap
    np.testing.assert_array_equal(result.similarity, similarity)  # exact, NaN where no pair
    assert [dict(c) for c in result.word_counts] == [dict(Counter(words(c))) for c in contents]


@settings(max_examples=300, deadline=None)
@given(conversations(max_size=14))
def test_analysis_equals_brute_force(messages):
    check([m["content"] for m in messages], [m["role"] for m in messages])


@settings(max_examples=300, deadline=None)
@given(any_texts, st.lists(st.sampled_from(["user", "assistant"]), min_size=6, max_size=6))
def test_analysis_of_any_text_equals_brute_force(contents, roles):
    check(contents, roles[: len(contents)])


@settings(max_examples=100, deadline=None)
@given(conversations(max_size=14))
def test_the_analysis_is_exact_even_if_every_word_shared_a_key(messages):
    with pytest.MonkeyPatch.context() as patch:
        wordids._odd_multipliers.cache_clear()
        patch.setattr(wordids, "_mix", lambda x: x * np.uint64(0))
        check([m["content"] for m in messages], [m["role"] for m in messages])
    wordids._odd_multipliers.cache_clear()


def test_many_tied_words_sharing_their_first_code_points_sort_exactly():
    # A CJK-like history: hundreds of words seen once each, many with a common prefix.
    stems = ["会议", "会议室", "会", "周四", "ab", "abc", "abcd"]
    contents = [
        " ".join(f"{stem}{chr(0x4E00 + (i * 7 + k) % 50)}{k}" for k in range(40))
        for i, stem in enumerate(stems * 3)
    ]
    check(contents, ["user"] * len(contents))


def test_topic_terms_tie_break_alphabetically_and_stop_at_25():
    text = " ".join(f"word{chr(97 + i)}{chr(97 + j)}" for i in range(6) for j in range(6))
    result = analyse([text, "zzzz zzzz"], ["user", "user"])
    assert result.topic_terms[0] == ("zzzz", 2)
    assert [t for t, _ in result.topic_terms[1:]] == sorted(t for t, _ in result.topic_terms[1:])
    assert len(result.topic_terms) == 25


def test_words_of_three_characters_are_never_topic_terms():
    result = analyse(["the the the cat", "the cat sat"], ["user", "assistant"])
    assert result.topic_terms == ()
    assert result.topic_overlap == (0.0, 0.0)


def test_similarity_is_only_for_earlier_messages_of_the_same_role():
    result = analyse(["a b", "a b", "a b"], ["user", "assistant", "user"])
    assert result.similarity[2, 0] == 1.0
    assert np.isnan(result.similarity[1, 0]) and np.isnan(result.similarity[0, 2])
    assert not result.similarity.flags.writeable


AWKWARD_CONTENT = st.lists(
    st.sampled_from(
        ["order ", "Σ", "ΣΑΣ ", "İz", "ab", "cd", "abcd", "会议", ". ", "😀", "e\u0301"]
    ),
    min_size=1,
    max_size=30,
).map("".join)


@st.composite
def histories(draw):
    """Histories built from one conversation's messages, whole or cut short, as a replay's are:
    ``(recorded, [(contents, roles, sources), ...])``."""
    messages = draw(conversations(min_size=2, max_size=12))
    for m in messages:
        if draw(st.integers(0, 3)) == 0:
            m["content"] = draw(AWKWARD_CONTENT)
    recorded = [m["content"] for m in messages]
    steps = []
    for _ in range(draw(st.integers(1, 6))):
        picked = draw(st.lists(st.sampled_from(messages), min_size=1, max_size=12))
        cut = [m["content"][: draw(st.integers(1, len(m["content"])))] for m in picked]
        steps.append((cut, [m["role"] for m in picked], [m["content"] for m in picked]))
    return recorded, steps


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(histories(), st.booleans(), st.booleans())
def test_the_incremental_analysis_equals_analyse_on_every_history(given, register, hint):
    recorded, steps = given
    incremental = IncrementalAnalysis()
    if register:
        incremental.register(recorded)
    for contents, roles, sources in steps:
        got = incremental.analyse(contents, roles, sources if hint else None)
        expected = analyse(contents, roles)
        assert got.topic_terms == expected.topic_terms
        assert got.topic_overlap == expected.topic_overlap
        np.testing.assert_array_equal(got.similarity, expected.similarity)
        assert [dict(c) for c in got.word_counts] == [dict(c) for c in expected.word_counts]
        assert not got.similarity.flags.writeable


@settings(max_examples=40, deadline=None)
@given(histories(), st.data())
def test_the_overlaps_a_replay_reads_are_the_analysis_overlaps(given, data):
    """What the replay's drop stage asks on every turn (some positions of the history, no
    topic terms) equals analyse's topic overlap at those positions."""
    recorded, steps = given
    incremental = IncrementalAnalysis()
    incremental.register(recorded)
    for contents, roles, sources in steps:
        numbers = incremental.numbers(contents, sources)
        which = data.draw(st.lists(st.integers(0, len(contents) - 1), unique=True).map(sorted))
        expected = analyse(contents, roles).topic_overlap
        assert incremental.overlaps(numbers, which) == [expected[k] for k in which]
