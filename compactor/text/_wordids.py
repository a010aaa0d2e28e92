"""Word ids: every distinct word of a history numbered, without a Python object per word.

The words are runs of code points (:func:`~.words.word_runs`). Each run gets a 64-bit key
from its bytes read eight at a time, and one sort of plain integers (the run's index in the low
bits) groups equal keys, the first run of a group being the word's first occurrence. A group is
one word only if every run in it has the same bytes as the run before it, which is checked
exactly on the same reads; should two different words ever share a key, a dictionary of the
words' strings numbers them instead.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from compactor.text._words import WordRuns


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
        if isinstance(w, slice):  # many at once: the bounds read as plain ints in one step
            starts, ends = self._starts[w].tolist(), self._ends[w].tolist()
            text = self._text
            return [text[a:b].lower() for a, b in zip(starts, ends, strict=True)]
        # the runs' text may not be lower-cased; per code point, it lowers to the word
        return self._text[int(self._starts[w]) : int(self._ends[w])].lower()


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


def group_words(runs: WordRuns) -> tuple[Vocabulary, np.ndarray, np.ndarray, np.ndarray] | None:
    """Number the words, and list the distinct (message, word) pairs with their counts.

    Returns ``(vocabulary, rows, ids, counts)``, or None when a key is shared by two different
    words (never seen in practice; the caller then numbers the words exactly).
    """
    numbered = number_runs(runs, exactly=False)
    return None if numbered is None else numbered[:4]


def number_runs(
    runs: WordRuns, exactly: bool = True
) -> tuple[Vocabulary, np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """:func:`group_words` plus the word id of every run, in ``runs``' own order:
    ``(vocabulary, rows, ids, counts, run_ids)``. When two words share a key it numbers them
    with a dictionary, or returns None if not ``exactly``."""
    sorted_runs = _sort_runs(runs)
    if sorted_runs is None:
        if not exactly:
            return None
        vocabulary, run_ids = _number_by_dictionary(runs)
        width = max(1, len(vocabulary))
        pairs, counts = np.unique(runs.rows * width + run_ids, return_counts=True)
        return vocabulary, pairs // width, pairs % width, counts, run_ids
    index, new_word, vocabulary = sorted_runs
    ids = np.cumsum(new_word) - 1  # the word id of each run, in sorted order
    sorted_rows = runs.rows[index]
    new_pair = new_word.copy()
    np.logical_or(new_pair[1:], sorted_rows[1:] != sorted_rows[:-1], out=new_pair[1:])
    pair_starts = np.flatnonzero(new_pair)
    counts = np.diff(np.append(pair_starts, len(index)))
    run_ids = np.empty(len(index), dtype=np.int64)
    if exactly:  # only wanted then
        run_ids[index] = ids
    return vocabulary, sorted_rows[pair_starts], ids[pair_starts], counts, run_ids


def _sort_runs(runs: WordRuns) -> tuple[np.ndarray, np.ndarray, Vocabulary] | None:
    """The runs sorted so that each word's runs are together, first occurrence first:
    ``(index, new_word, vocabulary)``, ``new_word`` marking where each word begins; None when
    two different words share a key."""
    starts = runs.starts
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
    if not _same_words(chunks.per, lengths, first, further, at, index, new_word):
        return None
    first_run = index[np.flatnonzero(new_word)]
    return index, new_word, _vocabulary(runs, starts[first_run], lengths[first_run])


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


def group_words_by_dictionary(
    runs: WordRuns,
) -> tuple[Vocabulary, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`group_words` with a dictionary of the words' strings: slower, never in doubt."""
    vocabulary, run_ids = _number_by_dictionary(runs)
    width = max(1, len(vocabulary))
    pairs, counts = np.unique(runs.rows * width + run_ids, return_counts=True)
    return vocabulary, pairs // width, pairs % width, counts


def _number_by_dictionary(runs: WordRuns) -> tuple[Vocabulary, np.ndarray]:
    starts, lengths = runs.starts, runs.ends - runs.starts
    numbered: dict[str, int] = {}
    spans = zip(starts.tolist(), runs.ends.tolist(), strict=True)
    ids = np.array([numbered.setdefault(runs.text[s:e].lower(), len(numbered)) for s, e in spans])
    ids = ids.astype(np.int64)
    first_run = np.full(len(numbered), len(ids), dtype=np.int64)
    np.minimum.at(first_run, ids, np.arange(len(ids)))
    return _vocabulary(runs, starts[first_run], lengths[first_run]), ids


def _vocabulary(runs: WordRuns, starts: np.ndarray, lengths: np.ndarray) -> Vocabulary:
    points, end = runs.points, len(runs.text)  # points[end] is padding: 0

    def code_points(ids: np.ndarray, depth: int) -> np.ndarray:
        return points[np.where(lengths[ids] > depth, starts[ids] + depth, end)]

    return Vocabulary(_Slices(runs.text, starts, starts + lengths), lengths, code_points)
