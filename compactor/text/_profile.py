"""What the text of a conversation decides on its own, whatever the parameters.

Words, topic terms, topic overlap and the similarity of every pair of same-role messages depend
only on the contents and roles, so they are computed once per conversation and reused by every
stage, sweep and view.

Word ids come from one integer sort rather than a dictionary per word (:mod:`~.wordids`),
and similarities from bitsets of word ids rather than pairwise set operations: only the pairs
that can reach dedupe's threshold, unless the whole matrix is read (:mod:`~._pairs`).

:class:`IncrementalAnalysis` gives the same analysis for many histories that share contents (the
turns of a replay): each distinct content's words and each pair's similarity are computed once.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from compactor.contract import TOPIC_TERM_COUNT, TOPIC_TERM_MIN_CHARS
from compactor.text._pairs import PairSimilarity
from compactor.text._wordids import Vocabulary, group_words, group_words_by_dictionary
from compactor.text._words import word_runs, words


@dataclass(frozen=True, eq=False)
class TextAnalysis:
    """The parameter-free facts about a conversation's text."""

    #: Per message: each distinct word and how often it occurs (computed when read).
    word_counts: Sequence[Mapping[str, int]]
    #: The topic terms with their counts over the whole history, most frequent first.
    topic_terms: tuple[tuple[str, int], ...]
    #: Per message: the share of its distinct words that are topic terms (0.0 for no words).
    topic_overlap: tuple[float, ...]
    #: The similarity of each message with every earlier one of its role: the few pairs that
    #: reach a threshold (what dedupe reads), or the whole matrix, computed when first read.
    pairs: PairSimilarity

    @property
    def similarity(self) -> np.ndarray:
        """``similarity[i, j]`` for ``j < i`` of the same role; NaN everywhere else. Read-only,
        n x n: computed the first time it is read (dedupe itself never reads it)."""
        return self.pairs.matrix


class WordCounts(Sequence[Mapping[str, int]]):
    """Per message, ``Counter(words(content))``, computed when asked for.

    The stages never need these mappings (they work on word ids); views ask for one or two.
    """

    def __init__(self, contents: Sequence[str]) -> None:
        self._contents = tuple(contents)

    def __len__(self) -> int:
        return len(self._contents)

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [Counter(words(c)) for c in self._contents[i]]
        return Counter(words(self._contents[i]))

    def __iter__(self) -> Iterator[Mapping[str, int]]:
        return (Counter(words(c)) for c in self._contents)


def analyse(contents: Sequence[str], roles: Sequence[str]) -> TextAnalysis:
    """Analyse a conversation's text once, for every run that changes only the parameters.

    Args:
        contents: each message's content, in order.
        roles: each message's role, in the same order.

    Returns:
        The parameter-free :class:`TextAnalysis`: word sets, topic terms, the pairwise
        similarity that dedupe reads.

    Example:
        >>> from compactor import analyse
        >>> analysis = analyse(["where is my order", "where is my order?"], ["user", "user"])
        >>> float(analysis.similarity[1, 0])  # the later message against the earlier one
        1.0
    """
    n = len(contents)
    runs = word_runs(contents)
    grouped = group_words(runs)
    if grouped is None:  # two different words share a key: number them exactly instead
        grouped = group_words_by_dictionary(runs)
    vocabulary, rows, ids, counts = grouped
    totals = np.bincount(ids, weights=counts, minlength=len(vocabulary)).astype(np.int64)
    sizes = np.bincount(rows, minlength=n)
    topic_terms, topic_overlap = topics(vocabulary, totals, rows, ids, sizes)
    pairs = PairSimilarity(contents, roles, sizes, rows, ids)
    return TextAnalysis(WordCounts(contents), topic_terms, topic_overlap, pairs)


@functools.cache
def _upper_triangle(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The indices ``(i, j)`` with ``j >= i`` of an n x n matrix."""
    return np.triu_indices(n)


def _bitset(ids: np.ndarray, width: int) -> np.ndarray:
    """The words ``ids`` as ``width`` 64-bit words of bits (bit ``w % 64`` of word ``w // 64``)."""
    bits = np.zeros(width * 64, dtype=bool)
    bits[ids] = True
    return np.packbits(bits, bitorder="little").view(np.uint64)


def _lowers_in_place(content: str) -> bool:
    """Whether ``content.lower()`` lowers each code point alone, so that a prefix's words are
    the content's words up to the cut (U+0130 lengthens, a capital sigma looks around)."""
    return "\u0130" not in content and "\u03a3" not in content


# Code points per word kept for ordering tied topic terms without reading the strings.
_PREFIX = 4


# --- topic terms -----------------------------------------------------------------------------


def topics(
    vocabulary: Vocabulary,
    totals: np.ndarray,
    rows: np.ndarray,
    ids: np.ndarray,
    sizes: np.ndarray,
) -> tuple[tuple[tuple[str, int], ...], tuple[float, ...]]:
    """The topic terms with their counts, and each message's topic overlap.

    ``totals`` counts each word's occurrences over the history; ``rows`` and ``ids`` are the
    distinct (message, word) pairs and ``sizes`` the distinct words per message.
    """
    topic_ids = topic_term_ids(vocabulary, totals)
    topic_terms = tuple((vocabulary.words[w], int(totals[w])) for w in topic_ids)
    is_topic = np.zeros(len(vocabulary), dtype=bool)
    is_topic[topic_ids] = True
    hits = np.bincount(rows, weights=is_topic[ids], minlength=len(sizes))
    overlap = np.divide(hits, sizes, out=np.zeros(len(sizes)), where=sizes > 0)
    return topic_terms, tuple(overlap.tolist())


def topic_term_ids(vocabulary: Vocabulary, totals: np.ndarray) -> list[int]:
    """Ids of the most frequent words longer than three characters, ties in alphabetical order.

    Only the words that can make the cut are compared as strings: those more frequent than the
    25th count, and of the words tied at it, the ones whose first three code points come first.
    """
    chosen = np.flatnonzero((vocabulary.lengths >= TOPIC_TERM_MIN_CHARS) & (totals > 0))
    k = TOPIC_TERM_COUNT
    if len(chosen) > k:
        counts = totals[chosen]
        cutoff = np.partition(counts, len(counts) - k)[len(counts) - k]  # the 25th largest
        above = chosen[counts > cutoff]
        tied = chosen[counts == cutoff]
        tied = _alphabetically_first(vocabulary, tied, k - len(above))
        chosen = np.concatenate((above, tied))
    chosen = chosen.tolist()
    words = [vocabulary.words[w] for w in chosen]
    ranked = sorted(zip((-totals[chosen]).tolist(), words, chosen, strict=True))
    return [w for _, _, w in ranked[:k]]


# Below this many candidates the words are compared as strings.
_FEW = 64


def _alphabetically_first(vocabulary: Vocabulary, ids: np.ndarray, need: int) -> np.ndarray:
    """The ``need`` words among ``ids`` that come first in Python's (code point) order.

    A CJK history has thousands of words seen once, all tied: rather than sort them, the words
    are narrowed one code point at a time (those before the ``need``-th smallest at this
    position are in, those after it out, the equal ones go on), then the few left are sorted.
    """
    chosen = []
    depth = 0
    while len(ids) > max(need, _FEW):
        points = vocabulary.code_points(ids, depth)
        last = np.partition(points, need - 1)[need - 1]
        chosen.append(ids[points < last])
        need -= len(chosen[-1])
        ids = ids[points == last]
        depth += 1
    rest = sorted(map(int, ids), key=vocabulary.words.__getitem__)[:need]
    return np.concatenate([*chosen, np.array(rest, dtype=np.int64)])
