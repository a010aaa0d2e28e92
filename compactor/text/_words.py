"""Text helpers of the contract: words, similarity, sentence ends and the trim's cut."""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import regex

from compactor.contract import FULL_WIDTH_SENTENCE_ENDS, SENTENCE_CUT_MIN_SHARE, SENTENCE_ENDS

#: A word is a maximal run of Unicode letters and digits (the contract's ``[^\W_]+``).
WORD = re.compile(r"[^\W_]+")

_ASCII_NON_WORD = str.maketrans(
    {c: " " for c in map(chr, range(128)) if not (c.isascii() and c.isalnum())}
)
# Exactly the characters for which Python's ``str.isspace()`` is true (a unit test checks this
# against every code point); the contract's "whitespace" after a sentence end.
WHITESPACE = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
    "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
# A sentence end, searched backwards: a terminator followed by whitespace or the end of the text,
# or a full-width terminator, after which CJK text puts no space.
_HALF_WIDTH = "".join(sorted(SENTENCE_ENDS - FULL_WIDTH_SENTENCE_ENDS))
_FULL_WIDTH = "".join(sorted(FULL_WIDTH_SENTENCE_ENDS))
_SENTENCE_END_PATTERN = (
    f"[{re.escape(_HALF_WIDTH)}](?=[{re.escape(WHITESPACE)}])|[{re.escape(_FULL_WIDTH)}]"
)
_SENTENCE_END = regex.compile(f"(?r)(?:{_SENTENCE_END_PATTERN})")
# The same sentence ends, searched forwards (to find every one at once); an end at the very end
# of a text is the caller's to add.
_SENTENCE_END_FORWARD = re.compile(_SENTENCE_END_PATTERN)
_GRAPHEME = regex.compile(r"\X")
# How far back to look for a position that is certainly a grapheme boundary before walking
# clusters forward from it (a walk from the start of the text is always correct, just slower).
_SAFE_START_WINDOW = 256


def words(text: str) -> list[str]:
    """The words of ``text``: maximal runs of letters and digits in ``text.lower()``.

    >>> words("Where is DE-4471? At 03:10.")
    ['where', 'is', 'de', '4471', 'at', '03', '10']
    """
    lowered = text.lower()
    if lowered.isascii():
        # Same words as the regular expression, about 2.5 times faster: in ASCII the letters and
        # digits are exactly [a-z0-9], so every other character can become a space to split on.
        return lowered.translate(_ASCII_NON_WORD).split()
    return WORD.findall(lowered)


@dataclass(frozen=True, eq=False)
class WordRuns:
    """Every word of many texts, as code-point runs in their lower-cased concatenation.

    ``text`` is the texts joined by one space (never part of a word), lower-cased or not:
    ``text[starts[k]:ends[k]].lower()`` is the k-th word, and ``rows[k]`` the text it is in.
    ``points`` holds one unsigned integer of ``unit`` bytes per code point of ``text.lower()``,
    then
    :data:`PADDING` zeros, so that eight bytes can be read from any position: the code point
    itself inside words (elsewhere it may be a space), in as few bytes as the words allow.
    """

    text: str
    unit: int
    points: np.ndarray
    starts: np.ndarray
    ends: np.ndarray
    rows: np.ndarray
    offsets: np.ndarray  # where each text begins in ``text``


PADDING = 8


def word_runs(texts: Sequence[str]) -> WordRuns:
    """The words of ``texts`` as :class:`WordRuns`, found without a regular expression.

    Each code point is classified by a table lookup (:func:`word_characters`), and the runs of
    letters and digits are where the classification changes: the same runs as ``words`` finds,
    as positions instead of strings.
    """
    text = " ".join(texts)
    lengths = np.fromiter(map(len, texts), np.int64, len(texts))
    if text.isascii():
        text = text.lower()
        data = (text + "\0" * PADDING).encode("ascii")
        unit, points = 1, np.frombuffer(data, dtype=np.uint8)
        # each byte classified by bytes.translate (a C loop over the text, no index array)
        is_word = np.frombuffer(data.translate(_ascii_word_bytes()), dtype=bool)
    else:
        unit, points = _lowered_points(text)
        if unit == 0:  # lower-casing needs the texts themselves
            lowered = [t.lower() for t in texts]
            text = " ".join(lowered)
            lengths = np.fromiter(map(len, lowered), np.int64, len(lowered))
            unit, points = _points(text)
        is_word = _classify(points)
        if not (is_word & (points > 0xFF)).any():
            # Only the non-word code points need more than a byte (typographic quotes in
            # Latin text): as spaces, every code point fits one byte, eight to a read.
            unit, points = 1, np.where(is_word, points, 32).astype(np.uint8)
            points[-PADDING:] = 0
    edges = np.flatnonzero(np.diff(is_word, prepend=False, append=False))
    starts, ends = edges[0::2], edges[1::2]
    ends_of = np.cumsum(lengths + 1) - 1
    per_text = np.diff(np.searchsorted(starts, ends_of), prepend=0)
    rows = np.repeat(np.arange(len(texts)), per_text)
    offsets = ends_of - lengths
    return WordRuns(text, unit, points, starts, ends, rows, offsets)


# The word-character table covers every code point below this (all the letters and digits of
# Unicode 15.1); beyond it code points are classified one by one.
_TABLE_SIZE = 0x32400


@functools.cache
def word_characters() -> np.ndarray:
    """``table[c]``: whether code point ``c`` is a letter or digit to the contract's ``WORD``.

    Built once (about 20 ms) by running that very expression over every code point of the
    table, so the two cannot disagree.
    """
    table = np.zeros(_TABLE_SIZE, dtype=bool)
    every = np.arange(_TABLE_SIZE, dtype="<u4").tobytes().decode("utf-32-le", "surrogatepass")
    for match in WORD.finditer(every):
        table[match.start() : match.end()] = True
    table.flags.writeable = False
    return table


@functools.cache
def _ascii_word_bytes() -> bytes:
    """:func:`word_characters` of the code points below 256 as a ``bytes.translate`` table:
    byte 1 for a word character, 0 for any other."""
    return word_characters()[:256].astype(np.uint8).tobytes()


# Lower-casing is one code point to one code point, context-free, except for these two: U+0130
# becomes two code points, and a capital sigma depends on its neighbours (final sigma).
_LOWER_NEEDS_TEXT = ("\u0130", "\u03a3")


def _points(text: str) -> tuple[int, np.ndarray]:
    """``(unit, points)``: ``text`` plus padding as UTF-16 units, or UTF-32 when it needs to."""
    padded = text + "\0" * PADDING
    data = padded.encode("utf-16-le", "surrogatepass")
    if len(data) == 2 * len(padded):
        return 2, np.frombuffer(data, dtype="<u2")
    # a code point above U+FFFF takes two UTF-16 units
    return 4, np.frombuffer(padded.encode("utf-32-le", "surrogatepass"), dtype="<u4")


def _lowered_points(text: str) -> tuple[int, np.ndarray]:
    """:func:`_points` of ``text.lower()``, lower-cased by a table lookup; ``(0, ...)`` when
    that cannot be done (a code point above U+FFFF, or one of the two exceptions)."""
    unit, points = _points(text)
    if unit != 2 or any(c in text for c in _LOWER_NEEDS_TEXT):
        return 0, points
    return 2, _lowercase_table()[points]


@functools.cache
def _lowercase_table() -> np.ndarray:
    """``table[c]``: ``ord(chr(c).lower())`` for every code point up to U+FFFF (U+0130 and
    U+03A3, which :func:`_lowered_points` never looks up, map to themselves)."""
    every = np.arange(0x10000, dtype="<u2")
    every[[0x130, 0x3A3]] = 0  # placeholders, so that lower() maps one to one
    lowered = every.tobytes().decode("utf-16-le", "surrogatepass").lower()
    table = np.frombuffer(lowered.encode("utf-16-le", "surrogatepass"), dtype="<u2").copy()
    table[[0x130, 0x3A3]] = [0x130, 0x3A3]
    table.flags.writeable = False
    return table


def _classify(points: np.ndarray) -> np.ndarray:
    table = word_characters()
    if len(points) == 0 or int(points.max()) < _TABLE_SIZE:
        return table[points]
    is_word = table[np.minimum(points, _TABLE_SIZE - 1)]
    beyond = points >= _TABLE_SIZE
    for point in np.unique(points[beyond]):
        is_word[points == point] = WORD.fullmatch(chr(point)) is not None
    return is_word


def word_spans(text: str) -> Iterator[tuple[int, int, str]]:
    """Yield ``(start, end, word)`` for each run of letters and digits in ``text`` itself.

    For highlighting words in the original text; ``word`` is the run lower-cased.
    """
    for match in WORD.finditer(text):
        yield match.start(), match.end(), match.group().lower()


def jaccard(a: Collection[str], b: Collection[str], a_text: str, b_text: str) -> float:
    """Similarity of two messages: Jaccard of their word sets.

    When both word sets are empty it is 1.0 if the two contents are identical, else 0.0.
    """
    if not a and not b:
        return 1.0 if a_text == b_text else 0.0
    shared = len(a & b) if isinstance(a, (set, frozenset)) else len(set(a) & set(b))
    return shared / (len(a) + len(b) - shared)


def last_sentence_end(text: str, limit: int, lowest: int = 0) -> int | None:
    """The largest sentence boundary ``p <= limit`` in ``text``, or None if there is none.

    ``p`` is a boundary when the character before it is one of ``. ! ? …`` or ``。 ！ ？`` and
    ``p`` is the end of the text, or the character at ``p`` is whitespace, or the character
    before ``p`` is full-width. Boundaries below ``lowest`` are not looked for (None).
    """
    if limit <= 0 or limit < lowest:
        return None
    if len(text) <= limit and text[-1:] in SENTENCE_ENDS:
        return len(text) if len(text) >= lowest else None
    # Searching backwards from ``limit + 1`` lets the lookahead see the character at ``limit``;
    # a full-width end found at index ``limit`` itself would give ``p = limit + 1``.
    start = max(0, lowest - 1)  # a terminator at start gives p = start + 1 >= lowest
    match = _SENTENCE_END.search(text, start, limit + 1)
    if match is not None and match.end() > limit:
        match = _SENTENCE_END.search(text, start, limit)
    return None if match is None else match.end()


def grapheme_floor(text: str, limit: int) -> int:
    """The largest grapheme-cluster boundary ``<= limit`` in ``text``.

    A cut there never splits a combining mark from its base, a ZWJ emoji sequence, a skin-tone
    modifier from its emoji or a flag's pair of regional indicators.
    """
    if limit >= len(text):
        return len(text)
    start = _safe_start(text, limit)
    end = start
    for cluster in _GRAPHEME.finditer(text, start):
        if cluster.end() > limit:
            break
        end = cluster.end()
    return end


def _safe_start(text: str, limit: int) -> int:
    """A position ``<= limit`` that is certainly a grapheme boundary.

    Between two ASCII characters there is always a boundary, except inside CR LF (Unicode
    UAX #29: no ASCII character extends, joins, prepends or pairs).
    """
    for q in range(limit, max(0, limit - _SAFE_START_WINDOW), -1):
        before, at = text[q - 1], text[q]
        if before < "\x80" and at < "\x80" and not (before == "\r" and at == "\n"):
            return q
    return 0


def cut(text: str, limit: int) -> tuple[int, str]:
    """Where the trim stage cuts ``text`` to at most ``limit`` characters: ``(length, kind)``.

    ``kind`` is ``"sentence"`` when the last sentence boundary within the limit keeps at least
    40 percent of it, else ``"hard"``: the limit, moved back to the nearest grapheme boundary.

    >>> cut("One. Two three four five six seven eight nine ten.", 20)
    (20, 'hard')
    >>> cut("One two three. Four five six seven.", 20)
    (14, 'sentence')
    """
    # only a boundary in the last 60 percent counts: the search need not look further back
    lowest = math.ceil(SENTENCE_CUT_MIN_SHARE * limit)
    boundary = last_sentence_end(text, limit, lowest)
    if boundary is not None and keeps_sentence(boundary, limit):
        return boundary, "sentence"
    return grapheme_floor(text, limit), "hard"


def keeps_sentence(boundary: Any, limit: Any) -> Any:
    """The trim's choice for a sentence boundary (numbers or arrays of them): whether a cut at
    ``limit`` keeps to it, i.e. it keeps at least 40 percent of the limit."""
    return boundary >= SENTENCE_CUT_MIN_SHARE * limit


def cut_lengths(text: str, limits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`cut` at every limit ``L`` of ``limits`` (ascending or not) at once, as arrays.

    Returns ``(lengths, sentence)``: the kept length and whether the cut is at a sentence end.
    Limits ``>= len(text)`` cut nothing (length ``len(text)``, ``sentence`` False). The same rule
    as :func:`cut` (the same boundaries, :func:`keeps_sentence`, the same grapheme clusters), with
    every boundary found once rather than searched for each limit: the trim sweep's form.
    """
    limits = np.asarray(limits, dtype=np.int64)
    top = int(limits.max(initial=0))
    head = text[: top + 1]  # a cut at L <= top looks at no character past index top
    boundaries = np.array(
        [m.end() for m in _SENTENCE_END_FORWARD.finditer(head) if m.end() <= top], dtype=np.int64
    )
    graphemes = grapheme_boundaries(head)

    # The last sentence end <= L, or -1 for none (which never passes the 40 percent test).
    last_end = np.concatenate(([-1], boundaries))[np.searchsorted(boundaries, limits, "right")]
    sentence = keeps_sentence(last_end, limits)
    hard_at = graphemes[np.searchsorted(graphemes, limits, side="right") - 1]
    lengths = np.where(sentence, last_end, hard_at)
    uncut = limits >= len(text)
    return np.where(uncut, len(text), lengths), sentence & ~uncut


def grapheme_boundaries(text: str) -> np.ndarray:
    """Every grapheme-cluster boundary of ``text``, 0 and ``len(text)`` included."""
    if text.isascii():  # between ASCII characters there is a boundary, except inside CR LF
        inside = [m.start() + 1 for m in re.finditer("\r\n", text)]
        every = np.arange(len(text) + 1, dtype=np.int64)
        return np.delete(every, inside) if inside else every
    ends = [m.end() for m in _GRAPHEME.finditer(text)]
    return np.array([0, *ends], dtype=np.int64)
