"""What the text of a conversation decides on its own, whatever the parameters.

Words, topic terms, topic overlap and the similarity of every pair of same-role messages depend
only on the contents and roles, so they are computed once per conversation and reused by every
stage, sweep and view.

Word ids come from one integer sort rather than a dictionary per word (:mod:`compactor.wordids`),
and similarities from bitsets of word ids rather than pairwise set operations.

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
from compactor.text import word_runs, words
from compactor.wordids import Vocabulary, group_words, group_words_by_dictionary, number_runs


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


def analyse(contents: Sequence[str], roles: Sequence[str]) -> TextAnalysis:
    """Analyse a conversation's text (see :class:`TextAnalysis`)."""
    n = len(contents)
    runs = word_runs(contents)
    grouped = group_words(runs)
    if grouped is None:  # two different words share a key: number them exactly instead
        grouped = group_words_by_dictionary(runs)
    vocabulary, rows, ids, counts = grouped
    totals = np.bincount(ids, weights=counts, minlength=len(vocabulary)).astype(np.int64)
    sizes = np.bincount(rows, minlength=n)
    topic_terms, topic_overlap = topics(vocabulary, totals, rows, ids, sizes)
    similarity = _similarity(contents, roles, sizes, rows, ids)
    similarity.flags.writeable = False
    return TextAnalysis(WordCounts(contents), topic_terms, topic_overlap, similarity)


class IncrementalAnalysis:
    """:func:`analyse` for a sequence of histories that share most of their contents.

    A replay analyses every turn's history: the previous turn's output (contents it has seen,
    or prefixes of them) plus one new message. Here the words of each distinct content are
    counted once, against a running vocabulary (those of :meth:`register`-ed contents in one
    vectorised pass, a prefix's from its source's word positions), and the similarity of two
    contents is computed the first time they meet. A history's topic terms, overlaps and
    similarity matrix are assembled from those with the functions :func:`analyse` uses, so the
    result is the same.

    >>> incremental = IncrementalAnalysis()
    >>> history = ["the order left Lyon", "where is the order", "the order left Lyon"]
    >>> roles = ["user", "assistant", "user"]
    >>> a, b = incremental.analyse(history, roles), analyse(history, roles)
    >>> a.topic_terms == b.topic_terms, a.topic_overlap == b.topic_overlap
    (True, True)
    """

    def __init__(self) -> None:
        self._content: dict[str, int] = {}  # content -> its number
        self._ids: list[np.ndarray] = []  # per content: its distinct words' ids
        self._counts: list[np.ndarray] = []  # per content: how often each occurs
        #: per content, when known: (starts, ends, word id) of its words, in order
        self._runs: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self._word: dict[str, int] = {}  # word -> its id
        self._words: list[str] = []
        self._lengths = np.zeros(64, dtype=np.int64)
        self._prefixes = np.zeros((64, _PREFIX), dtype=np.uint32)  # first code points, 0-padded
        self._pairs = np.full((16, 16), np.nan)  # similarity of two contents once computed
        self._sizes = np.zeros(16, dtype=np.int64)  # per content: its distinct words
        self._bits = np.zeros((16, 1), dtype=np.uint64)  # per content: its words as bits
        #: the last history analysed (content numbers, with multiplicity) and its word counts
        self._history: Counter[int] = Counter()
        self._totals = np.zeros(64, dtype=np.int64)

    def register(self, contents: Sequence[str]) -> None:
        """Count the words of many contents at once (a replay's recorded messages)."""
        new = [c for c in dict.fromkeys(contents) if c not in self._content]
        if not new:
            return
        runs = word_runs(new)
        vocabulary, rows, local, counts, run_local = number_runs(runs)  # type: ignore[misc]
        known = [vocabulary.words[w] for w in range(len(vocabulary))]
        self._add_words([w for w in known if w not in self._word])
        to_global = np.fromiter(map(self._word.__getitem__, known), np.int64, len(known))
        by_row = np.argsort(rows, kind="stable")
        pair_bounds = np.searchsorted(rows[by_row], np.arange(len(new) + 1))
        ids, counts = to_global[local[by_row]], counts[by_row]
        run_ids = to_global[run_local]
        run_bounds = np.searchsorted(runs.rows, np.arange(len(new) + 1))
        for k, content in enumerate(new):
            pairs = slice(pair_bounds[k], pair_bounds[k + 1])
            number = self._add_content(content, ids[pairs], counts[pairs])
            if _lowers_in_place(content):
                at, offset = slice(run_bounds[k], run_bounds[k + 1]), runs.offsets[k]
                self._runs[number] = (runs.starts[at] - offset, runs.ends[at] - offset, run_ids[at])

    def analyse(
        self,
        contents: Sequence[str],
        roles: Sequence[str],
        sources: Sequence[str | None] | None = None,
    ) -> TextAnalysis:
        """The analysis of one history, equal to ``analyse(contents, roles)``.

        ``sources[k]``, when given, is a content that ``contents[k]`` may be a prefix of (the
        recorded message a trim cut it from): its words then come from the source's.
        """
        n = len(contents)
        sources = sources or [None] * n
        numbers = np.fromiter(map(self._number, contents, sources), np.int64, n)
        totals = self._count_words(numbers)
        v = len(self._words)
        vocabulary = Vocabulary(self._words, self._lengths[:v], self._code_points)
        topic_ids = topic_term_ids(vocabulary, totals)
        topic_terms = tuple((self._words[w], int(totals[w])) for w in topic_ids)
        bits = self._bits[numbers]
        sizes = self._sizes[numbers]
        # each content's bit for each topic term: how many of them it has
        terms = np.array(topic_ids, dtype=np.int64)
        shifts = (terms & 63).astype(np.uint64)
        hits = ((bits[:, terms >> 6] >> shifts) & np.uint64(1)).sum(axis=1, dtype=np.int64)
        overlap = np.divide(hits, sizes, out=np.zeros(n), where=sizes > 0)
        topic_overlap = tuple(overlap.tolist())

        similarity = self._pairs.take(numbers, axis=0).take(numbers, axis=1)
        if np.isnan(similarity).any():  # some contents meet for the first time
            self._meet(numbers, bits, sizes)
            similarity = self._pairs.take(numbers, axis=0).take(numbers, axis=1)
        code = {role: k for k, role in enumerate(dict.fromkeys(roles))}
        codes = np.fromiter(map(code.__getitem__, roles), np.int64, n)
        similarity[codes[:, None] != codes[None, :]] = np.nan
        similarity[_upper_triangle(n)] = np.nan  # only earlier messages: j < i
        similarity.flags.writeable = False
        return TextAnalysis(WordCounts(contents), topic_terms, topic_overlap, similarity)

    def _count_words(self, numbers: np.ndarray) -> np.ndarray:
        """Every word's occurrences in the history ``numbers``: the last history's counts, plus
        the contents that came in, minus those that went (each content's counts added once)."""
        now = Counter(numbers.tolist())
        if len(self._totals) < len(self._words):
            grown = np.zeros(2 * len(self._words), dtype=np.int64)
            grown[: len(self._totals)] = self._totals
            self._totals = grown
        for number, times in (now - self._history).items():
            self._totals[self._ids[number]] += times * self._counts[number]
        for number, times in (self._history - now).items():
            self._totals[self._ids[number]] -= times * self._counts[number]
        self._history = now
        return self._totals[: len(self._words)]

    def _number(self, content: str, source: str | None = None) -> int:
        """The content's number, counting its words the first time it is seen."""
        number = self._content.get(content)
        if number is not None:
            return number
        known = self._runs.get(self._content.get(source, -1)) if source is not None else None
        if known is not None and source.startswith(content):  # type: ignore[union-attr]
            return self._add_prefix(content, *known)
        counted = Counter(words(content))
        self._add_words([word for word in counted if word not in self._word])
        ids = np.fromiter(map(self._word.__getitem__, counted), np.int64, len(counted))
        return self._add_content(content, ids, np.fromiter(counted.values(), np.int64))

    def _add_prefix(
        self, content: str, starts: np.ndarray, ends: np.ndarray, ids: np.ndarray
    ) -> int:
        """Number ``content``, a prefix of a content whose words are ``ids`` at ``starts:ends``:
        the words that end within it, and the one it cuts short, if any."""
        cut = len(content)
        whole = int(np.searchsorted(ends, cut, side="right"))
        cut_short = whole < len(starts) and starts[whole] < cut
        if cut_short:
            word = content[int(starts[whole]) :].lower()
            self._add_words([word] if word not in self._word else [])
            ids = np.append(ids[:whole], self._word[word])
            starts, ends = starts[: whole + 1], np.append(ends[:whole], cut)
        else:
            starts, ends, ids = starts[:whole], ends[:whole], ids[:whole]
        number = self._add_content(content, ids)
        self._runs[number] = (starts, ends, ids)
        return number

    def _add_content(
        self, content: str, ids: np.ndarray, counts: np.ndarray | None = None
    ) -> int:
        """Number a new content with its words' ids (all its words, or distinct with counts)."""
        if counts is None:
            ids, counts = np.unique(ids, return_counts=True)
        number = self._content[content] = len(self._ids)
        self._ids.append(ids)
        self._counts.append(counts)
        width = (len(self._words) + 63) // 64
        rows, columns = self._bits.shape
        if number >= rows or width > columns:
            grown = np.zeros((max(rows, 2 * number), max(columns, 2 * width)), dtype=np.uint64)
            grown[:rows, :columns] = self._bits
            self._bits = grown
            self._sizes = np.resize(self._sizes, len(grown))
        if number >= len(self._pairs):
            pairs = np.full((2 * number, 2 * number), np.nan)
            pairs[: len(self._pairs), : len(self._pairs)] = self._pairs
            self._pairs = pairs
        self._bits[number] = _bitset(ids, self._bits.shape[1])
        self._sizes[number] = len(ids)
        return number

    def _add_words(self, new: list[str]) -> None:
        if not new:
            return
        start = len(self._words)
        self._word.update(zip(new, range(start, start + len(new)), strict=True))
        self._words.extend(new)
        end = len(self._words)
        if end > len(self._lengths):
            grown = max(2 * len(self._lengths), end)
            self._lengths = np.resize(self._lengths, grown)
            self._prefixes = np.resize(self._prefixes, (grown, _PREFIX))
        self._lengths[start:end] = np.fromiter(map(len, new), np.int64, len(new))
        # the first code points of each word, 0-padded: one fixed-width array from UTF-32
        heads = "".join(w[:_PREFIX].ljust(_PREFIX, "\0") for w in new)
        self._prefixes[start:end] = np.frombuffer(
            heads.encode("utf-32-le", "surrogatepass"), dtype="<u4"
        ).reshape(-1, _PREFIX)

    def _code_points(self, ids: np.ndarray, depth: int) -> np.ndarray:
        if depth < _PREFIX:
            return self._prefixes[ids, depth]
        chosen = map(self._words.__getitem__, ids)
        return np.array([ord(w[depth]) if len(w) > depth else 0 for w in chosen], dtype=np.int64)

    def _meet(self, numbers: np.ndarray, bits: np.ndarray, sizes: np.ndarray) -> None:
        """Compute the similarity of every pair of the history's contents not yet computed.

        ``bits`` and ``sizes`` are those contents' word bitsets and distinct word counts.
        """
        missing = np.isnan(self._pairs[np.ix_(numbers, numbers)])
        unknown = missing.sum(axis=1)
        # the contents new to most of the others first: their rows fill the others' gaps
        for k in np.argsort(-unknown, kind="stable")[: np.count_nonzero(unknown)]:
            if not missing[k].any():
                continue
            a = numbers[k]
            both = np.bitwise_count(bits & bits[k]).sum(axis=1)
            union = sizes[k] + sizes - both
            # two contents without words: the same content, or nothing in common
            same = numbers == a
            row = np.divide(both, union, out=same.astype(float), where=union > 0)
            self._pairs[a, numbers] = row
            self._pairs[numbers, a] = row
            missing[same, :] = False
            missing[:, same] = False


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
