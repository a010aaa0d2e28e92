"""What the text of a conversation decides on its own, whatever the parameters.

Words, topic terms, topic overlap and the similarity of every pair of same-role messages depend
only on the contents and roles, so they are computed once per conversation and reused by every
stage, sweep and view.

It is computed without a Python object per word: the words are runs of code points
(:func:`compactor.text.word_runs`), each run gets a 64-bit key from its bytes read eight at a
time, and one integer sort groups equal keys. A group is one word only if every run in it has
the same bytes as the group's first, which is checked (exactly, on the same eight-byte reads);
should two different words ever share a key, the words are numbered by a dictionary instead.
Similarities come from bitsets of word ids rather than pairwise set operations.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from compactor.contract import TOPIC_TERM_COUNT, TOPIC_TERM_MIN_CHARS
from compactor.text import WordRuns, word_runs, words


@dataclass(frozen=True, eq=False)
class TextAnalysis:
    """The parameter-free facts about a conversation's text."""

    #: Per message: each distinct word and how often it occurs (computed when read).
    word_counts: Sequence[Mapping[str, int]]
    #: The topic terms with their counts over the whole history, most frequent first.
    topic_terms: tuple[tuple[str, int], ...]
    #: Per message: the share of its distinct words that are topic terms (0.0 for no words).
    topic_overlap: tuple[float, ...]
    #: ``similarity[i, j]`` for ``j < i`` of the same role; NaN everywhere else. Read-only.
    similarity: np.ndarray


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


@dataclass(frozen=True, eq=False)
class Vocabulary:
    """The distinct words of a history, numbered 0..V-1, with what the topic terms need.

    Only the few words that can be topic terms are ever read as strings.
    """

    words: Sequence[str]
    lengths: np.ndarray  # code points per word
    #: ``code_points(ids, depth)``: the code point at position ``depth`` of each word in
    #: ``ids``, 0 where the word is shorter (no word contains U+0000).
    code_points: Callable[[np.ndarray, int], np.ndarray]

    def __len__(self) -> int:
        return len(self.lengths)


class _Slices(Sequence[str]):
    """``text[starts[w]:ends[w]].lower()`` for each ``w``, sliced when read."""

    def __init__(self, text: str, starts: np.ndarray, ends: np.ndarray) -> None:
        self._text, self._starts, self._ends = text, starts, ends

    def __len__(self) -> int:
        return len(self._starts)

    def __getitem__(self, w):  # type: ignore[override]
        if isinstance(w, slice):
            return [self[i] for i in range(*w.indices(len(self)))]
        # the runs' text may not be lower-cased; per code point, it lowers to the word
        return self._text[int(self._starts[w]) : int(self._ends[w])].lower()


def analyse(contents: Sequence[str], roles: Sequence[str]) -> TextAnalysis:
    """Analyse a conversation's text (see :class:`TextAnalysis`)."""
    n = len(contents)
    runs = word_runs(contents)
    grouped = _group_words(runs)
    if grouped is None:  # two different words share a key: number them exactly instead
        grouped = _group_words_by_dictionary(runs)
    vocabulary, rows, ids, counts = grouped
    totals = np.bincount(ids, weights=counts, minlength=len(vocabulary)).astype(np.int64)
    sizes = np.bincount(rows, minlength=n)
    topic_terms, topic_overlap = topics(vocabulary, totals, rows, ids, sizes)
    similarity = _similarity(contents, roles, sizes, rows, ids)
    similarity.flags.writeable = False
    return TextAnalysis(WordCounts(contents), topic_terms, topic_overlap, similarity)


# --- word ids ----------------------------------------------------------------------------------

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)
_ALL_ONES = np.uint64(2**64 - 1)


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: a bijection of 64-bit integers that spreads every input bit."""
    x = x ^ (x >> np.uint64(30))
    x *= _MIX_1
    x ^= x >> np.uint64(27)
    x *= _MIX_2
    x ^= x >> np.uint64(31)
    return x


@functools.cache
def _odd_multipliers(count: int) -> np.ndarray:
    """``count`` fixed odd 64-bit multipliers, one per chunk position, doubling as needed."""
    size = 1 << max(6, (count - 1).bit_length())
    return _mix(np.arange(1, size + 1, dtype=np.uint64) * _GOLDEN) | np.uint64(1)


class _Chunks:
    """A word's bytes read eight at a time: chunk ``j`` of a run starting at code point ``s``
    is the eight bytes from ``s + j * per`` on, masked to the run's own bytes."""

    def __init__(self, runs: WordRuns) -> None:
        self.per = 8 // runs.unit  # code points per chunk
        # element p: the eight bytes from code point p on (the padding keeps reads inside)
        self.window = np.ndarray(
            (len(runs.text) + 1,), dtype="<u8", buffer=runs.points, strides=(runs.unit,)
        )
        bits = 8 * runs.unit * np.arange(self.per + 1, dtype=np.uint64)
        masks = (np.uint64(1) << np.minimum(bits, 63)) - np.uint64(1)
        masks[-1] = _ALL_ONES
        self.masks = masks  # masks[r]: the bytes of r code points

    def read(self, starts: np.ndarray, lengths: np.ndarray, j: np.ndarray | int) -> np.ndarray:
        """Chunk ``j`` of the runs at ``starts`` of ``lengths`` (``j * per < lengths``)."""
        offset = j * self.per
        remaining = np.minimum(lengths - offset, self.per)
        return self.window[starts + offset] & self.masks[remaining]

    def further(self, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For runs of ``lengths``: ``(owner, j, at)`` of every chunk after the first, with
        ``at[k]`` where run k's further chunks begin in that list."""
        extra = (lengths - 1) // self.per
        at = np.cumsum(extra) - extra
        owner = np.repeat(np.arange(len(lengths)), extra)
        j = np.arange(len(owner)) - at[owner] + 1
        return owner, j, at


def _group_words(runs: WordRuns) -> tuple[Vocabulary, np.ndarray, np.ndarray, np.ndarray] | None:
    """Number the words, and list the distinct (message, word) pairs with their counts.

    Returns ``(vocabulary, rows, ids, counts)``, or None when a key is shared by two different
    words (never seen in practice; the caller then numbers the words exactly).
    """
    starts, rows = runs.starts, runs.rows
    lengths = runs.ends - starts
    t = len(starts)
    chunks = _Chunks(runs)
    first = chunks.read(starts, lengths, 0)
    keys = first.copy()
    owner, j, at = chunks.further(lengths)
    further = chunks.read(starts[owner], lengths[owner], j)  # kept for the check below
    if len(owner):
        _add_by_owner(keys, owner, further * _odd_multipliers(int(j.max()) + 1)[j])
    keys = _mix(keys + lengths.astype(np.uint64) * _GOLDEN)

    # The low bits carry the run's index, so one sort of plain integers groups equal keys with
    # their runs in order: the first run of a group is the word's first occurrence.
    bits = max(1, t.bit_length())
    order = np.sort((keys >> np.uint64(bits) << np.uint64(bits)) | np.arange(t, dtype=np.uint64))
    index = (order & np.uint64((1 << bits) - 1)).astype(np.int64)
    group = order >> np.uint64(bits)
    new_word = np.empty(t, dtype=bool)
    new_word[:1] = True
    np.not_equal(group[1:], group[:-1], out=new_word[1:])
    word_starts = np.flatnonzero(new_word)
    first_run = index[word_starts]
    if not _same_words(chunks.per, lengths, first, further, at, index, new_word):
        return None

    ids = np.cumsum(new_word) - 1  # the word id of each run, in sorted order
    sorted_rows = rows[index]
    new_pair = new_word.copy()
    np.logical_or(new_pair[1:], sorted_rows[1:] != sorted_rows[:-1], out=new_pair[1:])
    pair_starts = np.flatnonzero(new_pair)
    counts = np.diff(np.append(pair_starts, t))
    vocabulary = _vocabulary(runs, starts[first_run], lengths[first_run])
    return vocabulary, sorted_rows[pair_starts], ids[pair_starts], counts


def _add_by_owner(keys: np.ndarray, owner: np.ndarray, mixed: np.ndarray) -> None:
    """``keys[owner] += mixed`` summed per owner (owners come in runs, in ascending order)."""
    bounds = np.flatnonzero(np.concatenate(([True], owner[1:] != owner[:-1])))
    keys[owner[bounds]] += np.add.reduceat(mixed, bounds)


def _same_words(
    per: int,
    lengths: np.ndarray,
    first: np.ndarray,
    further: np.ndarray,
    at: np.ndarray,
    index: np.ndarray,
    new_word: np.ndarray,
) -> bool:
    """Whether each run in sorted ``index`` order has the chunks (so the code points) of the
    run before it, unless it begins a group: then every group holds one word."""
    same = ~new_word[1:]
    length, chunk = lengths[index], first[index]
    differ = length[1:] != length[:-1]
    differ |= chunk[1:] != chunk[:-1]
    if (differ & same).any():
        return False
    later = 1 + np.flatnonzero(same & (length[1:] > per))  # sorted positions to compare
    runs, before = index[later], index[later - 1]
    extra = (lengths[runs] - 1) // per
    step = np.arange(int(extra.sum())) - np.repeat(np.cumsum(extra) - extra, extra)
    mine = further[np.repeat(at[runs], extra) + step]
    theirs = further[np.repeat(at[before], extra) + step]
    return bool(np.array_equal(mine, theirs))


def _group_words_by_dictionary(
    runs: WordRuns,
) -> tuple[Vocabulary, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_group_words` with a dictionary of the words' strings: slower, never in doubt."""
    starts, lengths = runs.starts, runs.ends - runs.starts
    numbered: dict[str, int] = {}
    spans = zip(starts.tolist(), runs.ends.tolist(), strict=True)
    ids = np.array([numbered.setdefault(runs.text[s:e].lower(), len(numbered)) for s, e in spans])
    ids = ids.astype(np.int64)
    first_run = np.full(len(numbered), len(ids), dtype=np.int64)
    np.minimum.at(first_run, ids, np.arange(len(ids)))
    width = max(1, len(numbered))
    pairs, counts = np.unique(runs.rows * width + ids, return_counts=True)
    vocabulary = _vocabulary(runs, starts[first_run], lengths[first_run])
    return vocabulary, pairs // width, pairs % width, counts


def _vocabulary(runs: WordRuns, starts: np.ndarray, lengths: np.ndarray) -> Vocabulary:
    points, end = runs.points, len(runs.text)  # points[end] is padding: 0

    def code_points(ids: np.ndarray, depth: int) -> np.ndarray:
        return points[np.where(lengths[ids] > depth, starts[ids] + depth, end)]

    return Vocabulary(_Slices(runs.text, starts, starts + lengths), lengths, code_points)


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
    chosen = np.flatnonzero(vocabulary.lengths >= TOPIC_TERM_MIN_CHARS)
    k = TOPIC_TERM_COUNT
    if len(chosen) > k:
        counts = totals[chosen]
        cutoff = np.partition(counts, len(counts) - k)[len(counts) - k]  # the 25th largest
        above = chosen[counts > cutoff]
        tied = chosen[counts == cutoff]
        tied = _alphabetically_first(vocabulary, tied, k - len(above))
        chosen = np.concatenate((above, tied))
    ranked = sorted((-int(totals[w]), vocabulary.words[w], int(w)) for w in chosen)
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


# --- similarity ------------------------------------------------------------------------------


def _similarity(
    contents: Sequence[str],
    roles: Sequence[str],
    sizes: np.ndarray,
    rows: np.ndarray,
    ids: np.ndarray,
) -> np.ndarray:
    """Jaccard similarity of every earlier same-role pair, from packed bitsets of word ids.

    ``rows`` and ``ids`` are the distinct (message, word) pairs.
    """
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

    roles_of = np.array(roles)
    for role in dict.fromkeys(roles):
        group = np.flatnonzero(roles_of == role)
        _fill_group(similarity, group, bits[group], sizes[group], contents)
    return similarity


# Pairs compared at once: bounds the temporary (rows x earlier x words of bits) array.
_BLOCK = 1 << 20


def _fill_group(
    similarity: np.ndarray,
    group: np.ndarray,
    bits: np.ndarray,
    sizes: np.ndarray,
    contents: Sequence[str],
) -> None:
    """Set ``similarity[i, j]`` for every pair ``j < i`` of one role's messages ``group``."""
    g, width = bits.shape
    step = max(1, _BLOCK // max(1, g * width))
    for low in range(1, g, step):
        high = min(g, low + step)
        both = np.bitwise_count(bits[low:high, None, :] & bits[None, :high, :]).sum(axis=2)
        union = sizes[low:high, None] + sizes[None, :high] - both
        earlier = np.arange(high)[None, :] < np.arange(low, high)[:, None]
        r, c = np.nonzero(earlier)
        with np.errstate(invalid="ignore", divide="ignore"):
            similarity[group[r + low], group[c]] = both[r, c] / union[r, c]
        for i, j in zip(*np.nonzero(earlier & (union == 0)), strict=True):
            # two messages without words: equal text or nothing
            a, b = group[i + low], group[j]
            similarity[a, b] = 1.0 if contents[a] == contents[b] else 0.0
