"""The anchor finder: every anchor of a conversation (SPEC part C), by the patterns of
:mod:`compactor.analyses.anchors._patterns`.

:func:`find_matches_plainly` is the definition: one scan of the whole text, left to right, the
first kind that matches at each boundary taking its text. :func:`find_matches` gives the same
matches quickly (:mod:`compactor.analyses.anchors._scan`); the tests check it against the plain
scan. :func:`find_anchors` keys the matches by their text, with the occurrences nested in urls,
emails and paths, and the watched phrases.

The finder takes no parameter, so :func:`find_anchors` and :func:`find_anchor_table` remember
what they found in the last few conversations, keyed by the contents themselves
(:mod:`compactor.analyses.anchors._memo`): a report under another request over the same
conversation reads them instead of scanning again. What they return is immutable (tuples,
read-only arrays), so a remembered value cannot be changed by a caller.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import NamedTuple

import numpy as np

from compactor.analyses._facts import find_phrase
from compactor.analyses.anchors._junk import junk_matches
from compactor.analyses.anchors._memo import ContentsMemo
from compactor.analyses.anchors._patterns import (
    ANCHOR_PATTERN,
    CONTAINERS,
    INNER_PATTERN,
    KINDS,
)
from compactor.analyses.anchors._scan import PLAIN_BELOW, find_match_arrays, plain_matches
from compactor.collector import collector_paused

__all__ = [
    "ANCHOR_PATTERN",
    "CONTAINERS",
    "KINDS",
    "PLAIN_BELOW",
    "SEPARATOR",
    "WATCHED",
    "Anchor",
    "Occurrence",
    "AnchorTable",
    "FoundAnchors",
    "columns_of",
    "find_anchor_columns",
    "find_anchor_table",
    "forget_found_anchors",
    "find_anchors",
    "find_match_arrays",
    "find_matches",
    "find_matches_plainly",
    "inner_matches",
    "joined",
]

SEPARATOR = "\n"
WATCHED = "watched"
#: ``(index, start, end)``: message index and code point offsets, ``content[start:end]``.
Occurrence = tuple[int, int, int]
_NO_INTS = np.zeros(0, dtype=np.int64)
_NO_INTS.setflags(write=False)
_CONTAINER_GROUPS = [KINDS.index(k) + 1 for k in sorted(CONTAINERS)]
#: How many conversations the finder remembers (the explorer keeps as many found).
MEMO_SIZE = 8


def joined(contents: Sequence[str]) -> tuple[str, np.ndarray]:
    """The contents as one text, each after a newline, and where each starts in it."""
    lengths = np.fromiter(map(len, contents), np.int64, len(contents))
    starts = np.cumsum(lengths + 1) - lengths
    return SEPARATOR + SEPARATOR.join(contents), starts


def find_matches_plainly(text: str) -> list[tuple[int, int, int]]:
    """``(start, end, group)`` of every match of ANCHOR_PATTERN in ``text``, by scanning all of
    it: the reference :func:`find_matches` is checked against."""
    return plain_matches(text)


def find_matches(text: str, plain_below: int = PLAIN_BELOW) -> list[tuple[int, int, int]]:
    """The same as :func:`find_matches_plainly`, quickly; a text shorter than ``plain_below``
    characters is scanned plainly (faster for it)."""
    starts, ends, groups = find_match_arrays(text, plain_below)
    return list(zip(starts.tolist(), ends.tolist(), groups.tolist(), strict=True))


def inner_matches(text: str) -> list[tuple[int, int]]:
    """Spans of the non-container kinds inside a container's ``text``."""
    return [(m.start(m.lastindex) - 1, m.end() - 1) for m in INNER_PATTERN.finditer(" " + text)]


@dataclass(frozen=True, slots=True)
class Anchor:
    """An exact string of the conversation and every place it occurs, in message order."""

    text: str
    kind: str
    occurrences: tuple[Occurrence, ...]


_new, _set = object.__new__, object.__setattr__
_SET_TEXT, _SET_KIND, _SET_OCCURRENCES = (
    Anchor.__dict__[name].__set__ for name in ("text", "kind", "occurrences")
)


def _anchor(text: str, kind: str, occurrences: tuple[Occurrence, ...]) -> Anchor:
    """``Anchor(text, kind, occurrences)`` by its slots, without the frozen dataclass's
    ``__init__`` (the same object, built faster: a conversation has thousands)."""
    anchor = _new(Anchor)
    _SET_TEXT(anchor, text)
    _SET_KIND(anchor, kind)
    _SET_OCCURRENCES(anchor, occurrences)
    return anchor


def find_anchors(contents: Sequence[str], watched: Iterable[str] = ()) -> tuple[Anchor, ...]:
    """Every anchor in ``contents`` (plus the ``watched`` phrases found there), in the order of
    their first occurrence (remembered for the last few conversations: see the module).

    >>> anchors = find_anchors(["Order DE-4471 ships Thursday 14:00.",
    ...                         "Refund of $1,250.00 to ana@example.com for DE-4471"])
    >>> [(a.text, a.kind) for a in anchors][:3]
    [('DE-4471', 'identifier'), ('Thursday', 'date'), ('14:00', 'time')]
    >>> [(a.text, a.kind) for a in anchors][3:]
    [('$1,250.00', 'quantity'), ('ana@example.com', 'email')]
    >>> anchors[0].occurrences
    ((0, 6, 13), (1, 43, 50))
    """
    return find_anchor_columns(contents, watched).anchors


class FoundAnchors(NamedTuple):
    """Anchors with their occurrences as columns: ``counts`` per anchor, then the ``message``
    and ``end`` of every occurrence, anchor after anchor (what :func:`anchor_report` reads)."""

    anchors: tuple[Anchor, ...]
    counts: np.ndarray
    message: np.ndarray
    end: np.ndarray


def find_anchor_columns(contents: Sequence[str], watched: Iterable[str] = ()) -> FoundAnchors:
    """:func:`find_anchors` with its occurrences as columns, remembered by contents and
    phrases."""
    phrases = tuple(p.strip() for p in watched if p.strip())
    key = (tuple(contents), phrases)
    return _FOUND.get(key, lambda: _found_anchors(key[0], phrases))


def columns_of(anchors: Sequence[Anchor]) -> FoundAnchors:
    """``anchors`` with their occurrences as columns: those :func:`find_anchors` remembers when
    it returned this very tuple, else read from the occurrences."""
    for found in _FOUND.values():
        if found.anchors is anchors:
            return found
    return _columns(tuple(anchors))


def forget_found_anchors() -> None:
    """Forget every conversation the finder remembers (a benchmark times a first call so)."""
    _FOUND.clear()
    _TABLES.clear()


def _found_anchors(contents: Sequence[str], phrases: Sequence[str]) -> FoundAnchors:
    table = find_anchor_table(contents)
    with collector_paused():
        found = list(map(_anchor, table.texts, table.kinds, table.occurrences))
    if not phrases:
        return FoundAnchors(tuple(found), table.counts, table.message, table.end)
    by_text = {a.text: a for a in found}
    for phrase, occurrences in zip(phrases, _watched(contents, phrases), strict=True):
        by_text.pop(phrase, None)
        if occurrences:
            by_text[phrase] = Anchor(phrase, WATCHED, occurrences)
    return _columns(tuple(sorted(by_text.values(), key=lambda a: a.occurrences[0])))


def _columns(anchors: tuple[Anchor, ...]) -> FoundAnchors:
    occurrences = [a.occurrences for a in anchors]
    counts = np.fromiter(map(len, occurrences), np.int64, len(occurrences))
    flat = np.fromiter(
        chain.from_iterable(chain.from_iterable(occurrences)), np.int64, 3 * int(counts.sum())
    ).reshape(-1, 3)
    return FoundAnchors(anchors, *_read_only(counts, flat[:, 0].copy(), flat[:, 2].copy()))


def _read_only(*arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    for array in arrays:
        array.setflags(write=False)
    return arrays


class AnchorTable(NamedTuple):
    """The anchors found, by columns, in the order of their first occurrences: what
    :func:`anchor_report` reads without building :class:`Anchor` rows."""

    texts: tuple[str, ...]
    kinds: tuple[str, ...]
    occurrences: tuple[tuple[Occurrence, ...], ...]
    counts: np.ndarray  # occurrences per anchor
    message: np.ndarray  # the message index of each occurrence, anchor after anchor
    end: np.ndarray  # and its end


def find_anchor_table(contents: Sequence[str]) -> AnchorTable:
    """The anchors in ``contents`` (no watched phrases), as columns; remembered by contents."""
    key = tuple(contents)
    return _TABLES.get(key, lambda: _find_anchor_table(key))


@collector_paused()
def _find_anchor_table(contents: Sequence[str]) -> AnchorTable:
    text, starts = joined(contents)
    span_start, span_end, group = find_match_arrays(text)
    real = ~junk_matches(text, span_start, span_end)  # keys, tags, escapes: not anchors
    span_start, span_end, group = span_start[real], span_end[real], group[real]
    if len(span_start) == 0:
        return AnchorTable((), (), (), _NO_INTS, _NO_INTS, _NO_INTS)
    texts = [text[a:b] for a, b in zip(span_start.tolist(), span_end.tolist(), strict=True)]
    ids = {t: i for i, t in enumerate(dict.fromkeys(texts))}  # in order of first match
    anchor_of = np.fromiter(map(ids.__getitem__, texts), np.int64, len(texts))
    # An anchor's kind is that of its text's first match.
    firsts = group[np.unique(anchor_of, return_index=True)[1]].tolist()
    kinds = [KINDS[g - 1] for g in firsts]
    inside = np.flatnonzero(np.isin(group, _CONTAINER_GROUPS))
    if len(inside):  # the anchors' other occurrences, inside urls, emails and paths
        nested = [
            (anchor_id, at + a, at + b)
            for k, at in zip(inside.tolist(), span_start[inside].tolist(), strict=True)
            for a, b in inner_matches(texts[k])
            if (anchor_id := ids.get(texts[k][a:b])) is not None
        ]
        if nested:
            more = np.array(nested, dtype=np.int64)
            anchor_of = np.concatenate((anchor_of, more[:, 0]))
            span_start = np.concatenate((span_start, more[:, 1]))
            span_end = np.concatenate((span_end, more[:, 2]))
    message = np.searchsorted(starts, span_start, side="right") - 1
    local_start, local_end = span_start - starts[message], span_end - starts[message]
    # By anchor, then position (the matches are in text order; nested ones come after).
    order = (
        np.lexsort((local_start, message, anchor_of))
        if len(anchor_of) > len(group)
        else np.argsort(anchor_of, kind="stable")
    )
    anchor_of, message = anchor_of[order], message[order]
    local_start, local_end = local_start[order], local_end[order]
    heads = np.flatnonzero(np.concatenate(([True], anchor_of[1:] != anchor_of[:-1])))
    # In the order of their first occurrences.
    ranked = np.lexsort((local_end[heads], local_start[heads], message[heads]))
    counts = np.diff(np.append(heads, len(anchor_of)))[ranked]
    ends = np.cumsum(counts)
    moved = np.repeat(heads[ranked] - (ends - counts), counts) + np.arange(len(anchor_of))
    message, local_start, local_end = message[moved], local_start[moved], local_end[moved]
    rows = list(zip(message.tolist(), local_start.tolist(), local_end.tolist(), strict=True))
    occurrences = [rows[a:b] for a, b in zip((ends - counts).tolist(), ends.tolist(), strict=True)]
    which = anchor_of[heads[ranked]].tolist()
    names = list(ids)
    return AnchorTable(
        tuple(map(names.__getitem__, which)),
        tuple(map(kinds.__getitem__, which)),
        tuple(map(tuple, occurrences)),
        *_read_only(counts, message, local_end),
    )


_TABLES: ContentsMemo[AnchorTable] = ContentsMemo(MEMO_SIZE)
_FOUND: ContentsMemo[FoundAnchors] = ContentsMemo(MEMO_SIZE)


def _watched(contents: Sequence[str], phrases: Sequence[str]) -> list[tuple[Occurrence, ...]]:
    return [
        tuple(
            (i, start, end)
            for i, content in enumerate(contents)
            for start, end in find_phrase(phrase, content)
        )
        for phrase in phrases
    ]
