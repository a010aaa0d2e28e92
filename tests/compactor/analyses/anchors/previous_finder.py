"""The anchor finder as it was before the segment scan (kept for the tests): the pattern tried
over every run of chunks that holds a trigger character, found with numpy.

``reach`` is how many chunks past its own an anchor may reach; it shipped as 2, which misses
the four-chunk quantities (``5 thousand per cent``); 3 is enough for every pattern.
"""

from __future__ import annotations

import numpy as np

from compactor.analyses.anchors._patterns import ANCHOR_PATTERN
from compactor.analyses.anchors._word_lists import CURRENCY_CODES, MONTHS, WEEKDAYS

# Character classes as bits of one lookup table over the code points up to U+3000 (every
# whitespace character is among them); anything above counts as "other" (the last entry).
_SPACE, _TRIGGER, _LOWER, _UPPER, _WORD, _DOT = 1, 2, 4, 8, 16, 32
_TOP = 0x3001
_CLASSES = np.zeros(_TOP + 1, dtype=np.uint8)
for _c in range(_TOP):
    _ch = chr(_c)
    _CLASSES[_c] = (
        _SPACE * _ch.isspace()
        | _TRIGGER * (_ch in "0123456789_@/\\$€£¥₹₩₽")
        | _LOWER * ("a" <= _ch <= "z")
        | _UPPER * ("A" <= _ch <= "Z")
        | _WORD * (_ch.isascii() and (_ch.isalnum() or _ch == "_"))
        | _DOT * (_ch == ".")
    )
#: Words that start an anchor without a trigger character: month and weekday names, and the
#: currency codes written before a number (``USD 139``); known by their first three letters.
_NAMED = MONTHS + WEEKDAYS + CURRENCY_CODES
_NAME_KEYS = np.array(
    sorted({(ord(n[0]) << 16) | (ord(n[1]) << 8) | ord(n[2]) for n in _NAMED}), dtype=np.uint32
)
#: The reach it shipped with (``5 thousand euros``, ``10 per cent``; not ``5 thousand per cent``).
SHIPPED_REACH = 2


def candidate_ranges(text: str, reach_chunks: int = 3) -> list[tuple[int, int, int]]:
    """``(start, end, reach)``: runs of chunks outside which no anchor starts (``text`` starts
    with a space). A chunk is a run of non-space characters; it is a candidate when it holds a
    trigger; ``start`` is the space before a run of consecutive candidates, ``end`` its end, and
    ``reach`` the end of the chunk ``reach_chunks`` after it, where an anchor starting in the
    run can end at the latest."""
    codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    classes = _CLASSES[np.minimum(codes, _TOP)]
    space = (classes & _SPACE).astype(bool)
    trigger = (classes & _TRIGGER).astype(bool)
    lower = (classes & _LOWER).astype(bool)
    upper = (classes & _UPPER).astype(bool)
    letter = lower | upper
    word_char = (classes & _WORD).astype(bool)
    trigger[1:] |= lower[:-1] & upper[1:]  # camelCase
    # A dot between a letter, digit or underscore and a letter or underscore: dotted.name
    trigger[1:-1] |= (
        (classes[1:-1] & _DOT).astype(bool) & word_char[:-2] & (letter[2:] | (codes[2:] == 95))
    )
    word_start = np.flatnonzero(upper[1:-2] & ~letter[:-3]) + 1
    keys = (codes[word_start] << 16) | (codes[word_start + 1] << 8) | codes[word_start + 2]
    trigger[word_start[np.isin(keys, _NAME_KEYS)]] = True

    starts = np.flatnonzero(~space[1:] & space[:-1]) + 1
    ends = np.flatnonzero(space[1:] & ~space[:-1]) + 1
    if not space[-1]:
        ends = np.append(ends, len(codes))
    first_of = np.zeros(len(codes), dtype=np.int64)
    first_of[starts] = 1
    chunk_of = np.cumsum(first_of) - 1  # the chunk a non-space character is in
    hits = np.unique(chunk_of[np.flatnonzero(trigger & ~space)])
    if len(hits) == 0:
        return []
    heads = np.flatnonzero(np.concatenate(([True], hits[1:] > hits[:-1] + 1)))
    tails = np.concatenate((heads[1:] - 1, [len(hits) - 1]))
    last = hits[tails]
    reach = ends[np.minimum(last + reach_chunks, len(ends) - 1)]
    return list(
        zip((starts[hits[heads]] - 1).tolist(), ends[last].tolist(), reach.tolist(), strict=True)
    )


def find_matches(text: str, reach_chunks: int = 3) -> list[tuple[int, int, int]]:
    """``(start, end, group)`` of every match of ANCHOR_PATTERN in ``text`` (the fast path).

    Each run of candidate chunks is scanned from the space before it; a match may reach past
    the run (``139 USD``), and the next run's scan starts after it, as one scan of the whole
    text would.
    """
    found: list[tuple[int, int, int]] = []
    finditer = ANCHOR_PATTERN.finditer
    done = 0  # where the last match ended
    for start, end, reach in candidate_ranges(text, reach_chunks):
        for m in finditer(text, max(start, done), reach):
            if m.start() >= end:
                break
            found.append((m.start(m.lastindex), m.end(), m.lastindex))
            done = m.end()
    return found
