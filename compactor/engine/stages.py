"""The four stages, pin, dedupe, trim and drop: small pure functions, state in, state out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import compress

import numpy as np

from compactor import contract
from compactor.engine.result import (
    Cut,
    Deduplication,
    Drop,
    Dropping,
    Protection,
    Removal,
    Score,
    Similar,
    Trimming,
)
from compactor.model import Message, Params
from compactor.text.profile import TextAnalysis
from compactor.text.words import cut


@dataclass(frozen=True)
class State:
    """Which messages are still present, and each message's current length."""

    present: tuple[bool, ...]
    chars: tuple[int, ...]

    @classmethod
    def of(cls, messages: Sequence[Message]) -> State:
        return cls((True,) * len(messages), tuple(len(m.content) for m in messages))

    @property
    def total(self) -> int:
        """Characters of the messages still present."""
        return sum(compress(self.chars, self.present))


def pin(messages: Sequence[Message], params: Params) -> Protection:
    """Stage 1: protect pinned messages, messages of a kept role and the last ``keep_last_n``."""
    n = len(messages)
    keep_roles = set(params.keep_roles)

    def reasons(m: Message) -> tuple[str, ...]:
        holds = {
            "pin": m.pin,
            "role": m.role in keep_roles,
            "recent": m.index >= n - params.keep_last_n,
        }
        return tuple(reason for reason in contract.PIN_REASONS if holds[reason])

    because = tuple(reasons(m) for m in messages)
    return Protection(because, explicit_pins=sum(m.pin for m in messages))


def dedupe(
    state: State,
    messages: Sequence[Message],
    protected: Sequence[bool],
    similarity: np.ndarray,
    threshold: float,
) -> tuple[State, Deduplication]:
    """Stage 2: remove each unprotected message that is a near-duplicate of an earlier one.

    In index order, message i is compared with every earlier message of its role that is still
    present (protected or not); when the best similarity reaches ``threshold`` and i is not
    protected, i is removed as a duplicate of that best (earliest on a tie).
    """
    n = len(messages)
    present = np.array(state.present, dtype=bool)
    # Each row's best candidate, kept current as messages go: -inf marks "not a candidate"
    # (another role, not earlier, or gone), and argmax takes the earliest of equal maxima.
    scores = np.where(np.isnan(similarity), -np.inf, similarity)
    if not present.all():
        scores[:, ~present] = -np.inf
    best = np.argmax(scores, axis=1) if n else np.zeros(0, dtype=np.int64)
    nearest: list[Similar | None] = []
    removed: list[Removal] = []
    for i in range(n):
        j = int(best[i])
        if scores[i, j] == -np.inf:
            nearest.append(None)
            continue
        similar = Similar(j, float(similarity[i, j]))
        nearest.append(similar)
        if not protected[i] and similar.similarity >= threshold:
            present[i] = False
            removed.append(Removal(i, j, similar.similarity, state.chars[i]))
            # only the later rows whose best was i can change their mind
            scores[i + 1 :, i] = -np.inf
            stale = i + 1 + np.flatnonzero(best[i + 1 :] == i)
            best[stale] = np.argmax(scores[stale], axis=1)
    return replace(state, present=tuple(map(bool, present))), Deduplication(
        tuple(removed), tuple(nearest)
    )


def trim(
    state: State, messages: Sequence[Message], protected: Sequence[bool], limit: int
) -> tuple[State, Trimming]:
    """Stage 3: cut every unprotected message still present that is longer than ``limit``."""
    chars = list(state.chars)
    cuts: list[Cut] = []
    for m in messages:
        if state.present[m.index] and not protected[m.index] and chars[m.index] > limit:
            length, kind = cut(m.content, limit)
            cuts.append(Cut(m.index, chars[m.index], length, kind))
            chars[m.index] = length
    return replace(state, chars=tuple(chars)), Trimming(tuple(cuts))


def score(message: Message, n: int, analysis: TextAnalysis) -> Score:
    """A message's drop score: 0.5 recency + 0.3 role weight + 0.2 topic overlap."""
    w = contract.WEIGHTS
    recency = message.index / (n - 1)
    role_weight = contract.ROLE_WEIGHTS[message.role]
    topic_overlap = analysis.topic_overlap[message.index]
    value = w["recency"] * recency + w["role"] * role_weight + w["topic_overlap"] * topic_overlap
    return Score(recency, role_weight, topic_overlap, round(value, contract.SCORE_DECIMALS))


def drop(
    state: State,
    messages: Sequence[Message],
    protected: Sequence[bool],
    analysis: TextAnalysis,
    budget: int,
) -> tuple[State, Dropping]:
    """Stage 4: drop the lowest-scored unprotected messages until the budget holds."""
    n = len(messages)
    scores = {
        m.index: score(m, n, analysis)
        for m in messages
        if state.present[m.index] and not protected[m.index]
    }
    order = tuple(sorted(scores, key=lambda i: (scores[i].value, i)))
    present = list(state.present)
    total = state.total
    dropped: list[Drop] = []
    for i in order:
        if total <= budget:
            break
        present[i] = False
        dropped.append(
            Drop(
                i, scores[i].value, state.chars[i], len(dropped) + 1, total, total - state.chars[i]
            )
        )
        total -= state.chars[i]
    return replace(state, present=tuple(present)), Dropping(scores, order, tuple(dropped))
