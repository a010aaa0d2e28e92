"""The four stages, pin, dedupe, trim and drop: small pure functions, state in, state out."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
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
    Similar,
    Trimming,
)
from compactor.engine.score import Score, drop_order
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


def pin_rules(
    index: int, n: int, role: str, pinned: bool, keep_roles: Collection[str], keep_last_n: int
) -> tuple[bool, bool, bool]:
    """Stage 1's rule: whether each reason of :data:`contract.PIN_REASONS` holds for message
    ``index`` of ``n``: its ``pin`` is true, its role is kept, it is among the last
    ``keep_last_n``. The message is protected when any holds."""
    return (pinned, role in keep_roles, index >= n - keep_last_n)


def pin(messages: Sequence[Message], params: Params) -> Protection:
    """Stage 1: protect pinned messages, messages of a kept role and the last ``keep_last_n``."""
    n, keep_roles = len(messages), frozenset(params.keep_roles)
    because = tuple(
        tuple(
            compress(
                contract.PIN_REASONS,
                pin_rules(m.index, n, m.role, m.pin, keep_roles, params.keep_last_n),
            )
        )
        for m in messages
    )
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


def cuts(
    chars: Sequence[int],
    candidates: Iterable[int],
    contents: Sequence[str],
    limit: int,
    cutter: Callable[[str, int], tuple[int, str]] = cut,
) -> Iterator[tuple[int, int, str]]:
    """Stage 3's rule: each candidate (unprotected, still present) longer than ``limit``, with
    the length ``cutter`` (:func:`compactor.text.words.cut` or a cache of it) keeps and the cut's
    kind."""
    for i in candidates:
        if chars[i] > limit:
            yield (i, *cutter(contents[i], limit))


def trim(
    state: State, messages: Sequence[Message], protected: Sequence[bool], limit: int
) -> tuple[State, Trimming]:
    """Stage 3: cut every unprotected message still present that is longer than ``limit``."""
    chars = list(state.chars)
    candidates = [m.index for m in messages if state.present[m.index] and not protected[m.index]]
    contents = [m.content for m in messages]
    found: list[Cut] = []
    for i, length, kind in cuts(chars, candidates, contents, limit):
        found.append(Cut(i, chars[i], length, kind))
        chars[i] = length
    return replace(state, chars=tuple(chars)), Trimming(tuple(found))


def score(message: Message, n: int, analysis: TextAnalysis) -> Score:
    """A message's drop score: 0.5 recency + 0.3 role weight + 0.2 topic overlap."""
    return Score.of(message.index, n, message.role, analysis.topic_overlap[message.index])


def drops(order: Iterable[int], chars: Sequence[int], total: int, budget: int) -> Iterator[int]:
    """Stage 4's rule: the messages of ``order`` it drops, the next while the present
    characters (``total``, less each message dropped) exceed ``budget``."""
    for i in order:
        if total <= budget:
            return
        yield i
        total -= chars[i]


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
    order = drop_order({i: s.value for i, s in scores.items()})
    present = list(state.present)
    total = state.total
    dropped: list[Drop] = []
    for i in drops(order, state.chars, total, budget):
        present[i] = False
        dropped.append(
            Drop(
                i, scores[i].value, state.chars[i], len(dropped) + 1, total, total - state.chars[i]
            )
        )
        total -= state.chars[i]
    return replace(state, present=tuple(present)), Dropping(scores, order, tuple(dropped))
