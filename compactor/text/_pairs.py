"""The similarity of same-role message pairs, without an n x n matrix unless one is asked for.

Dedupe only needs the pairs whose Jaccard similarity reaches its threshold. Messages of one role
with the same word set form a class (similarity 1 within it; two messages without words are in
one class only when their contents are equal). Between classes, the pairs that can reach a
threshold ``t`` are found as a set-similarity join does (Bayardo, Ma and Srikant, "Scaling up
all pairs similarity search", 2007): order the words rarest first; a set of ``a`` words and one
of ``b`` words with Jaccard >= ``t`` share ``ceil(t * max(a, b))`` words or more, so each shares
a word within its first ``a - ceil(t * a) + 1`` (its prefix), and ``t <= a / b <= 1 / t``. Only
pairs that share a prefix word and pass the size filter are counted exactly (bitsets of the words
found in two classes or more), each similarity the same ``both / union`` the matrix holds.

The whole matrix (what the views, sweeps and strategies read) is computed when first read.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

# The prefix filter runs at the threshold less this margin, so that a pair whose rounded
# ``both / union`` reaches the threshold is never left out by the exact arithmetic of ``ceil``.
_MARGIN = 1e-9
# Candidate pairs counted at once: bounds the (pairs x words of bits) temporary.
_BLOCK = 1 << 20
# Thresholds whose pairs one similarity remembers (the last used): the analysis is shared by
# every run of one history (a sweep, the outcomes, a rerun after a budget move), and a run at
# another budget reads the same pairs.
_REMEMBERED = 16


@dataclass(frozen=True, eq=False)
class Reaching:
    """The pairs whose similarity reaches one threshold, by class.

    ``klass[i]`` is message i's class (same role, same word set; without words, same content),
    an int64 array (read-only): the walk reads it whole;
    ``self_reaches`` whether two messages of one class (similarity 1) reach the threshold;
    ``links[c]`` the other classes whose similarity with class c reaches it, as
    ``(class, similarity)`` pairs.
    """

    klass: np.ndarray
    self_reaches: bool
    links: dict[int, list[tuple[int, float]]]


class PairSimilarity:
    """``similarity[i, j]``, the Jaccard similarity of message i's word set with an earlier
    message j's of the same role (NaN for other pairs), as a whole :attr:`matrix` or, for one
    threshold, as the few pairs that reach it (:meth:`reaching`)."""

    def __init__(
        self,
        contents: Sequence[str],
        roles: Sequence[str],
        sizes: np.ndarray,
        rows: np.ndarray,
        ids: np.ndarray,
    ) -> None:
        self._contents, self._roles = contents, roles
        self._sizes, self._rows, self._ids = sizes, rows, ids
        self._matrix: np.ndarray | None = None
        # what the row and the join read, made the first time they are needed
        self._words: _Words | None = None
        self._codes: np.ndarray | None = None
        self._reached: dict[float, Reaching | None] = {}

    @classmethod
    def given(cls, matrix: np.ndarray) -> PairSimilarity:
        """A matrix computed elsewhere (another similarity, or a replay's cache of pairs)."""
        pairs = cls.__new__(cls)
        pairs._matrix = matrix
        pairs._rows = None  # type: ignore[assignment]
        return pairs

    def __len__(self) -> int:
        return len(self._matrix) if self._rows is None else len(self._sizes)  # type: ignore[arg-type]

    @property
    def computed(self) -> bool:
        """Whether the whole matrix is at hand (given, or read once)."""
        return self._matrix is not None

    @property
    def matrix(self) -> np.ndarray:
        """The whole n x n matrix, read-only; computed the first time it is read."""
        if self._matrix is None:
            self._matrix = _matrix(self._contents, self._roles, self._sizes, self._rows, self._ids)
            self._matrix.flags.writeable = False
        return self._matrix

    def row(self, i: int) -> np.ndarray:
        """``matrix[i]``: message i's similarity with each earlier message of its role (NaN
        for the others), without the matrix when it has not been read."""
        if self._matrix is not None:
            return self._matrix[i]
        words = self._words_of()
        n = len(self._sizes)
        out = np.full(n, np.nan)
        same = np.flatnonzero(self._role_codes()[:i] == self._role_codes()[i])
        if not len(same):
            return out
        mine = words.ids[words.bounds[i] : words.bounds[i + 1]]
        postings = np.concatenate([words.postings(w) for w in mine.tolist()] or [[]])
        both = np.bincount(postings.astype(np.int64), minlength=n)[same]
        union = self._sizes[i] + self._sizes[same] - both
        with np.errstate(invalid="ignore", divide="ignore"):
            values = both / union
        empty = union == 0  # two messages without words: equal text or nothing
        for k in np.flatnonzero(empty).tolist():
            values[k] = float(self._contents[i] == self._contents[int(same[k])])
        out[same] = values
        return out

    def reaching(self, threshold: float) -> Reaching | None:
        """The pairs whose similarity is at least ``threshold``, or None when the filters
        cannot narrow them (a threshold at or below 0) or the matrix is given: then read the
        :attr:`matrix`."""
        if self._rows is None or threshold - _MARGIN <= 0:
            return None
        if threshold in self._reached:  # read-only to its readers: the same pairs again
            return self._reached[threshold]
        classes = self._classes()
        if classes is None:  # two word sets share both hashes: compare on the matrix
            found = None
        else:
            klass, members = classes
            found = Reaching(klass, threshold <= 1.0, self._links(members, threshold))
        if len(self._reached) >= _REMEMBERED:
            del self._reached[next(iter(self._reached))]  # the oldest
        self._reached[threshold] = found
        return found

    # --- the classes and the join -------------------------------------------------------

    def _words_of(self) -> _Words:
        if self._words is None:
            self._words = _Words.of(self._rows, self._ids, len(self._sizes))
        return self._words

    def _role_codes(self) -> np.ndarray:
        if self._codes is None:
            kinds = dict.fromkeys(self._roles)  # numbered in the order first met
            n = len(self._roles)
            if len(kinds) <= 256:  # each a character, joined and read as bytes: all in C
                letter = {role: chr(k) for k, role in enumerate(kinds)}
                text = "".join(map(letter.__getitem__, self._roles)).encode("latin-1")
                self._codes = np.frombuffer(text, dtype=np.uint8).astype(np.int64)
            else:
                code = {role: k for k, role in enumerate(kinds)}
                self._codes = np.fromiter(map(code.__getitem__, self._roles), np.int64, n)
        return self._codes

    def _classes(self) -> tuple[np.ndarray, np.ndarray] | None:
        """Each message's class and each class's first message; None if two different word
        sets of one role share their hashes (never seen)."""
        sizes, roles, rows, ids = self._sizes, self._role_codes(), self._rows, self._ids
        n = len(sizes)
        mixed = _mix(ids.astype(np.uint64) + np.uint64(1))
        first = np.zeros(n, dtype=np.uint64)
        second = np.zeros(n, dtype=np.uint64)
        np.add.at(first, rows, mixed)  # a sum of mixed ids hashes a set, whatever its order
        np.add.at(second, rows, _mix(mixed ^ np.uint64(0x5851F42D4C957F2D)))
        # messages without words: a class per role and content
        empty = np.flatnonzero(sizes == 0)
        if len(empty):
            at = empty.tolist()
            met = list(zip(roles[empty].tolist(), map(self._contents.__getitem__, at), strict=True))
            # numbered in the order first met, each number looked up in C
            numbered = {key: k for k, key in enumerate(dict.fromkeys(met))}
            first[empty] = np.fromiter(map(numbered.__getitem__, met), np.uint64, len(met))
        # by role and size (one key: role * (largest size + 1) + size), then the two hashes;
        # stable, so in index order within a class
        kind = roles * (int(sizes.max(initial=0)) + 1) + sizes
        order = _by_two_keys(kind, first)
        keys = (roles[order], sizes[order], first[order], second[order])
        differ = [k[1:] != k[:-1] for k in keys]
        if (differ[3] & ~(differ[0] | differ[1] | differ[2])).any():
            # the second hash splits what the first joins (never seen): sort by it too
            order = np.lexsort((second, first, kind))
            keys = (roles[order], sizes[order], first[order], second[order])
            differ = [k[1:] != k[:-1] for k in keys]
        new = np.ones(n, dtype=bool)
        new[1:] = np.logical_or.reduce(differ)
        heads = order[new]  # each class's first message (the sort keeps index order within)
        klass = np.empty(n, dtype=np.int64)
        klass[order] = np.cumsum(new) - 1
        if not _same_sets(rows, ids, heads[klass]):
            return None
        klass.flags.writeable = False
        return klass, heads

    def _links(self, heads: np.ndarray, threshold: float) -> dict[int, list[tuple[int, float]]]:
        """The pairs of classes (same role, different word sets) whose similarity reaches
        ``threshold``, both ways."""
        rows, ids = self._rows, self._ids
        c, v = len(heads), int(ids.max()) + 1 if len(ids) else 1
        sizes, roles = self._sizes[heads], self._role_codes()[heads]
        # each class's words (its first message's), the class in place of the message
        class_of = np.full(len(self._sizes), -1, dtype=np.int64)
        class_of[heads] = np.arange(c)
        mine = class_of[rows] >= 0
        owner, word = class_of[rows[mine]], ids[mine]
        frequency = np.bincount(word, minlength=v)  # classes per word
        # rarest first (ties by id): each class's words in that order; a class's words are
        # distinct, so are the keys, and sorting them gives back each entry's class and word
        by_rank = np.argsort(frequency, kind="stable")
        rank = np.empty(v, dtype=np.int64)
        rank[by_rank] = np.arange(v)
        bits = (v - 1).bit_length()  # a rank in the low bits
        ordered = np.sort(owner << bits | rank[word])
        owner, word = ordered >> bits, by_rank[ordered & ((1 << bits) - 1)]
        counts = np.bincount(owner, minlength=c)
        step = np.arange(len(owner)) - np.repeat(np.cumsum(counts) - counts, counts)
        shared = np.flatnonzero(frequency >= 2)
        column = np.full(v, -1, dtype=np.int64)
        column[shared] = np.arange(len(shared))
        bits = _bitsets(owner, column[word], c, len(shared))
        t = threshold - _MARGIN
        found = _candidates(owner, word, step, sizes, roles, frequency, t, bits.shape[1])
        if found is None:  # the filters leave more pairs than there are: count them all
            found = _all_pairs(roles, bits.shape[1])
        links: dict[int, list[tuple[int, float]]] = {}
        seen: set[tuple[int, int]] = set()  # a pair may come in two blocks
        for x, y in found:
            both = np.bitwise_count(bits[x] & bits[y]).sum(axis=1, dtype=np.int64)
            with np.errstate(invalid="ignore", divide="ignore"):  # 0 / 0: two without words
                similarity = both / (sizes[x] + sizes[y] - both)
            reach = similarity >= threshold
            for p, q, value in zip(
                x[reach].tolist(), y[reach].tolist(), similarity[reach].tolist(), strict=True
            ):
                if (p, q) not in seen:
                    seen.add((p, q))
                    links.setdefault(p, []).append((q, value))
                    links.setdefault(q, []).append((p, value))
        return links


@dataclass(frozen=True)
class _Words:
    """Each message's distinct word ids (``ids[bounds[i]:bounds[i + 1]]``), and each word's
    messages (:meth:`postings`): what one row of the matrix reads."""

    ids: np.ndarray
    bounds: np.ndarray
    by_word: np.ndarray  # message numbers, grouped by word
    word_bounds: np.ndarray

    @classmethod
    def of(cls, rows: np.ndarray, ids: np.ndarray, n: int) -> _Words:
        order = np.argsort(rows, kind="stable")
        v = int(ids.max()) + 1 if len(ids) else 0
        bounds = np.searchsorted(rows[order], np.arange(n + 1))
        by_word = np.argsort(ids, kind="stable")
        word_bounds = np.searchsorted(ids[by_word], np.arange(v + 1))
        return cls(ids[order], bounds, rows[by_word], word_bounds)

    def postings(self, w: int) -> np.ndarray:
        return self.by_word[self.word_bounds[w] : self.word_bounds[w + 1]]


_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)


def _by_two_keys(major: np.ndarray, minor: np.ndarray) -> np.ndarray:
    """``np.lexsort((minor, major))``: by ``major``, then ``minor``, stable. ``major`` (small
    non-negative integers: a class's role and size) is sorted as 16-bit integers when it fits
    them, which numpy sorts stably by radix, not by comparisons."""
    order = np.argsort(minor, kind="stable")
    small = len(major) and int(major.min()) >= 0 and int(major.max()) < 1 << 16
    ranked = major[order].astype(np.uint16) if small else major[order]
    return order[np.argsort(ranked, kind="stable")]


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser, so that a sum of mixed ids hashes a set."""
    x = x ^ (x >> np.uint64(30))
    x = x * _MIX_1
    x ^= x >> np.uint64(27)
    x *= _MIX_2
    x ^= x >> np.uint64(31)
    return x


def _same_sets(rows: np.ndarray, ids: np.ndarray, head: np.ndarray) -> bool:
    """Whether every message has exactly the words of ``head[i]``, its class's first message
    (the sets' sizes are equal, so each word of one found in the other is enough)."""
    later = head[rows] != rows
    if not later.any():
        return True
    n = len(head)
    # each (message, word) pair as word * n + message: the analysis lists the pairs by word,
    # then message, so the keys are mostly sorted already (sorted here when not)
    theirs = ids.astype(np.int64) * n + rows
    if not (theirs[1:] > theirs[:-1]).all():
        theirs = np.sort(theirs)
    wanted = ids[later].astype(np.int64) * n + head[rows[later]]
    found = np.searchsorted(theirs, wanted)
    return bool((theirs[np.minimum(found, len(theirs) - 1)] == wanted).all())


def _candidates(
    owner: np.ndarray,
    word: np.ndarray,
    step: np.ndarray,
    sizes: np.ndarray,
    roles: np.ndarray,
    frequency: np.ndarray,
    t: float,
    width: int,
) -> Iterator[tuple[np.ndarray, np.ndarray]] | None:
    """The pairs of classes ``(x, y)`` of one role that can reach Jaccard ``t``, x before y in
    (size, class) order, in blocks: a word of y's probe prefix in x's index prefix, and
    ``size(x) >= t * size(y)``. None when they outnumber the role's pairs of classes.

    ``owner``, ``word`` and ``step`` list each class's words rarest first, ``step`` the
    position. For ``a <= b`` words, Jaccard >= t means at least ``t / (1 + t) * (a + b) >=
    2t / (1 + t) * a`` shared, so x shares a word within its first ``a - ceil(2t/(1+t) a) + 1``
    (the index prefix) with y's first ``b - ceil(t b) + 1`` (the probe prefix).
    """
    c = len(sizes)
    a = sizes[owner]
    useful = frequency[word] >= 2  # a word of one class is shared with none
    probe = useful & (step < a - np.ceil(t * a).astype(np.int64) + 1)
    index = useful & (step < a - np.ceil(2 * t / (1 + t) * a).astype(np.int64) + 1)
    # each class's place in (size, class) order, and each word's list sorted by it
    place = np.empty(c, dtype=np.int64)
    by_size = np.argsort(sizes, kind="stable")
    place[by_size] = np.arange(c)
    entries = np.flatnonzero(probe)
    listed = roles[owner[entries]] * len(frequency) + word[entries]
    key = listed * c + place[owner[entries]]
    bits = len(owner).bit_length()
    if (int(roles.max(initial=0)) + 1) * len(frequency) * c << bits < 1 << 63:
        # the keys are distinct (a class's words are): sorted with each entry in the low
        # bits, which give it back (a sort of values, not of indices)
        packed = np.sort(key << bits | entries)
        entries, key = packed & ((1 << bits) - 1), packed >> bits
        listed = key // c
    else:
        order = np.argsort(key)
        entries, key, listed = entries[order], key[order], listed[order]
    indexed = index[entries]
    keys_i, owners_i = key[indexed], owner[entries[indexed]]
    # for each probe entry y: the index entries of its list before it, of size >= t * size(y)
    least = np.ceil(t * sizes[owner[entries]]).astype(np.int64)
    start = np.searchsorted(keys_i, listed * c + np.searchsorted(sizes[by_size], least))
    count = np.maximum(np.searchsorted(keys_i, key) - start, 0)
    of_role = np.bincount(roles)
    if int(count.sum()) > int((of_role * (of_role - 1) // 2).sum()):
        return None
    return _blocks(owner[entries], start, count, owners_i, c, max(1, _BLOCK // width))


def _blocks(
    y_owner: np.ndarray,
    start: np.ndarray,
    count: np.ndarray,
    owners_i: np.ndarray,
    c: int,
    size: int,
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The candidate pairs, about ``size`` at a time, each block's pairs distinct: probe
    entry k pairs with ``owners_i[start[k]:start[k] + count[k]]``."""
    ends = np.cumsum(count)
    at = 0
    while at < len(count):
        stop = max(at + 1, int(np.searchsorted(ends, ends[at] - count[at] + size, "right")))
        part = slice(at, stop)
        number = count[part]
        step = np.arange(int(number.sum())) - np.repeat(np.cumsum(number) - number, number)
        x = owners_i[np.repeat(start[part], number) + step]
        y = np.repeat(y_owner[part], number)
        # a sort, then the first of each run (np.unique hashes, slower)
        pair = np.sort(x * c + y)
        pair = pair[np.concatenate(([True], pair[1:] != pair[:-1]))] if len(pair) else pair
        yield pair // c, pair % c
        at = stop


def _all_pairs(roles: np.ndarray, width: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Every pair of classes of one role, in blocks (the filters' fallback)."""
    for role in np.unique(roles).tolist():
        group = np.flatnonzero(roles == role)
        rows_at_once = max(1, _BLOCK // max(1, width) // len(group))
        for low in range(1, len(group), rows_at_once):
            high = min(len(group), low + rows_at_once)
            i, j = np.nonzero(np.arange(high)[None, :] < np.arange(low, high)[:, None])
            yield group[j], group[i + low]


def _bitsets(owner: np.ndarray, column: np.ndarray, c: int, width: int) -> np.ndarray:
    """Per class, its shared words (``column`` >= 0) as packed 64-bit words of bits."""
    words = (max(1, width) + 63) // 64
    bits = np.zeros(c * words, dtype=np.uint64)
    keep = column >= 0
    flat = owner[keep] * words + (column[keep] >> 6)
    # a class's words are distinct, so are their bits: adding them is or-ing them (and the
    # sum's ufunc.at is numpy's fast one)
    np.add.at(bits, flat, np.uint64(1) << (column[keep] & 63).astype(np.uint64))
    return bits.reshape(c, words)


# --- the whole matrix --------------------------------------------------------------------


def _matrix(
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
