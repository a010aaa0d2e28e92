"""What the text of a conversation decides on its own, whatever the parameters.

Words, topic terms, topic overlap and the similarity of every pair of same-role messages depend
only on the contents and roles, so they are computed once per conversation (in one pass, with word
ids and bitsets rather than pairwise set operations) and reused by every stage, sweep and view.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np

from compactor.contract import TOPIC_TERM_COUNT, TOPIC_TERM_MIN_CHARS
from compactor.text import words


@dataclass(frozen=True, eq=False)
class TextAnalysis:
    """The parameter-free facts about a conversation's text."""

    #: Per message: each distinct word and how often it occurs.
    word_counts: tuple[Mapping[str, int], ...]
    #: The topic terms with their counts over the whole history, most frequent first.
    topic_terms: tuple[tuple[str, int], ...]
    #: Per message: the share of its distinct words that are topic terms (0.0 for no words).
    topic_overlap: tuple[float, ...]
    #: ``similarity[i, j]`` for ``j < i`` of the same role; NaN everywhere else. Read-only.
    similarity: np.ndarray


def analyse(
    contents: Sequence[str],
    roles: Sequence[str],
    hash_words: Callable[[str], int] = hash,
) -> TextAnalysis:
    """Analyse a conversation's text. ``hash_words`` exists for tests of the collision fallback."""
    n = len(contents)
    word_counts = tuple(Counter(words(content)) for content in contents)
    sizes = np.fromiter(map(len, word_counts), np.int64, n)
    rows = np.repeat(np.arange(n), sizes)
    entries = list(chain.from_iterable(word_counts))  # every (message, distinct word) pair
    ids, first = _word_ids(entries, hash_words)
    occurrences = np.fromiter(
        chain.from_iterable(counts.values() for counts in word_counts), np.int64, len(entries)
    )
    totals = np.bincount(ids, weights=occurrences, minlength=len(first))

    topic_ids = _topic_term_ids(totals, first, entries)
    topic_terms = tuple((entries[first[i]], int(totals[i])) for i in topic_ids)
    is_topic = np.zeros(len(first), dtype=bool)
    is_topic[topic_ids] = True
    topic_hits = np.bincount(rows, weights=is_topic[ids], minlength=n)
    topic_overlap = tuple(
        int(hits) / int(size) if size else 0.0 for hits, size in zip(topic_hits, sizes, strict=True)
    )

    similarity = _similarity(contents, roles, sizes, rows, ids)
    similarity.flags.writeable = False
    return TextAnalysis(word_counts, topic_terms, topic_overlap, similarity)


def _word_ids(
    entries: list[str], hash_words: Callable[[str], int]
) -> tuple[np.ndarray, np.ndarray]:
    """A vocabulary id per entry, and the first entry of each id.

    Ids come from the words' hashes (cheap: a string caches its hash); a hash collision between
    two different words would merge them, so the count of distinct hashes is checked against the
    count of distinct words, and a dictionary is used in the (astronomically rare) case of a clash.
    """
    hashes = np.fromiter(map(hash_words, entries), np.int64, len(entries))
    distinct, first, ids = np.unique(hashes, return_index=True, return_inverse=True)
    if len(distinct) != len(set(entries)):
        vocabulary: dict[str, int] = {}
        ids = np.fromiter(
            (vocabulary.setdefault(word, len(vocabulary)) for word in entries),
            np.int64,
            len(entries),
        )
        _, first = np.unique(ids, return_index=True)
    return ids.reshape(-1), first


def _topic_term_ids(totals: np.ndarray, first: np.ndarray, entries: list[str]) -> list[int]:
    """Ids of the most frequent words longer than three characters, ties in alphabetical order."""
    chosen: list[tuple[int, str, int]] = []
    cutoff = None
    for word_id in np.argsort(-totals, kind="stable"):
        count = int(totals[word_id])
        if cutoff is not None and count < cutoff:
            break  # every word from here on is rarer than the last term that made the cut
        word = entries[first[word_id]]
        if len(word) >= TOPIC_TERM_MIN_CHARS:
            chosen.append((-count, word, int(word_id)))
            if len(chosen) == TOPIC_TERM_COUNT:
                cutoff = count
    chosen.sort()
    return [word_id for _, _, word_id in chosen[:TOPIC_TERM_COUNT]]


def _similarity(
    contents: Sequence[str],
    roles: Sequence[str],
    sizes: np.ndarray,
    rows: np.ndarray,
    ids: np.ndarray,
) -> np.ndarray:
    """Jaccard similarity of every earlier same-role pair, from packed bitsets of word ids."""
    n = len(contents)
    similarity = np.full((n, n), np.nan)
    # Only words found in two or more messages can be shared; the rest only add to set sizes.
    in_messages = np.bincount(ids)
    shared = in_messages[ids] >= 2
    columns = np.cumsum(in_messages >= 2) - 1
    width = max(1, int((in_messages >= 2).sum()))
    present = np.zeros((n, (width + 63) // 64 * 64), dtype=bool)
    present[rows[shared], columns[ids[shared]]] = True
    bits = np.packbits(present, axis=1).view(np.uint64)

    for role in dict.fromkeys(roles):
        group = np.array([i for i, r in enumerate(roles) if r == role])
        for k in range(1, len(group)):
            i, earlier = group[k], group[:k]
            both = np.bitwise_count(bits[earlier] & bits[i]).sum(axis=1)
            union = sizes[earlier] + sizes[i] - both
            with np.errstate(invalid="ignore", divide="ignore"):
                similarity[i, earlier] = both / union
            for j in earlier[union == 0]:  # two messages without words: equal text or nothing
                similarity[i, j] = 1.0 if contents[i] == contents[j] else 0.0
    return similarity
