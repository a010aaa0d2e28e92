"""The anchor finder's first steps, in numpy over the code points: segments, candidates, and the
tokens decided without the pattern (steps 1 to 3 of :mod:`compactor.analyses.anchors._finder`).

Why each rule is exact, by the patterns of :mod:`compactor.analyses.anchors._patterns`:

- Separators. No pattern takes a whitespace character but the space in ``139 USD`` (``\\ ``),
  nor one of ``HARD`` but a url (which needs ``://`` or ``www.``) or a Windows path (which
  needs ``\\``), and the lookaheads that read on (``@`` of an email, ``/`` of a path) stop at
  them as at the end of the text. All are characters an anchor may start after.
- Open segments: a match takes the space after its segment only after a digit or currency sign
  (a number, ``$ 5``), letters right after a digit (``5k thousand``, ``5per cent``, ``17th
  May``), a month (``May 17``, ``Sept. 3``) or a currency code (``USD 40``); at most three
  spaces (``5 thousand per cent``), so a key of the segment and the three after it holds
  everything such a match can read.
- Tokens: a segment of ASCII letters, digits and single ``-``/``.`` between them (underscores
  anywhere) that starts with a lower-case letter (not ``www.``), a capital that starts no
  month, weekday or currency code, or a digit run that starts no date (``2024-``, ``17.``),
  time (``10am``) or quantity (letters after the number that end before a non-word character,
  or the end: ``5GB``, ``21st``) can be neither a url, email, date, time, path nor quantity;
  the identifier and code patterns then take all of it or nothing: an identifier when it holds
  a letter and a digit, else code when it holds an underscore next to a letter or digit, or a
  lower-case letter before a capital. Dotted names (``e.g`` is not code) go to the pattern.
"""

from __future__ import annotations

from dataclasses import dataclass
from string import ascii_letters

import numpy as np

from compactor.analyses.anchors._word_lists import CURRENCY_CODES, MONTHS, WEEKDAYS

#: Characters only a url or a Windows path takes: segment separators besides whitespace.
HARD = "([{<>\"'`;=*|!?#&"
#: Trigger characters other than digits and ``_`` (all of class OTHER).
MARKS = "@/\\$€£¥₹₩₽"
SPACE, SEP, DIGIT, LOWER, UPPER, JOIN, UNDER, OTHER = (1 << k for k in range(8))
LETTER = LOWER | UPPER
ALNUM = DIGIT | LETTER
# One lookup table over the code points up to U+3000 (every whitespace character is among
# them); anything above counts as "other" (the last entry). JOIN is "." or "-".
_TOP = 0x3001
CLASSES = np.zeros(_TOP + 1, dtype=np.uint8)
for _c in range(_TOP):
    _ch = chr(_c)
    if _ch.isspace():
        CLASSES[_c] = SPACE
    elif _ch in HARD:
        CLASSES[_c] = SEP
    elif "0" <= _ch <= "9":
        CLASSES[_c] = DIGIT
    elif "a" <= _ch <= "z":
        CLASSES[_c] = LOWER
    elif "A" <= _ch <= "Z":
        CLASSES[_c] = UPPER
    else:
        CLASSES[_c] = {".": JOIN, "-": JOIN, "_": UNDER}.get(_ch, OTHER)
CLASSES[_TOP] = OTHER
_ASCII_CLASSES = CLASSES[:256].tobytes()
_MARK_CODES = np.array(sorted(map(ord, MARKS)))


def name_key(word: str) -> int:
    return (ord(word[0]) << 16) | (ord(word[1]) << 8) | ord(word[2])


#: Words that start an anchor without a trigger character, known by their first three letters.
NAME_KEYS = np.array(sorted({name_key(w) for w in MONTHS + WEEKDAYS + CURRENCY_CODES}))
#: A segment ending in a month or currency code (by its first three letters) may be followed
#: by a day, year or amount.
_TAIL_KEYS = frozenset(w[:3] for w in MONTHS + CURRENCY_CODES)
_DIGITS = "0123456789"
_OPENING = _DIGITS + "$€£¥₹₩₽"
_PAD = " " * 16  # room to read a few characters past the end


def is_in(values: np.ndarray, sorted_table: np.ndarray) -> np.ndarray:
    """``np.isin`` for a small sorted table (by binary search)."""
    at = np.minimum(np.searchsorted(sorted_table, values), len(sorted_table) - 1)
    return sorted_table[at] == values


def starts_at_separator(text: str) -> bool:
    """Whether ``text`` starts as :func:`~compactor.analyses.anchors._finder.joined` makes it."""
    return text[0].isspace() or text[0] in HARD


def open_tail(segment: str) -> bool:
    """Whether a match starting in ``segment`` may take a space after it (conservatively): it
    ends in a digit or currency sign, in letters right after a digit, or in a month name or
    currency code (a dot after either allowed)."""
    last = segment[-1]
    if last in _OPENING:
        return True
    body = segment[:-1] if last == "." else segment
    head = body.rstrip(ascii_letters)
    if len(head) == len(body):
        return False
    return (head[-1:] in _DIGITS and head != "") or body[len(head) : len(head) + 3] in _TAIL_KEYS


@dataclass(frozen=True, eq=False)
class Segments:
    """The text's segments, which hold a trigger, and where some characters are (sorted
    positions in the text). A segment is named by the index ``j`` of the separator after it:
    it is ``text[seps[j - 1] + 1 : seps[j]]`` (the text starts with a separator)."""

    codes: np.ndarray  # code points of the text and 16 spaces after it
    classes: np.ndarray  # their CLASSES bits
    seps: np.ndarray  # where the separators are
    candidate: np.ndarray  # per separator: whether the segment before it holds a trigger
    whole: np.ndarray  # per separator: the segment before it is in a chunk not cut at HARD
    camel: np.ndarray  # capitals after a lower-case letter
    dotted: np.ndarray  # dots between a word character and a letter or underscore
    underscores: np.ndarray  # underscores next to a letter or digit
    joins: np.ndarray  # dots and dashes
    broken: np.ndarray  # dots and dashes not between two letters or digits
    others: np.ndarray  # characters of class OTHER

    def start(self, which: np.ndarray) -> np.ndarray:
        return self.seps[which - 1] + 1

    def end(self, which: np.ndarray) -> np.ndarray:
        return self.seps[which]

    def containing(self, position: int) -> int | None:
        """The segment ``position`` is inside (None at a separator)."""
        j = int(np.searchsorted(self.seps, position))
        return None if self.seps[j] == position else j

    def bits(self, which: np.ndarray) -> np.ndarray:
        """The CLASSES bits of each segment in ``which`` (ascending), or-ed."""
        if len(which) == 0:
            return self.classes[:0]
        bounds = np.stack((self.start(which), self.end(which)), axis=1).ravel()
        return np.bitwise_or.reduceat(self.classes, bounds)[0::2]

    def count(self, positions: np.ndarray, which: np.ndarray) -> np.ndarray:
        """How many of ``positions`` each segment in ``which`` holds."""
        return np.searchsorted(positions, self.end(which)) - np.searchsorted(
            positions, self.start(which)
        )

    def followed_by_space(self, which: np.ndarray) -> np.ndarray:
        """Whether one space, then the next segment, follows each segment in ``which``."""
        end = self.seps[which]
        return (self.codes[end] == 32) & (
            self.seps[np.minimum(which + 1, len(self.seps) - 1)] > end + 1
        )

    def continuation_end(self, which: np.ndarray) -> np.ndarray:
        """Where the key of each segment in ``which`` ends when the segment is open: the end
        of the third segment after it, or of the last one reached by single spaces."""
        last = len(self.seps) - 1
        end = self.seps[which]
        at = which
        alive = self.followed_by_space(which)
        for _ in range(3):
            at = np.minimum(at + 1, last)
            end = np.where(alive, self.seps[at], end)
            alive = alive & self.followed_by_space(at)
        return end


def _code_points(text: str) -> tuple[np.ndarray, np.ndarray]:
    padded = text + _PAD
    if padded.isascii():
        raw = padded.encode("ascii")
        codes = np.frombuffer(raw, dtype=np.uint8)
        return codes, np.frombuffer(raw.translate(_ASCII_CLASSES), dtype=np.uint8)
    codes = np.frombuffer(padded.encode("utf-32-le"), dtype=np.uint32)
    return codes, CLASSES[np.minimum(codes, _TOP)]


def _whole_chunks(
    codes: np.ndarray, cls: np.ndarray, spots: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``(start, end)`` of the whitespace-delimited chunks holding ``://``, ``www.`` or
    ``\\``, and where these are (``spots``: where the characters of classes UPPER, JOIN,
    UNDER, OTHER are): a url may start there with no other trigger (``www.%``)."""
    c = codes[spots]
    colon = spots[c == 58]
    dots = spots[c == 46]
    found = np.concatenate(
        (
            colon[(codes[colon + 1] == 47) & (codes[colon + 2] == 47)],
            spots[c == 92],
            dots[(codes[dots - 1] == 119) & (codes[dots - 2] == 119) & (codes[dots - 3] == 119)],
        )
    )
    if len(found) == 0:
        return np.zeros((0, 2), dtype=np.int64), found
    space = np.flatnonzero((cls & SPACE) != 0)
    after = np.searchsorted(space, np.unique(found))
    begin = np.where(after > 0, space[np.maximum(after - 1, 0)] + 1, 0)
    return np.unique(np.stack((begin, space[after]), axis=1), axis=0), found


def segments(text: str) -> Segments:
    """Cut ``text`` (which starts with a separator) into segments and find the candidates."""
    codes, cls = _code_points(text)
    # The characters to look at more closely (never separators).
    spots = np.flatnonzero((cls & (UPPER | JOIN | UNDER | OTHER)) != 0)
    kind = cls[spots]
    sep = (cls & (SPACE | SEP)) != 0
    spans, url_marks = _whole_chunks(codes, cls, spots)
    whole_spans = spans.tolist()
    for a, b in whole_spans:
        sep[a:b] = (cls[a:b] & SPACE) != 0
    seps = np.flatnonzero(sep)
    whole = np.zeros(len(seps), dtype=bool)
    for a, b in whole_spans:
        whole[np.searchsorted(seps, a) : np.searchsorted(seps, b) + 1] = True
    prev, nxt = cls[spots - 1], cls[spots + 1]
    upper = (kind & UPPER) != 0
    camel = spots[upper & ((prev & LOWER) != 0)]
    heads = spots[upper & ((prev & LETTER) == 0)]
    c0, c1, c2 = (codes[heads + k].astype(np.int64) for k in range(3))
    named = heads[is_in((c0 << 16) | (c1 << 8) | c2, NAME_KEYS)]
    join = (kind & JOIN) != 0
    broken = spots[join & (((prev & ALNUM) == 0) | ((nxt & ALNUM) == 0))]
    dotted = spots[
        join
        & (codes[spots] == 46)
        & ((prev & (ALNUM | UNDER)) != 0)
        & ((nxt & (LETTER | UNDER)) != 0)
    ]
    under = (kind & UNDER) != 0
    underscores = spots[under & (((prev | nxt) & ALNUM) != 0)]
    others = spots[(kind & OTHER) != 0]
    marks = others[is_in(codes[others].astype(np.int64), _MARK_CODES)]
    digit = (cls & DIGIT) != 0
    digits = np.flatnonzero(digit[1:] & ~digit[:-1]) + 1  # where runs of digits start
    triggers = (digits, spots[under], marks, camel, dotted, named, url_marks)
    candidate = np.zeros(len(seps), dtype=bool)
    for found in triggers:
        candidate[np.searchsorted(seps, found)] = True
    return Segments(
        codes,
        cls,
        seps,
        candidate,
        whole,
        camel,
        dotted,
        underscores,
        spots[join],
        broken,
        others,
    )
