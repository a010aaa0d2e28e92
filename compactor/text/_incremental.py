"""The text analysis kept up to date as messages come and go (the replay's agent loop): each
distinct content is analysed once, and the result equals :func:`compactor.text._profile.analyse`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np

from compactor.text._pairs import PairSimilarity
from compactor.text._profile import (  # noqa: F401 - analyse is for the doctest
    _PREFIX,
    TextAnalysis,
    WordCounts,
    _bitset,
    _lowers_in_place,
    _upper_triangle,
    analyse,
    topic_term_ids,
)
from compactor.text._wordids import Vocabulary, number_runs
from compactor.text._words import word_runs, words


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
        self._history = np.zeros(0, dtype=np.int64)  # per content: its copies in that history
        self._totals = np.zeros(64, dtype=np.int64)

    def register(self, contents: Sequence[str]) -> None:
        """Count the words of many contents at once (a replay's recorded messages)."""
        new = [c for c in dict.fromkeys(contents) if c not in self._content]
        if not new:
            return
        runs = word_runs(new)
        vocabulary, rows, local, counts, run_local = number_runs(runs)  # type: ignore[misc]
        known = list(vocabulary.words[: len(vocabulary)])
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
        numbers = self.numbers(contents, sources)
        topic_terms, topic_overlap = self.topics(numbers, range(n))
        similarity = self.similarities(numbers)
        code = {role: k for k, role in enumerate(dict.fromkeys(roles))}
        codes = np.fromiter(map(code.__getitem__, roles), np.int64, n)
        similarity[codes[:, None] != codes[None, :]] = np.nan
        similarity[_upper_triangle(n)] = np.nan  # only earlier messages: j < i
        similarity.flags.writeable = False
        pairs = PairSimilarity.given(similarity)
        return TextAnalysis(WordCounts(contents), topic_terms, tuple(topic_overlap), pairs)

    def numbers(
        self, contents: Sequence[str], sources: Sequence[str | None] | None = None
    ) -> np.ndarray:
        """Each content's number (see :meth:`analyse` for ``sources``); a content seen for the
        first time has its words counted."""
        n = len(contents)
        return np.fromiter(map(self._number, contents, sources or [None] * n), np.int64, n)

    def topics(
        self, numbers: np.ndarray, which: Iterable[int]
    ) -> tuple[tuple[tuple[str, int], ...], list[float]]:
        """The topic terms of the history of contents ``numbers`` (every occurrence counted)
        and the topic overlap of its messages at the positions ``which``."""
        totals = self._count_words(numbers)
        v = len(self._words)
        vocabulary = Vocabulary(self._words, self._lengths[:v], self._code_points)
        topic_ids = topic_term_ids(vocabulary, totals)
        topic_terms = tuple((self._words[w], int(totals[w])) for w in topic_ids)
        return topic_terms, self._overlap(numbers, which, topic_ids)

    def overlaps(self, numbers: np.ndarray, which: Sequence[int]) -> list[float]:
        """``topics(numbers, which)[1]`` alone: a loop that drops reads no term."""
        totals = self._count_words(numbers)
        v = len(self._words)
        vocabulary = Vocabulary(self._words, self._lengths[:v], self._code_points)
        return self._overlap(numbers, which, topic_term_ids(vocabulary, totals))

    def _overlap(
        self, numbers: np.ndarray, which: Iterable[int], topic_ids: list[int]
    ) -> list[float]:
        """The topic overlap of the contents ``numbers`` at the positions ``which``."""
        chosen = numbers[np.fromiter(which, np.int64)]
        bits = self._bits[chosen]
        sizes = self._sizes[chosen]
        # each content's bit for each topic term: how many of them it has
        terms = np.array(topic_ids, dtype=np.int64)
        shifts = (terms & 63).astype(np.uint64)
        hits = ((bits[:, terms >> 6] >> shifts) & np.uint64(1)).sum(axis=1, dtype=np.int64)
        overlap = np.divide(hits, sizes, out=np.zeros(len(chosen)), where=sizes > 0)
        return overlap.tolist()

    def similarities(self, numbers: np.ndarray, rows: Sequence[int] | None = None) -> np.ndarray:
        """The similarity of the contents ``numbers[rows]`` (all when None) with every content
        of ``numbers`` (any roles, both orders, the diagonal included), each pair computed the
        first time it is asked for. A new array."""
        chosen = numbers if rows is None else numbers[np.asarray(rows, dtype=np.int64)]
        similarity = self._pairs.take(chosen, axis=0).take(numbers, axis=1)
        missing = np.isnan(similarity)
        if missing.any():  # some contents meet for the first time
            self._meet(chosen, numbers, missing)
            similarity = self._pairs.take(chosen, axis=0).take(numbers, axis=1)
        return similarity

    def sizes(self, numbers: np.ndarray) -> list[int]:
        """Each content's number of distinct words."""
        return self._sizes[numbers].tolist()

    def similarity(self, a: int, b: int) -> float:
        """The similarity of contents ``a`` and ``b`` (as in :meth:`similarities`)."""
        known = self._pairs[a, b]
        if known == known:  # not NaN
            return float(known)
        both = int(np.bitwise_count(self._bits[a] & self._bits[b]).sum())
        union = int(self._sizes[a] + self._sizes[b]) - both
        # two contents without words: the same content, or nothing in common
        value = both / union if union > 0 else float(a == b)
        self._pairs[a, b] = self._pairs[b, a] = value
        return value

    def _count_words(self, numbers: np.ndarray) -> np.ndarray:
        """Every word's occurrences in the history ``numbers``: the last history's counts, plus
        the contents that came in, minus those that went (each content's counts added once)."""
        now = np.bincount(numbers, minlength=len(self._ids))
        before = self._history
        if len(before) < len(now):
            before = np.concatenate((before, np.zeros(len(now) - len(before), dtype=np.int64)))
        if len(self._totals) < len(self._words):
            grown = np.zeros(2 * len(self._words), dtype=np.int64)
            grown[: len(self._totals)] = self._totals
            self._totals = grown
        change = now - before
        for number in np.flatnonzero(change).tolist():
            self._totals[self._ids[number]] += int(change[number]) * self._counts[number]
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

    def _add_content(self, content: str, ids: np.ndarray, counts: np.ndarray | None = None) -> int:
        """Number a new content with its words' ids (all its words, or distinct with counts)."""
        if counts is None:  # np.unique's ids and counts, from one count per word id
            found = np.bincount(ids)
            ids = np.flatnonzero(found)
            counts = found[ids]
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

    def _meet(self, rows: np.ndarray, columns: np.ndarray, missing: np.ndarray) -> None:
        """Compute the similarities ``missing`` marks between contents ``rows`` (all of them
        among ``columns``) and ``columns``: each content met is compared with every column."""
        bits, sizes = self._bits[columns], self._sizes[columns]
        while True:
            by_row, by_column = missing.sum(axis=1), missing.sum(axis=0)
            r, c = int(by_row.argmax()), int(by_column.argmax())
            if by_row[r] == 0:
                return
            # the content new to most of the others first: its row fills the others' gaps
            a = int(rows[r] if by_row[r] >= by_column[c] else columns[c])
            k = int(np.flatnonzero(columns == a)[0])
            both = np.bitwise_count(bits & bits[k]).sum(axis=1)
            union = sizes[k] + sizes - both
            # two contents without words: the same content, or nothing in common
            same = columns == a
            row = np.divide(both, union, out=same.astype(float), where=union > 0)
            self._pairs[a, columns] = row
            self._pairs[columns, a] = row
            missing[rows == a, :] = False
            missing[:, same] = False
