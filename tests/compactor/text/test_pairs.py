"""The sparse pairs (only those that can reach dedupe's threshold) against the plain loop."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor.engine import _stages as stages
from compactor.engine._result import Removal, Similar
from compactor.model import Message
from compactor.text import PairSimilarity
from compactor.text._profile import analyse
from compactor.text._words import jaccard, words

# a few words, so that sets overlap often; "!!", "..." and "" have no words at all
PIECES = ["ok", "Ok", "tests", "run", "pass", "fail", "the", "build", "x1", "!!", "...", ""]

messages = st.lists(
    st.tuples(
        st.sampled_from(["user", "assistant", "tool"]),
        st.lists(st.sampled_from(PIECES), max_size=7).map(" ".join),
        st.booleans(),  # protected
    ),
    min_size=1,
    max_size=14,
)
thresholds = st.sampled_from([1e-6, 0.01, 0.3, 0.5, 0.6, 2 / 3, 0.75, 0.9, 0.999999, 1.0]) | (
    st.floats(1e-6, 1.0)
)


def plain_walk(contents, roles, protected, threshold):
    """SPEC A Stage 2 as written: the removals, who is present after, and each nearest."""
    sets = [set(words(c)) for c in contents]
    n = len(contents)
    present = [True] * n
    similarity = {
        (i, j): jaccard(sets[i], sets[j], contents[i], contents[j])
        for i in range(n)
        for j in range(i)
        if roles[i] == roles[j]
    }
    removed = []
    for i in range(n):
        earlier = [(similarity[i, j], -j) for j in range(i) if (i, j) in similarity and present[j]]
        best = max(earlier, default=None)
        if not protected[i] and best is not None and best[0] >= threshold:
            present[i] = False
            removed.append(Removal(i, -best[1], best[0], len(contents[i])))
    nearest = []
    for i in range(n):
        earlier = [(similarity[i, j], -j) for j in range(i) if (i, j) in similarity and present[j]]
        best = max(earlier, default=None)
        nearest.append(None if best is None else Similar(-best[1], best[0]))
    return tuple(removed), tuple(present), tuple(nearest)


@settings(max_examples=400, deadline=None)
@given(messages, thresholds)
def test_the_sparse_walk_removes_what_the_plain_loop_removes(drawn, threshold):
    roles, contents, protected = (list(column) for column in zip(*drawn, strict=True))
    found = [Message(i, r, c) for i, (r, c) in enumerate(zip(roles, contents, strict=True))]
    analysis = analyse(contents, roles)
    state, report = stages.dedupe(
        stages.State.of(found), found, protected, analysis.pairs, threshold
    )
    removed, present, nearest = plain_walk(contents, roles, protected, threshold)
    assert report.removed == removed
    assert state.present == present
    # each nearest computed alone (a row), then all of them from the whole matrix
    assert [report.nearest[i] for i in reversed(range(len(found)))] == list(reversed(nearest))
    assert report.nearest == nearest


@settings(max_examples=100, deadline=None)
@given(messages, st.lists(thresholds, min_size=2, max_size=6))
def test_one_analysis_walked_at_threshold_after_threshold_removes_what_the_plain_loop_does(
    drawn, sequence
):
    """The pairs remembered for a threshold (a rerun at another budget reads them again) are
    those of that threshold, whatever was asked before, and are read again, not recomputed."""
    roles, contents, protected = (list(column) for column in zip(*drawn, strict=True))
    found = [Message(i, r, c) for i, (r, c) in enumerate(zip(roles, contents, strict=True))]
    analysis = analyse(contents, roles)
    for threshold in [*sequence, *reversed(sequence)]:
        state, report = stages.dedupe(
            stages.State.of(found), found, protected, analysis.pairs, threshold
        )
        removed, present, _ = plain_walk(contents, roles, protected, threshold)
        assert report.removed == removed
        assert state.present == present
        assert analysis.pairs.reaching(threshold) is analysis.pairs.reaching(threshold)


@settings(max_examples=150, deadline=None)
@given(messages, thresholds)
def test_the_pairs_that_reach_a_threshold_are_those_of_the_matrix(drawn, threshold):
    roles, contents, _ = (list(column) for column in zip(*drawn, strict=True))
    pairs = analyse(contents, roles).pairs
    reaching = pairs.reaching(threshold)
    found = set()
    for i, c in enumerate(reaching.klass):
        for j, d in enumerate(reaching.klass[:i]):
            if c == d and reaching.self_reaches:
                found.add((i, j, 1.0))
            found.update((i, j, value) for e, value in reaching.links.get(c, ()) if e == d)
    rows = [pairs.row(i) for i in range(len(contents))]  # before the matrix is read
    matrix = pairs.matrix
    n = len(contents)
    assert found == {
        (i, j, float(matrix[i, j])) for i in range(n) for j in range(i) if matrix[i, j] >= threshold
    }
    np.testing.assert_array_equal(np.array(rows).reshape(n, n), matrix)


def test_a_threshold_at_zero_reads_the_whole_matrix():
    pairs = analyse(["a", "b", "a b"], ["user"] * 3).pairs
    assert pairs.reaching(0.0) is None
    assert PairSimilarity.given(pairs.matrix).reaching(0.9) is None
    state, report = stages.dedupe(
        stages.State.of([Message(i, "user", c) for i, c in enumerate(["a", "b", "a b"])]),
        [Message(i, "user", c) for i, c in enumerate(["a", "b", "a b"])],
        [False] * 3,
        pairs,
        0.0,
    )
    assert state.present == (True, False, False)  # every similarity, even 0, reaches 0
    assert [r.duplicate_of for r in report.removed] == [0, 0]


def test_the_matrix_is_not_computed_for_a_compaction():
    analysis = analyse(["the build failed", "the build failed", "ok"], ["tool"] * 3)
    found = [Message(i, "tool", c) for i, c in enumerate(["the build failed"] * 2 + ["ok"])]
    _, report = stages.dedupe(stages.State.of(found), found, [False] * 3, analysis.pairs, 0.9)
    assert report.removed == (Removal(1, 0, 1.0, 16),)
    assert not analysis.pairs.computed


def test_a_long_historys_nearest_is_computed_row_by_row(monkeypatch):
    contents = ["ok", "run the tests", "ok", "", "run tests", "!!", "", "the tests pass", "ok ok"]
    roles = ["user", "tool", "user", "user", "tool", "user", "user", "tool", "user"]
    found = [Message(i, r, c) for i, (r, c) in enumerate(zip(roles, contents, strict=True))]
    protected = [False, True, False, False, False, False, False, False, True]
    args = (stages.State.of(found), found, protected)
    _, whole = stages.dedupe(*args, analyse(contents, roles).pairs, 0.6)
    monkeypatch.setattr(stages, "_WHOLE_MATRIX", 0)  # as if the history were over 3,000
    pairs = analyse(contents, roles).pairs
    _, by_row = stages.dedupe(*args, pairs, 0.6)
    assert [by_row.nearest[i] for i in range(len(found))] == list(whole.nearest)
    assert by_row.removed == whole.removed and not pairs.computed


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([0, 1, 5, 46, 2**16 - 1]) | st.integers(-3, 2**20),
            st.integers(0, 6) | st.integers(0, 2**64 - 1),
        ),
        max_size=80,
    )
)
def test_the_classes_two_key_sort_is_lexsort(pairs):
    # a class's role and size, small or not (16-bit radix or not), then a 64-bit hash, ties kept
    # in index order
    from compactor.text._pairs import _by_two_keys

    major = np.array([p[0] for p in pairs], dtype=np.int64)
    minor = np.array([p[1] for p in pairs], dtype=np.uint64)
    np.testing.assert_array_equal(_by_two_keys(major, minor), np.lexsort((minor, major)))
