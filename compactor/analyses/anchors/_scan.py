"""The anchor finder's scan: every match of ``ANCHOR_PATTERN`` in a text, without running
the pattern over all of it; the same matches as the plain scan over all of it (the tests check
it). How (numpy over the code points, the pattern only where needed):

1. The text is cut into *segments* at whitespace and at the characters no pattern but a url or
   Windows path takes, ``( [ { < > " ' ` ; = * | ! ? # &`` (not inside a whitespace-delimited
   chunk holding ``://``, ``www.`` or ``\\``, which may hold a url or Windows path). Every such
   character may come before an anchor, and none is read past by any other pattern, so the
   matches starting in a segment are those of the segment alone, unless one takes the space
   after it (``139 USD``): only a segment ending in a digit, a currency sign, letters right
   after a digit (``5k``, ``17th``), a month name or a currency code can start one.
2. A segment can hold the start of an anchor only if it holds a trigger: a digit, ``_``, ``@``,
   ``/``, ``\\``, a currency sign, a lower-case letter before a capital, a dot between a word
   character and a letter, or a capitalised month, weekday or currency code.
3. The commonest candidates, one ASCII token of letters and digits joined by single ``-``,
   ``.`` or underscores, that no earlier kind can take (by how it starts: a lower-case letter,
   a capital not starting a month, weekday or currency code, or a digit run not followed by
   what a date, time or unit needs), are an identifier when they hold a letter and a digit and
   code when they hold an underscore or a camelCase bump; so are a few other common shapes
   (timestamps, clock times, weekdays, numbers before a word that is no unit): decided in numpy
   (:mod:`compactor.analyses.anchors._candidates`; steps 1 and 2:
   :mod:`compactor.analyses.anchors._segments`).
4. The other candidates run the pattern once per distinct text, joined into one string: the
   segment alone, or the segment and the three after it when it can take a space.
5. A match that takes a space ends inside or after the next segments: their own matches give
   way to a scan resumed where it ends, as the plain scan would.
"""

from __future__ import annotations

import numpy as np

from compactor.analyses.anchors import _segments as seg
from compactor.analyses.anchors._candidates import decide_tokens
from compactor.analyses.anchors._patterns import ANCHOR_PATTERN, BEFORE

#: Below this many characters the plain scan is the faster (numpy's fixed costs).
PLAIN_BELOW = 20_000
#: Between the texts scanned together (whitespace no match takes).
_BETWEEN = "\n"
_EMPTY = np.zeros(0, dtype=np.int64)


def plain_matches(text: str) -> list[tuple[int, int, int]]:
    """``(start, end, group)`` of every match of ANCHOR_PATTERN in ``text``, by scanning all of
    it: the definition."""
    return [(m.start(g), m.end(), g) for m in ANCHOR_PATTERN.finditer(text) for g in (m.lastindex,)]


def find_match_arrays(
    text: str, plain_below: int = PLAIN_BELOW
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The matches as three arrays: starts, ends and groups (kind index + 1). A text
    shorter than ``plain_below`` characters is scanned plainly (faster for it)."""
    if len(text) < plain_below or not seg.starts_at_separator(text):
        return _as_arrays(plain_matches(text))
    s = seg.segments(text)
    fast_start, fast_end, fast_group, rest = decide_tokens(s)
    slow_start, slow_end, slow_group, slow_limit = _scan_the_rest(text, s, rest)
    start = np.concatenate((fast_start, slow_start))
    end = np.concatenate((fast_end, slow_end))
    group = np.concatenate((fast_group, slow_group))
    limit = np.concatenate((fast_end, slow_limit))
    order = np.argsort(start, kind="stable")
    start, end, group, limit = start[order], end[order], group[order], limit[order]
    if np.any(end > limit):
        return _resolve_overflows(text, s, start, end, group, limit)
    return start, end, group


def _as_arrays(found: list[tuple[int, int, int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if not found:
        return _EMPTY, _EMPTY, _EMPTY
    table = np.array(found, dtype=np.int64)
    return table[:, 0], table[:, 1], table[:, 2]


def _scan_the_rest(
    text: str, s: seg.Segments, rest: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Matches in the candidate segments ``rest`` (indices), by the pattern once per distinct
    key: the segment, or the segment and the next ones when it may take the space after it.
    Returns starts, ends, groups and the end of the segment each match starts in."""
    if len(rest) == 0:
        return _EMPTY, _EMPTY, _EMPTY, _EMPTY
    seg_start, seg_end = s.start(rest), s.end(rest)
    key_end = s.continuation_end(rest)
    starts_list, ends_list = seg_start.tolist(), seg_end.tolist()
    keys = [text[a:b] for a, b in zip(starts_list, ends_list, strict=True)]
    tails: dict[str, bool] = {}
    open_tail = seg.open_tail
    spaced = np.flatnonzero(s.followed_by_space(rest))
    for k, far in zip(spaced.tolist(), key_end[spaced].tolist(), strict=True):
        key = keys[k]
        is_open = tails.get(key)
        if is_open is None:
            is_open = tails[key] = open_tail(key)
        if is_open:
            b = ends_list[k]
            # Three digits or more start no date or time: a number, whatever its digits.
            head = "000" if len(key) > 2 and key.isdigit() and key.isascii() else key
            keys[k] = head + text[b:far]
    ids = {key: i for i, key in enumerate(dict.fromkeys(keys))}
    key_id = np.fromiter(map(ids.__getitem__, keys), np.int64, len(keys))
    distinct = list(ids)
    own = [len(key) if (at := key.find(" ")) < 0 else at for key in distinct]
    m_key, m_start, m_end, m_group = _key_matches(distinct, own)
    if len(m_key) == 0:
        return _EMPTY, _EMPTY, _EMPTY, _EMPTY
    # Every segment gets its key's matches (grouped by key, in key order).
    per_key = np.bincount(m_key, minlength=len(ids))
    key_first = np.cumsum(per_key) - per_key
    counts = per_key[key_id]
    total = int(counts.sum())
    owner = np.repeat(np.arange(len(key_id)), counts)
    pick = (
        key_first[key_id[owner]] + np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
    )
    shift = seg_start[owner]
    stretch = (seg_end - seg_start - np.array(own, dtype=np.int64)[key_id])[owner]
    return m_start[pick] + shift, m_end[pick] + shift + stretch, m_group[pick], seg_end[owner]


def _key_matches(
    keys: list[str], own_length: list[int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The matches of each key starting in its own segment (the first ``own_length``
    characters; a key is longer only when it goes on with the segments after it), in key order:
    key index, start and end in the key, group. Keys of one segment are scanned together, as
    one text; the others one boundary at a time, up to the segment's end."""
    found: list[tuple[int, int, int, int]] = []
    alone = [
        k for k, (key, own) in enumerate(zip(keys, own_length, strict=True)) if len(key) == own
    ]
    if alone:
        blob = _BETWEEN + _BETWEEN.join(keys[k] for k in alone)
        lengths = np.array([own_length[k] for k in alone], dtype=np.int64)
        offsets = np.cumsum(lengths + 1) - lengths
        table = np.array(
            [
                (m.start(g), m.end(), g)
                for m in ANCHOR_PATTERN.finditer(blob)
                for g in (m.lastindex,)
            ],
            dtype=np.int64,
        ).reshape(-1, 3)
        where = np.searchsorted(offsets, table[:, 0], side="right") - 1
        base = offsets[where]
        key = np.array(alone, dtype=np.int64)[where]
        found += zip(
            key.tolist(),
            (table[:, 0] - base).tolist(),
            (table[:, 1] - base).tolist(),
            table[:, 2].tolist(),
            strict=True,
        )
    match, boundary = ANCHOR_PATTERN.match, BEFORE.search
    for k, (key, own) in enumerate(zip(keys, own_length, strict=True)):
        if len(key) == own:
            continue
        line = _BETWEEN + key  # line[b] is a boundary, for b up to own
        b = 0
        while b <= own:
            m = match(line, b)
            if m:
                found.append((k, m.start(m.lastindex) - 1, m.end() - 1, m.lastindex))
                at = m.end()
            else:
                at = b + 1
            nxt = boundary(line, at, own + 1)
            if nxt is None:
                break
            b = nxt.start()
    if not found:
        return _EMPTY, _EMPTY, _EMPTY, _EMPTY
    table = np.array(found, dtype=np.int64)
    table = table[np.argsort(table[:, 0], kind="stable")]
    return table[:, 0], table[:, 1], table[:, 2], table[:, 3]


def _resolve_overflows(
    text: str,
    s: seg.Segments,
    start: np.ndarray,
    end: np.ndarray,
    group: np.ndarray,
    limit: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Replay the left-to-right scan where a match takes a space and ends past its segment:
    the matches it covers go, and a candidate segment it ends inside is scanned again from its
    end (which may take a space again)."""
    keep = np.ones(len(start), dtype=bool)
    extra: list[tuple[int, int, int]] = []
    cut = -1  # matches starting at or before this are covered or replaced
    over = np.flatnonzero(end > limit)
    over_end = end[over]
    inside = np.searchsorted(s.seps, over_end)
    resume = (s.seps[inside] > over_end) & s.candidate[inside]
    covered = np.searchsorted(start, over_end, side="right")
    rows = zip(
        over.tolist(),
        start[over].tolist(),
        over_end.tolist(),
        resume.tolist(),
        covered.tolist(),
        strict=True,
    )
    for i, a, done, again, upto in rows:
        if a <= cut:
            continue
        cut = done
        if again:
            cut = _resume(text, s, done, extra)
            upto = int(np.searchsorted(start, cut, side="right"))
        if upto > i + 1:
            keep[i + 1 : upto] = False
    rows = np.array(extra, dtype=np.int64).reshape(-1, 3)
    start = np.concatenate((start[keep], rows[:, 0]))
    order = np.argsort(start, kind="stable")
    return (
        start[order],
        np.concatenate((end[keep], rows[:, 1]))[order],
        np.concatenate((group[keep], rows[:, 2]))[order],
    )


def _resume(text: str, s: seg.Segments, done: int, extra: list[tuple[int, int, int]]) -> int:
    """Scan on from ``done``, inside a candidate segment, to its end (and on, while a match
    takes a space again); add the matches to ``extra``; return where the scan is clean again."""
    cut = done
    while True:
        j = s.containing(done)
        if j is None or not s.candidate[j]:
            return max(cut, done)
        lim = int(s.seps[j])
        far = int(s.continuation_end(np.array([j]))[0])
        resumed = done
        for m in ANCHOR_PATTERN.finditer(text, resumed, far):
            if m.start() >= lim:
                break
            extra.append((m.start(m.lastindex), m.end(), m.lastindex))
            done = m.end()
        cut = max(cut, lim, done)
        if done <= lim:
            return cut
