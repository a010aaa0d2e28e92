"""The candidates the anchor finder decides without the pattern (step 3 of
:mod:`compactor.analyses.anchors._finder`), in numpy over the segments of
:mod:`compactor.analyses.anchors._segments`. Why each shape is exact, by the patterns of
:mod:`compactor.analyses.anchors._patterns`:

- Tokens: ASCII letters and digits joined by single ``-``/``.`` (underscores anywhere), then
  at most two of ``. , : )`` (sentence punctuation, which no pattern but a url or path takes
  after a token, and after which no anchor starts). When the token starts with a lower-case
  letter or ``_`` (not ``www.``), a capital that starts no month, weekday or currency code, or
  a digit run that starts no date (``2024-``, ``17.``), time (``10a``) or quantity (letters
  after the number that end before a non-word character or the end: ``5GB``, ``21st``; not
  ``9f2a``), no url, email, date, time, path or quantity starts there, and the identifier and
  code patterns take all of the token or nothing: an identifier when it holds a letter and a
  digit, else code when it holds an underscore next to a letter or digit, or a lower-case
  letter before a capital. Dotted names (``e.g`` is not code) are left to the pattern.
- Digits alone: nothing, unless a space and a letter or ``%``, ``°``, ``‰`` follow (a unit,
  a month, ``am``).
- ``2025-03-14T07:32:49Z`` with every field in range: a date (the first date pattern).
- ``14:00`` or ``9:30`` in range followed by ``.``, ``,`` or ``)`` or by no space: a time
  (no date pattern takes it; ``am``/``pm`` would need a space).
- A weekday name, alone or before ``.``, ``,`` or ``:``: a date.
"""

from __future__ import annotations

import numpy as np

from compactor.analyses.anchors._patterns import CODE, DATE, IDENTIFIER, KINDS, TIME
from compactor.analyses.anchors._segments import (
    ALNUM,
    DIGIT,
    LETTER,
    LOWER,
    NAME_KEYS,
    UNDER,
    UPPER,
    Segments,
    is_in,
    name_key,
)
from compactor.analyses.anchors._word_lists import UNIT_WORDS, WEEKDAYS

GROUP = {kind: KINDS.index(kind) + 1 for kind in KINDS}
_TAIL = np.array(sorted(map(ord, ".,:)")))
_SIGN_UNITS = np.array([0x25, 0xB0, 0x2030])  # % ° ‰
_WEEKDAY_KEYS = np.array(sorted(name_key(name) for name in WEEKDAYS))
_DAY_ENDS = np.array(sorted(map(ord, ".,:")))


def decide_tokens(s: Segments) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The candidates decided without the pattern, as the starts, ends and groups of their
    matches, and the indices of the other candidates."""
    cls, codes = s.classes, s.codes
    which = np.flatnonzero(s.candidate & ~s.whole)
    rest_whole = np.flatnonzero(s.candidate & s.whole)
    bits, a, b = s.bits(which), s.start(which), s.end(which)
    c0, c1, c2, c3 = (codes[a + k].astype(np.int64) for k in range(4))
    key = (c0 << 16) | (c1 << 8) | c2
    # The token: the segment less up to two of . , : ) at its end.
    last, before_last = codes[b - 1].astype(np.int64), codes[b - 2].astype(np.int64)
    one = is_in(last, _TAIL) & (b - 1 > a)
    two = one & is_in(before_last, _TAIL) & (b - 2 > a)
    tail = one.astype(np.int64) + two
    tail_dots = (one & (last == 46)).astype(np.int64) + (two & (before_last == 46))
    end = b - tail
    token = (
        (s.count(s.others, which) == tail - tail_dots)
        & (s.count(s.broken, which) == tail_dots)
        & ((bits & ALNUM) != 0)
    )
    first = cls[a]
    digit_first = (first & DIGIT) != 0
    www = (c0 == 119) & (c1 == 119) & (c2 == 119) & (c3 == 46)
    start_ok = (((first & (LOWER | UNDER)) != 0) & ~www) | (
        ((first & UPPER) != 0) & ~is_in(key, NAME_KEYS)
    )
    has_letter = (bits & LETTER) != 0
    underscored = s.count(s.underscores, which) > 0
    identifier = ((bits & DIGIT) != 0) & has_letter
    code = ~identifier & (underscored | (s.count(s.camel, which) > 0))
    digits = np.flatnonzero(token & digit_first & (has_letter | underscored))
    start_ok[digits] = _number_starts_nothing(cls, codes, a[digits], end[digits])
    decided = (
        token & start_ok & (identifier | code | ((s.count(s.dotted, which) == 0) & ~digit_first))
    )
    group = np.where(identifier, GROUP[IDENTIFIER], np.where(code, GROUP[CODE], 0))
    # Digits alone.
    lone = (
        token
        & ~decided
        & ((bits & (LETTER | UNDER)) == 0)
        & (s.count(s.joins, which) == tail_dots)
        & digit_first
    )
    unit_next = ((cls[b + 1] & LETTER) != 0) | is_in(codes[b + 1].astype(np.int64), _SIGN_UNITS)
    spaced = s.followed_by_space(which)
    worded = np.flatnonzero(lone & (tail == 0) & spaced & unit_next)
    unit_next[worded] = _may_be_a_unit(codes, b[worded] + 1)
    lone &= (tail > 0) | ~(spaced & unit_next)
    decided |= lone
    group[lone] = 0
    # Timestamps, clock times, weekdays.
    for found, kind in (
        (_iso_timestamps(codes, a, b), DATE),
        (_clock_times(codes, a, end, tail, spaced, last), TIME),
    ):
        found &= ~decided
        decided |= found
        group[found] = GROUP[kind]
        end = np.where(found, np.where(kind == DATE, b, end), end)
    days = np.flatnonzero(is_in(key, _WEEKDAY_KEYS) & ~decided)
    size = (b - a)[days]
    short = size - is_in(last[days], _DAY_ENDS)  # less one of . , :
    for name in WEEKDAYS:
        length = len(name)
        maybe = days[(key[days] == name_key(name)) & ((size == length) | (short == length))]
        grid = codes[a[maybe, None] + np.arange(length)]
        day = maybe[np.all(grid == np.frombuffer(name.encode(), np.uint8), axis=1)]
        decided[day] = True
        group[day] = GROUP[DATE]
        end[day] = a[day] + length
    hit = decided & (group > 0)
    rest = np.sort(np.concatenate((which[~decided], rest_whole)))
    return a[hit], end[hit], group[hit], rest


def _word_key(letters: np.ndarray) -> np.ndarray:
    """Lower-case ASCII letters (a row each, 0 past the word) as one number each."""
    value = np.where(letters > 0, (letters | 32) - 96, 0)
    return (value << (5 * np.arange(letters.shape[1]))).sum(axis=1)


def _keys_of(words: list[str]) -> np.ndarray:
    width = max(map(len, words))
    rows = np.array([list(w.encode().ljust(width, b"\0")) for w in words], dtype=np.int64)
    return np.unique(_word_key(rows))


_LONGEST_UNIT = max(len(w) for w in UNIT_WORDS if w.isascii())
_UNIT_KEYS = _keys_of([w for w in UNIT_WORDS if w.isascii()] + ["per"])
_SCALES = ("thousand", "million", "billion", "trillion")
_SCALE_KEYS = {n: _keys_of([w for w in _SCALES if len(w) == n]) for n in (7, 8)}


def _may_be_a_unit(codes: np.ndarray, at: np.ndarray) -> np.ndarray:
    """For words at ``at`` after a number and a space: whether the pattern could read a unit,
    scale or time of day there. Only a lower-case start is looked at (a capital may start a
    currency code or month): ``am``/``pm``/``a.m.``, a scale word starting it, or its leading
    letters (any case) a unit word or ``per`` (``per cent``)."""
    g = _grid(codes, at, _LONGEST_UNIT + 1)
    low = g | 32
    letter = (g < 128) & (low >= 97) & (low <= 122)
    run = np.where(letter.all(axis=1), g.shape[1], np.argmin(letter, axis=1))
    lower_start = (g[:, 0] >= 97) & (g[:, 0] <= 122)
    meridiem = np.isin(g[:, 0], (97, 112)) & np.isin(g[:, 1], (77, 109, 46))
    inside = np.arange(g.shape[1]) < run[:, None]
    key = _word_key(np.where(inside, g, 0)[:, :_LONGEST_UNIT])
    unit = (run <= _LONGEST_UNIT) & is_in(key, _UNIT_KEYS)
    for n, keys in _SCALE_KEYS.items():
        unit |= (run >= n) & is_in(_word_key(np.where(inside, g, 0)[:, :n]), keys)
    return ~lower_start | meridiem | unit


def _grid(codes: np.ndarray, a: np.ndarray, width: int) -> np.ndarray:
    return codes[a[:, None] + np.arange(width)].astype(np.int64)


_ISO_DIGITS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]


def _iso_timestamps(codes: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Segments that are a whole ISO timestamp ``2025-03-14T07:32:49Z``, every field in range."""
    found = np.zeros(len(a), dtype=bool)
    maybe = np.flatnonzero(b - a == 20)
    g = _grid(codes, a[maybe], 20)
    d = g[:, _ISO_DIGITS] - 48
    shape = np.all((d >= 0) & (d <= 9), axis=1) & np.all(
        g[:, [4, 7, 10, 13, 16, 19]] == np.array([45, 45, 84, 58, 58, 90]), axis=1
    )
    month, day, hour = d[:, 4] * 10 + d[:, 5], d[:, 6] * 10 + d[:, 7], d[:, 8] * 10 + d[:, 9]
    valid = (month >= 1) & (month <= 12) & (day >= 1) & (day <= 31) & (hour <= 23)
    found[maybe] = shape & valid & (d[:, 10] <= 5) & (d[:, 12] <= 5)
    return found


def _clock_times(
    codes: np.ndarray,
    a: np.ndarray,
    end: np.ndarray,
    tail: np.ndarray,
    followed_by_space: np.ndarray,
    last: np.ndarray,
) -> np.ndarray:
    """Tokens ``H:MM`` or ``HH:MM`` (hour up to 23) before ``.``, ``,`` or ``)`` (no ``:``),
    or before no space."""
    found = np.zeros(len(a), dtype=bool)
    ending = np.where(tail > 0, True, ~followed_by_space)
    ending &= ~((tail > 0) & (last == 58)) & ~((tail == 2) & (codes[end] == 58))
    for width in (4, 5):
        maybe = np.flatnonzero((end - a == width) & ending)
        g = _grid(codes, a[maybe], width) - 48
        hour = g[:, 0] if width == 4 else g[:, 0] * 10 + g[:, 1]
        digits = np.delete(g, width - 3, axis=1)
        shape = np.all((digits >= 0) & (digits <= 9), axis=1) & (g[:, width - 3] == 10)
        found[maybe] = shape & (hour <= 23) & (g[:, width - 2] <= 5)
    return found


def _number_starts_nothing(
    cls: np.ndarray, codes: np.ndarray, a: np.ndarray, b: np.ndarray
) -> np.ndarray:
    """For tokens ``[a, b)`` starting with a digit: whether no date, time or quantity starts
    there (``2024-``, ``17.`` and ``10a`` may; so may a number followed by letters that end
    before a non-word character or the end, ``5GB`` or ``21st``; ``9f2a`` may not)."""
    if len(a) == 0:
        return np.zeros(0, dtype=bool)
    lengths = b - a
    total = int(lengths.sum())
    offset = np.cumsum(lengths) - lengths
    end = offset + lengths
    index = np.arange(total) - np.repeat(offset - a, lengths)
    cc = cls[index]
    char = codes[index]

    def next_not(mask: int, at: np.ndarray) -> np.ndarray:
        places = np.append(np.flatnonzero((cc & mask) == 0), total)
        return places[np.searchsorted(places, at)]

    def class_at(at: np.ndarray) -> np.ndarray:
        return np.where(at < end, cc[np.minimum(at, total - 1)], 0)

    after_digits = next_not(DIGIT, offset)
    run = after_digits - offset
    c1 = np.where(after_digits < end, char[np.minimum(after_digits, total - 1)], 0)
    date_or_time = ((run == 4) & (c1 == 45)) | (
        (run <= 2) & ((c1 == 46) | np.isin(c1, (65, 97, 80, 112)))
    )
    fraction = (c1 == 46) & ((class_at(after_digits + 1) & DIGIT) != 0)
    number_end = np.where(fraction, next_not(DIGIT, after_digits + 1), after_digits)
    letters = (class_at(number_end) & LETTER) != 0
    letters_end = next_not(LETTER, number_end)
    unit = letters & ((class_at(letters_end) & (DIGIT | UNDER)) == 0)
    return (after_digits < end) & ~date_or_time & ~unit
