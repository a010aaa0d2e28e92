"""Needs (SPEC part D): which message uses an anchor an earlier message already holds.

Message m_j *needs* anchor a when a occurs in m_j and in some earlier message; each pair
(j, a) is one need, its *sources* are the occurrences of a in m_0..m_{j-1}, and its role is
m_j's. The anchor finder lists each anchor's occurrences in message order, so a need's sources
are always a prefix of its anchor's occurrences: a need is stored as (anchor, user, how many of
the anchor's occurrences are its sources), never as a copy of them. Needs depend on the
contents alone, so they are found once per conversation and remembered (keyed by the contents,
roles and watched phrases, like the anchors they come from).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from compactor.analyses.anchors._finder import Anchor, FoundAnchors, find_anchor_columns
from compactor.analyses.anchors._memo import ContentsMemo

#: ``(index, start, end)``: a message and code point offsets into its input content.
Occurrence = tuple[int, int, int]


@dataclass(frozen=True)
class Need:
    """Message ``user`` needs ``anchor``, which ``sources`` (earlier occurrences) hold."""

    user: int
    anchor: str
    kind: str
    role: str  # the role of message ``user``
    sources: tuple[Occurrence, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "user": self.user,
            "anchor": self.anchor,
            "kind": self.kind,
            "role": self.role,
            "sources": [{"index": i, "start": s, "end": e} for i, s, e in self.sources],
        }


@dataclass(frozen=True, eq=False)
class Needs:
    """Every need of one conversation, by user message then anchor, with the columns the
    judges read (one entry per need, one per anchor occurrence)."""

    anchors: tuple[Anchor, ...]
    roles: tuple[str, ...]
    #: Per need: its anchor (index into ``anchors``), its user message, and how many of the
    #: anchor's occurrences (its first ones) are its sources.
    anchor: np.ndarray = field(repr=False)
    user: np.ndarray = field(repr=False)
    source_count: np.ndarray = field(repr=False)
    #: Per occurrence, anchor after anchor: its anchor, message and end; ``heads[a]`` is where
    #: anchor a's occurrences start.
    occurrence_anchor: np.ndarray = field(repr=False)
    occurrence_message: np.ndarray = field(repr=False)
    occurrence_end: np.ndarray = field(repr=False)
    heads: np.ndarray = field(repr=False)
    _views: dict[int, PastView] = field(default_factory=dict, repr=False)

    def __len__(self) -> int:
        return len(self.user)

    @cached_property
    def needs(self) -> tuple[Need, ...]:
        """Every need as a :class:`Need`, by user message, then anchor order."""
        return tuple(self.need(k) for k in range(len(self)))

    def need(self, k: int) -> Need:
        """The ``k``-th need."""
        a = self.anchors[int(self.anchor[k])]
        user = int(self.user[k])
        return Need(user, a.text, a.kind, self.roles[user], a.occurrences[: self.source_count[k]])

    def to_dict(self) -> dict[str, Any]:
        return {"needs": len(self), "list": [n.to_dict() for n in self.needs]}

    def past_view(self, past: int) -> PastView:
        """What a compaction of the first ``past`` messages is judged on (remembered)."""
        view = self._views.get(past)
        if view is None:
            view = self._views[past] = _past_view(self, past)
        return view


@dataclass(frozen=True, eq=False)
class PastView:
    """The needs a compaction of the first ``past`` messages is judged on (users after the
    past, anchors with an occurrence in it), and the past occurrences of their anchors only:
    the columns a judge reads, a small part of the conversation's."""

    past: int
    judged: np.ndarray  # indices into the needs, in need order
    slot: np.ndarray  # per judged need, its anchor's place among ``anchors``
    anchors: np.ndarray  # the anchors judged (indices into ``Needs.anchors``)
    message: np.ndarray  # their past occurrences, anchor after anchor
    end: np.ndarray
    heads: np.ndarray  # where each judged anchor's occurrences start


def _past_view(needs: Needs, past: int) -> PastView:
    first = needs.occurrence_message[needs.heads] if len(needs.heads) else needs.heads
    judged = np.flatnonzero((needs.user >= past) & (first[needs.anchor] < past))
    anchors, slot = np.unique(needs.anchor[judged], return_inverse=True)
    keep = np.isin(needs.occurrence_anchor, anchors) & (needs.occurrence_message < past)
    counts = np.bincount(
        np.searchsorted(anchors, needs.occurrence_anchor[keep]), minlength=len(anchors)
    )
    return PastView(
        past,
        judged,
        slot.reshape(-1),
        anchors,
        needs.occurrence_message[keep],
        needs.occurrence_end[keep],
        np.cumsum(counts) - counts,
    )


def find_needs(
    contents: Sequence[str],
    roles: Sequence[str],
    watched: Iterable[str] = (),
    *,
    anchors: FoundAnchors | None = None,
) -> Needs:
    """Every need of the conversation (its anchors and the ``watched`` phrases found there),
    remembered for the last few conversations.

    ``anchors`` is :func:`~compactor.analyses.anchors.find_anchor_columns` of the same contents
    and phrases (found when omitted).

    >>> needs = find_needs(["Order DE-4471 ships.", "Which order?", "DE-4471, yes."],
    ...                    ["user", "assistant", "user"])
    >>> [(n.user, n.anchor, n.role, n.sources) for n in needs.needs]
    [(2, 'DE-4471', 'user', ((0, 6, 13),))]
    """
    phrases = tuple(p.strip() for p in watched if p.strip())
    key = (tuple(contents), tuple(roles), phrases)
    if anchors is not None:
        return _needs(anchors, key[1])
    return _NEEDS.get(key, lambda: _needs(find_anchor_columns(key[0], phrases), key[1]))


def _needs(found: FoundAnchors, roles: tuple[str, ...]) -> Needs:
    counts = np.asarray(found.counts, dtype=np.int64)
    message = np.asarray(found.message, dtype=np.int64)
    end = np.asarray(found.end, dtype=np.int64)
    heads = np.cumsum(counts) - counts
    owner = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
    position = np.arange(len(message), dtype=np.int64) - np.repeat(heads, counts)
    # An occurrence opens a need when it is the first of its anchor in its message and not the
    # anchor's first occurrence: the occurrences before it are the need's sources.
    earlier_same = np.zeros(len(message), dtype=bool)
    earlier_same[1:] = (owner[1:] == owner[:-1]) & (message[1:] == message[:-1])
    opens = (position > 0) & ~earlier_same
    which = np.flatnonzero(opens)
    order = np.lexsort((owner[which], message[which]))  # by user, then anchor
    which = which[order]
    return Needs(
        anchors=tuple(found.anchors),
        roles=roles,
        anchor=_read_only(owner[which]),
        user=_read_only(message[which]),
        source_count=_read_only(position[which]),
        occurrence_anchor=_read_only(owner),
        occurrence_message=_read_only(message),
        occurrence_end=_read_only(end),
        heads=_read_only(heads),
    )


def _read_only(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array


_NEEDS: ContentsMemo[Needs] = ContentsMemo(8)
