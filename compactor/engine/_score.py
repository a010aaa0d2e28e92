"""The drop score of SPEC part A, stage 4, written once: a message's score from its three
components, and the order the drop stage removes messages in. The stages, the replay's turn
stages and the analyses (the markup-free scores) all score here."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from compactor import contract


def recency(index: int, n: int) -> float:
    """0 for the first of ``n`` messages, 1 for the last. A history of one message (never a
    request, which holds two at least, but a replay's turn after every earlier message was
    dropped) has only its newest: 1."""
    return index / (n - 1) if n > 1 else 1.0


#: The components, by their names in :data:`contract.WEIGHTS`, in the formula's order.
COMPONENTS = ("recency", "role", "topic_overlap")
_W_RECENCY, _W_ROLE, _W_TOPIC = (contract.WEIGHTS[name] for name in COMPONENTS)


def weighted(recency: float, role_weight: float, topic_overlap: float) -> tuple[float, ...]:
    """Each component times its weight, in :data:`COMPONENTS`' order; the score is their sum,
    rounded."""
    return (_W_RECENCY * recency, _W_ROLE * role_weight, _W_TOPIC * topic_overlap)


def value(recency: float, role_weight: float, topic_overlap: float) -> float:
    """The score: 0.5 recency + 0.3 role weight + 0.2 topic overlap, rounded to 6 decimals."""
    return round(sum(weighted(recency, role_weight, topic_overlap)), contract.SCORE_DECIMALS)


def value_at(index: int, n: int, role_weight: float, topic_overlap: float) -> float:
    """``value(recency(index, n), role_weight, topic_overlap)`` in one call, for the replay's
    turns (thousands of scores): the same products added in the same order, rounded alike."""
    return round(
        _W_RECENCY * (index / (n - 1) if n > 1 else 1.0)
        + _W_ROLE * role_weight
        + _W_TOPIC * topic_overlap,
        contract.SCORE_DECIMALS,
    )


def values_at(
    indices: Sequence[int], n: int, role_weights: Sequence[float], overlaps: Sequence[float]
) -> list[float]:
    """``[value_at(i, n, w, o) for ...]`` over ``indices`` and their role weights and topic
    overlaps, for the drop stage of a whole session (thousands of scores): the same products
    added in the same order in float64 (numpy rounds each operation as Python does, and an
    index divides exactly as in Python), then rounded as Python's ``round`` does
    (:func:`rounded`)."""
    w_recency, w_role, w_topic, places = _W_RECENCY, _W_ROLE, _W_TOPIC, contract.SCORE_DECIMALS
    if len(indices) != len(role_weights) or len(indices) != len(overlaps):
        raise ValueError("values_at: indices, role weights and overlaps differ in length")
    if n > 1:
        recencies = np.asarray(indices, dtype=np.int64) / (n - 1)
        unrounded = (
            w_recency * recencies
            + w_role * np.asarray(role_weights, dtype=np.float64)
            + w_topic * np.asarray(overlaps, dtype=np.float64)
        )
        return rounded(unrounded, places)
    return [
        round(w_recency * 1.0 + w_role * w + w_topic * o, places)
        for w, o in zip(role_weights, overlaps, strict=True)
    ]


#: Scaled values below this are within 2**-23 of their exact scaled value, far inside the margin.
_SURE_BELOW = 2.0**30
#: How far from a half a scaled value must lie for its nearest integer to be certain.
_MARGIN = 1e-6


def rounded(values: np.ndarray, places: int) -> list[float]:
    """``[round(x, places) for x in values]``, exactly, for thousands of float64 values.

    Python's ``round`` rounds the exact value of ``x`` times ``10**places`` to an integer ``k``
    (a half to even) and answers the float nearest ``k / 10**places``. Here ``x * 10**places``
    is computed in float64, within 2**-23 of the exact product below :data:`_SURE_BELOW`, so
    wherever it lies more than :data:`_MARGIN` from a half its nearest integer is ``k``; and
    ``k / 10**places``, a correctly rounded division of two exact floats, is the float nearest
    the quotient. Every other value (near a half, large, not finite) is rounded by ``round``.
    """
    plain = values.tolist()
    if not 0 <= places <= 15:  # 10**places not exact in float64: Python's round throughout
        return [round(x, places) for x in plain]
    scale = float(10**places)
    with np.errstate(invalid="ignore", over="ignore"):  # not finite: Python's round below
        scaled = values * scale
        whole = np.rint(scaled)
        out = (whole / scale).tolist()
        sure = (np.abs(np.abs(scaled - whole) - 0.5) > _MARGIN) & (np.abs(scaled) < _SURE_BELOW)
    for k in np.flatnonzero(~sure).tolist():  # NaN compares false: never sure
        out[k] = round(plain[k], places)
    return out


@dataclass(frozen=True)
class Score:
    """A message's score and its three components."""

    recency: float  # index / (n - 1)
    role_weight: float
    topic_overlap: float
    value: float  # the weighted sum, rounded to 6 decimals

    @classmethod
    def of(cls, index: int, n: int, role: str, topic_overlap: float) -> Score:
        """The score of message ``index`` of ``n``, of ``role``, with that topic overlap."""
        r, role_weight = recency(index, n), contract.ROLE_WEIGHTS[role]
        return cls(r, role_weight, topic_overlap, value_at(index, n, role_weight, topic_overlap))

    @property
    def parts(self) -> dict[str, float]:
        """The weighted contribution of each component (they add up to the unrounded score)."""
        products = weighted(self.recency, self.role_weight, self.topic_overlap)
        return dict(zip(COMPONENTS, products, strict=True))


class Scores(Mapping[int, Score]):
    """Index -> :class:`Score` of the messages drop scores, in index order, each
    :class:`Score` made when first read: the stage itself reads only the values (a whole
    session scores thousands of messages and the response shows the survivors' alone)."""

    def __init__(
        self,
        indices: Sequence[int],
        n: int,
        role_weights: Sequence[float],
        overlaps: Sequence[float],
        values: Sequence[float],
    ) -> None:
        self._n, self._indices = n, indices
        if len(values) != len(indices):
            raise ValueError("Scores: indices and values differ in length")
        self._role_weights, self._overlaps, self._values = role_weights, overlaps, values
        self._made: dict[int, Score] = {}

    @functools.cached_property
    def _at(self) -> dict[int, int]:
        """Index -> its place (made when first needed: the response reads the values by
        :meth:`values_of`)."""
        return dict(zip(self._indices, range(len(self._indices)), strict=True))

    def value(self, index: int) -> float:
        """``self[index].value``, without making the :class:`Score`."""
        return self._values[self._at[index]]

    def values_of(self, indices: Sequence[int]) -> list[float]:
        """``[self.value(i) for i in indices]``, found at once by a binary search when the
        scored indices ascend (the drop stage's do): the response reads thousands."""
        mine = np.asarray(self._indices, dtype=np.int64)
        wanted = np.asarray(indices, dtype=np.int64)
        places = np.searchsorted(mine, wanted)
        if len(places) and not (places < len(mine)).all():
            return [self.value(i) for i in indices]
        if not np.array_equal(mine[places], wanted):  # not found, or the indices not ascending
            return [self.value(i) for i in indices]
        return [self._values[k] for k in places.tolist()]

    def __getitem__(self, index: int) -> Score:
        made = self._made.get(index)
        if made is None:
            k = self._at[index]
            made = self._made[index] = Score(
                recency(index, self._n), self._role_weights[k], self._overlaps[k], self._values[k]
            )
        return made

    def __contains__(self, index: object) -> bool:
        return index in self._at

    def __iter__(self) -> Iterator[int]:
        return iter(self._at)

    def __len__(self) -> int:
        return len(self._at)

    def __repr__(self) -> str:
        return repr(dict(self))


def drop_order_at(
    indices: Sequence[int], values: Sequence[float]
) -> tuple[tuple[int, ...], list[int]]:
    """``drop_order(dict(zip(indices, values)))`` for ``indices`` in ascending order and their
    float scores (the drop stage's, a whole session's thousands), and where each index of that
    order stands in ``indices``: a stable sort by score alone leaves ties in index order."""
    if len(indices) != len(values):
        raise ValueError("drop_order_at: indices and values differ in length")
    ranked = np.array(values, dtype=np.float64)
    if len(indices) < 2 or np.isnan(ranked).any():  # NaN: sorted()'s order, whatever it is
        order = drop_order(dict(zip(indices, values, strict=True)))
        at = {index: k for k, index in enumerate(indices)}
        return order, [at[i] for i in order]
    positions = np.argsort(ranked, kind="stable").tolist()
    return tuple(map(indices.__getitem__, positions)), positions


def drop_order(values: Mapping[int, float]) -> tuple[int, ...]:
    """The indices of ``values`` (index -> score) in the order drop removes them: the lowest
    score first, the lower index on a tie."""
    indices, scores = list(values), list(values.values())
    if set(map(type, scores)) == {float} and set(map(type, indices)) == {int}:
        # float64 and int64 hold each exactly (an index too large for int64 is sorted below):
        # numpy's sort by (score, index) is sorted()'s, without NaN
        ranked = np.array(scores, dtype=np.float64)
        if min(indices) >= -(2**63) and max(indices) < 2**63 and not np.isnan(ranked).any():
            at = np.array(indices, dtype=np.int64)
            return tuple(at[np.lexsort((at, ranked))].tolist())
    # anything else (NaN, other number types, huge indices): (score, index) pairs compare in C,
    # as the key (values[i], i) would in Python
    return tuple([i for _, i in sorted(zip(scores, indices, strict=True))])
