"""The drop score of SPEC part A, stage 4, written once: a message's score from its three
components, and the order the drop stage removes messages in. The stages, the replay's turn
stages and the analyses (the markup-free scores) all score here."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

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
    added in the same order, rounded alike, with nothing looked up per message."""
    w_recency, w_role, w_topic, places = _W_RECENCY, _W_ROLE, _W_TOPIC, contract.SCORE_DECIMALS
    if n > 1:
        last = n - 1
        return [
            round(w_recency * (i / last) + w_role * w + w_topic * o, places)
            for i, w, o in zip(indices, role_weights, overlaps, strict=True)
        ]
    return [
        round(w_recency * 1.0 + w_role * w + w_topic * o, places)
        for w, o in zip(role_weights, overlaps, strict=True)
    ]


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
        self._n = n
        self._at = {i: k for k, i in enumerate(indices)}
        self._role_weights, self._overlaps, self._values = role_weights, overlaps, values
        self._made: dict[int, Score] = {}

    def value(self, index: int) -> float:
        """``self[index].value``, without making the :class:`Score`."""
        return self._values[self._at[index]]

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


def drop_order(values: Mapping[int, float]) -> tuple[int, ...]:
    """The indices of ``values`` (index -> score) in the order drop removes them: the lowest
    score first, the lower index on a tie."""
    # (score, index) pairs compare in C, as the key (values[i], i) would in Python
    return tuple([i for _, i in sorted(zip(values.values(), values, strict=True))])
