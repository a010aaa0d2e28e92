"""The four stages, pin, dedupe, trim and drop: small pure functions, state in, state out."""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import accumulate, compress, repeat
from operator import attrgetter

import numpy as np

from compactor import contract
from compactor.engine._result import (
    Cut,
    Deduplication,
    Drop,
    Dropping,
    Protection,
    Records,
    Removal,
    Similar,
    Trimming,
)
from compactor.engine._score import Score, Scores, drop_order_at, values_at
from compactor.model import Message, Params
from compactor.text import PairSimilarity, Reaching, TextAnalysis, cut

_content = attrgetter("content")


@dataclass(frozen=True)
class State:
    """Which messages are still present, and each message's current length."""

    present: tuple[bool, ...]
    chars: tuple[int, ...]

    @classmethod
    def of(cls, messages: Sequence[Message]) -> State:
        return cls((True,) * len(messages), tuple(map(len, map(_content, messages))))

    @functools.cached_property
    def total(self) -> int:
        """Characters of the messages still present (summed once: the pipeline and drop read
        it of the same state)."""
        return sum(compress(self.chars, self.present))


def pin_rules(
    index: int, n: int, role: str, pinned: bool, keep_roles: Collection[str], keep_last_n: int
) -> tuple[bool, bool, bool]:
    """Stage 1's rule: whether each reason of :data:`contract.PIN_REASONS` holds for message
    ``index`` of ``n``: its ``pin`` is true, its role is kept, it is among the last
    ``keep_last_n``. The message is protected when any holds."""
    return (pinned, role in keep_roles, index >= n - keep_last_n)


def pin(pins: Sequence[bool], roles: Sequence[str], params: Params) -> Protection:
    """Stage 1: protect pinned messages, messages of a kept role and the last ``keep_last_n``.

    ``pins`` and ``roles`` are each message's ``pin`` and ``role`` (a request's columns)."""
    n, keep_roles, keep_last_n = len(pins), frozenset(params.keep_roles), params.keep_last_n
    reasons = _REASONS  # the reasons of each answer of the rule, found once
    # The rule reads a message's index only to tell whether it is among the last keep_last_n,
    # so its answer is asked once per pin and role before them (as for their first message)
    # and once per pin and role among them (as for the last message), then looked up in C (a
    # whole session has thousands of messages and a few such classes).
    last = max(0, n - keep_last_n)

    def answers(index: int) -> _Answers:
        return _Answers(
            lambda key: reasons[pin_rules(index, n, key[1], key[0], keep_roles, keep_last_n)]
        )

    if len(roles) != n:
        raise ValueError("pin: pins and roles differ in length")
    if any(pins):
        because = [
            *map(answers(0).__getitem__, zip(pins[:last], roles[:last], strict=True)),
            *map(answers(n - 1).__getitem__, zip(pins[last:], roles[last:], strict=True)),
        ]
    else:  # nothing pinned (most histories): a message's answer is its role's
        kinds = set(roles)
        before, among = answers(0), answers(n - 1)
        of_role_before = {role: before[False, role] for role in kinds}
        of_role_among = {role: among[False, role] for role in kinds}
        because = [
            *map(of_role_before.__getitem__, roles[:last]),
            *map(of_role_among.__getitem__, roles[last:]),
        ]
    return Protection(tuple(because), explicit_pins=sum(pins))


class _Answers(dict):
    """Key -> ``answer(key)``, each asked once: a lookup table filled when a key is first
    looked up."""

    def __init__(self, answer: Callable[[tuple], tuple[str, ...]]) -> None:
        super().__init__()
        self._answer = answer

    def __missing__(self, key: tuple) -> tuple[str, ...]:
        found = self[key] = self._answer(key)
        return found


class _Reasons(dict):
    """Per answer of :func:`pin_rules` (three truths), the reasons that hold, in their order:
    the eight answers of booleans found once; any other (a Python caller's ``pin=None``) when
    asked."""

    def __missing__(self, rules: tuple) -> tuple[str, ...]:
        return tuple(compress(contract.PIN_REASONS, rules))


_REASONS = _Reasons(
    ((a, b, c), tuple(compress(contract.PIN_REASONS, (a, b, c))))
    for a in (False, True)
    for b in (False, True)
    for c in (False, True)
)


def duplicates(
    rows: Iterable[int],
    candidates: Callable[[int], Iterable[tuple[int, int]]],
    present: list[int],
) -> list[int]:
    """Stage 2's rule, the dedupe walk: in index order, each message of ``rows`` (the
    unprotected ones) goes when an earlier message of its role that is still present is as
    similar as the threshold. Returns ``present``, updated in place.

    ``present[j]`` holds one bit per threshold, set while ``j`` is present at that threshold;
    ``candidates(i)`` yields ``(j, bits)`` for the earlier messages of ``i``'s role, ``bits``
    the thresholds their similarity with ``i`` reaches. The stage walks at one threshold (bits
    1 and 0), the threshold sweep at every threshold at once. A caller may leave out the pairs
    it knows fall short (the replay's size bound) and, computing similarities as it yields
    them, those already gone (``present`` is the list the walk updates).
    """
    for i in rows:
        here = present[i]
        for j, bits in candidates(i):
            here &= ~(bits & present[j])
            if not here:  # gone at every threshold: no other pair can change that
                break
        present[i] = here
    return present


def nearest(similarity: np.ndarray, present: np.ndarray) -> tuple[Similar | None, ...]:
    """Per message, the most similar earlier message of its role among ``present`` (the
    earliest on a tie), or None: a removal's ``duplicate_of``, and every message's nearest.

    A message removed at ``i`` is gone for every later row and was present for every earlier
    one, so the messages present after the walk give each row what it saw during the walk.
    """
    # -inf marks "not a candidate" (another role, not earlier, or gone), and argmax takes the
    # earliest of equal maxima.
    scores = np.where(np.isnan(similarity), -np.inf, similarity)
    scores[:, ~present] = -np.inf
    if not len(scores):
        return ()
    best = np.argmax(scores, axis=1)
    top = scores[np.arange(len(scores)), best]
    return tuple(
        None if t == -np.inf else Similar(j, float(similarity[i, j]))
        for i, (j, t) in enumerate(zip(best.tolist(), top.tolist(), strict=True))
    )


def dedupe(
    state: State,
    messages: Sequence[Message] | Sequence[str],  # not read: the pairs and protected decide
    protected: Sequence[bool],
    similarity: PairSimilarity | np.ndarray,
    threshold: float,
) -> tuple[State, Deduplication]:
    """Stage 2: remove each unprotected message that is a near-duplicate of an earlier one.

    In index order, message i is compared with every earlier message of its role that is still
    present (protected or not); when the best similarity reaches ``threshold`` and i is not
    protected, i is removed as a duplicate of that best (earliest on a tie).

    ``similarity`` is the analysis' pairs (only those that reach ``threshold`` are read) or a
    whole matrix (another similarity: every pair is read).
    """
    if isinstance(similarity, np.ndarray):
        similarity = PairSimilarity.given(similarity)
    reaching = similarity.reaching(threshold)
    if reaching is None:
        return _dedupe_on_matrix(state, protected, similarity.matrix, threshold)
    chars = state.chars
    here = _flags(state.present, writable=True)
    gone, of, values = _walk(reaching, here, protected)
    removed = Records(Removal, (gone, of, values, list(_items(chars, gone))))
    nearest = Nearest(similarity, here)
    return replace(state, present=tuple(here.tolist())), Deduplication(removed, nearest)


def _walk(
    reaching: Reaching, here: np.ndarray, protected: Sequence[bool]
) -> tuple[list[int], list[int], list[float]]:
    """Stage 2's walk on the pairs that reach the threshold: ``(i, duplicate_of, similarity)``
    for each message it removes, in index order, as three columns (a whole session removes
    thousands); each is marked gone in ``here`` (which messages are present, as booleans).

    The messages of a class (one role, one word set) are similarity 1 to each other, so the
    earliest present one of i's class is its best; else the best is among the earliest present
    messages of the classes linked to i's (every present member of a class is as similar to i,
    and the earliest wins a tie).

    A class linked to no other (most of them: a whole session of tiny messages has thousands
    of classes and a few links) is decided at once: its earliest present member stays (nothing
    before it is as similar), and every later unprotected one goes as its duplicate. Only the
    messages of linked classes are walked one by one; neither part reads the other's classes.
    """
    n = len(reaching.klass)
    if not n:
        return [], [], []
    klass = reaching.klass
    kept = _flags(protected)
    links, self_reaches = reaching.links, reaching.self_reaches
    linked = np.zeros(int(klass.max()) + 1, dtype=bool)
    linked[list(links)] = True
    linked[[d for pairs in links.values() for d, _ in pairs]] = True
    gone: list[int] = []
    of_first: list[int] = []
    if self_reaches:
        members = np.flatnonzero(here & ~linked[klass])
        classes = klass[members]
        first_of = np.full(len(linked), n, dtype=np.int64)
        np.minimum.at(first_of, classes, members)  # each class's earliest member
        goes = members[(first_of[classes] != members) & ~kept[members]]
        gone, of_first = goes.tolist(), first_of[klass[goes]].tolist()
    values = [1.0] * len(gone)
    walked: list[tuple[int, int, float]] = []
    first: dict[int, int] = {}  # linked class -> its earliest message still present
    for i in np.flatnonzero(here & linked[klass]).tolist():
        c = int(klass[i])
        if not protected[i]:
            if self_reaches and c in first:
                walked.append((i, first[c], 1.0))
                continue
            best: tuple[float, int] | None = None
            for d, value in links.get(c, ()):
                j = first.get(d)
                if j is not None and (best is None or (value, -j) > (best[0], -best[1])):
                    best = (value, j)
            if best is not None:
                walked.append((i, best[1], best[0]))
                continue
        first.setdefault(c, i)
    if walked:  # merged in index order (each message goes once; both parts are in order)
        at = np.searchsorted(np.array(gone, dtype=np.int64), [i for i, _, _ in walked])
        gone, of_first, values = (
            np.insert(np.array(column, dtype=kind), at, [w[k] for w in walked]).tolist()
            for k, (column, kind) in enumerate(
                ((gone, np.int64), (of_first, np.int64), (values, np.float64))
            )
        )
    here[gone] = False
    return gone, of_first, values


def _dedupe_on_matrix(
    state: State, protected: Sequence[bool], similarity: np.ndarray, threshold: float
) -> tuple[State, Deduplication]:
    """:func:`dedupe` on a whole matrix: a threshold the pairs cannot narrow, another
    similarity."""
    present = np.array(state.present, dtype=bool)
    reaches = (similarity >= threshold) & present  # NaN (another role, not earlier) never does
    # only the rows with a pair that reaches the threshold can go
    rows = np.flatnonzero(present & ~np.asarray(protected, dtype=bool) & reaches.any(axis=1))
    walked = duplicates(
        rows.tolist(),
        lambda i: zip(np.flatnonzero(reaches[i]).tolist(), repeat(1)),
        present.astype(int).tolist(),
    )
    present = np.array(walked, dtype=bool)
    near = nearest(similarity, present)
    removed = tuple(
        Removal(i, near[i].index, near[i].similarity, state.chars[i])
        for i in rows.tolist()
        if not walked[i]
    )
    return replace(state, present=tuple(map(bool, present))), Deduplication(removed, near)


# Up to this many messages, the nearest of every message is read from the whole matrix (computed
# once per analysis); above it, each row is computed when read.
_WHOLE_MATRIX = 3_000


class Nearest(Sequence[Similar | None]):
    """Per message, the most similar earlier message of its role among ``present`` (earliest
    on a tie): :func:`nearest`, each computed when first read, for views that show a few."""

    def __init__(self, pairs: PairSimilarity, present: np.ndarray) -> None:
        self._pairs, self._present = pairs, present
        self._known: dict[int, Similar | None] = {}
        self._all: tuple[Similar | None, ...] | None = None

    def __len__(self) -> int:
        return len(self._present)

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if self._all is None and (self._pairs.computed or len(self) <= _WHOLE_MATRIX):
            self._all = nearest(self._pairs.matrix, self._present)
        if self._all is not None:
            return self._all[i]
        if i not in self._known:
            self._known[i] = nearest(self._pairs.row(i)[None, :], self._present)[0]
        return self._known[i]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence):
            return NotImplemented
        return tuple(self) == tuple(other)

    __hash__ = None  # type: ignore[assignment]


def cuts(
    chars: Sequence[int],
    candidates: Iterable[int],
    contents: Sequence[str],
    limit: int,
    cutter: Callable[[str, int], tuple[int, str]] = cut,
) -> Iterator[tuple[int, int, str]]:
    """Stage 3's rule: each candidate (unprotected, still present) longer than ``limit``, with
    the length ``cutter`` (:func:`compactor.text._words.cut` or a cache of it) keeps and the cut's
    kind."""
    for i in candidates:
        if chars[i] > limit:
            yield (i, *cutter(contents[i], limit))


def trim(
    state: State, contents: Sequence[str], protected: Sequence[bool], limit: int
) -> tuple[State, Trimming]:
    """Stage 3: cut every unprotected message still present that is longer than ``limit``
    (``contents``: each message's content)."""
    chars = list(state.chars)
    # only a message longer than the limit can be cut: the rest are not asked (a whole session
    # has thousands of short ones, often none longer)
    if not chars or max(chars) <= limit:
        return state, Trimming(())
    longer = zip(range(len(chars)), chars, state.present, protected, strict=True)
    candidates = [i for i, size, here, kept in longer if size > limit and here and not kept]
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


def _flags(values: Sequence[bool], writable: bool = False) -> np.ndarray:
    """``np.array(values, dtype=bool)``, read as the bytes of a list or tuple of booleans (a
    third of the time on a whole session's thousands); any other values as numpy reads them."""
    if isinstance(values, list | tuple):
        try:
            data = (bytearray if writable else bytes)(values)
        except (TypeError, ValueError):  # not integers of one byte
            data = None
        if data is not None and not data.translate(None, b"\0\1"):  # only False and True
            return np.frombuffer(data, dtype=bool)
    return np.array(values, dtype=bool)


def _items(values: Sequence | dict, keys: Sequence[int]) -> Sequence:
    """``[values[k] for k in keys]``, read in C."""
    if len(keys) > 1:
        return operator.itemgetter(*keys)(values)
    return [values[k] for k in keys]


def drop(
    state: State,
    roles: Sequence[str],
    protected: Sequence[bool],
    analysis: TextAnalysis,
    budget: int,
) -> tuple[State, Dropping]:
    """Stage 4: drop the lowest-scored unprotected messages until the budget holds (``roles``:
    each message's role)."""
    n, chars = len(roles), state.chars
    # what score() gives each unprotected message still present, in one pass (a whole session
    # scores thousands): present and not protected, as booleans, is present > protected
    if len(protected) != n or len(state.present) != n:
        raise ValueError("drop: state, roles and protected differ in length")
    indices = np.flatnonzero(_flags(state.present) > _flags(protected)).tolist()
    weight = dict(contract.ROLE_WEIGHTS)
    role_weights = list(map(weight.__getitem__, _items(roles, indices)))
    overlaps = list(_items(analysis.topic_overlap, indices))
    values = values_at(indices, n, role_weights, overlaps)
    scores = Scores(indices, n, role_weights, overlaps, values)
    order, positions = drop_order_at(indices, values)  # indices ascend: compress kept order
    present = list(state.present)
    total = state.total
    gone = list(drops(order, chars, total, budget))
    sizes = list(_items(chars, gone))
    after = list(accumulate(sizes, operator.sub, initial=total))  # present chars, each step
    for i in gone:
        present[i] = False
    dropped = Records(
        Drop,
        (
            gone,
            list(_items(values, positions[: len(gone)])),  # gone is the order's first ones
            sizes,
            range(1, len(gone) + 1),  # rank
            after[:-1],  # before each drop
            after[1:],  # after it
        ),
    )
    return replace(state, present=tuple(present)), Dropping(scores, order, dropped)
