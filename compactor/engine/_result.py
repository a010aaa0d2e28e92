"""Typed results: what each stage decided, per message and in total (the contract response is
:func:`compactor.engine._response.build_response` of one)."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from enum import StrEnum
from itertools import compress
from typing import TypeVar

from compactor.engine._score import Score
from compactor.model import Message, Request, writer
from compactor.text import TextAnalysis


class Fate(StrEnum):
    """What happened to a message, one value per message."""

    PROTECTED = "protected"  # kept verbatim because a pin rule protects it
    VERBATIM = "verbatim"  # unprotected, kept whole
    TRIMMED = "trimmed"  # unprotected, kept as a prefix
    DUPLICATE = "duplicate"  # removed by dedupe
    DROPPED = "dropped"  # removed by drop (possibly after a trim)


# --- stage reports -------------------------------------------------------------------------


_writer = functools.cache(writer)
T = TypeVar("T")


class Records(Sequence[T]):
    """Records of the dataclass ``cls`` kept as columns (one per field, in order), each record
    made when first read: a stage that removes or drops thousands of messages (a whole session
    of tiny ones) makes none while the response is built from the columns. Equal to any
    sequence of the same records (a tuple of them)."""

    def __init__(self, cls: type[T], columns: Sequence[Sequence]) -> None:
        if len(columns) != len(fields(cls)) or len({len(c) for c in columns}) > 1:  # type: ignore[arg-type]
            raise ValueError(f"Records of {cls.__name__}: one column per field, of one length")
        self._cls, self.columns = cls, tuple(columns)
        self._made: tuple[T, ...] | None = None

    @classmethod
    def columns_of(cls, records: Sequence, names: Sequence[str]) -> tuple[Sequence, ...]:
        """The columns ``names`` of ``records`` (Records or any sequence of such records)."""
        if isinstance(records, Records):
            return records.columns
        if not records:
            return tuple([] for _ in names)
        return tuple(zip(*[[getattr(r, name) for name in names] for r in records], strict=True))

    def _all(self) -> tuple[T, ...]:
        if self._made is None:
            self._made = tuple(map(_writer(self._cls), *self.columns))
        return self._made

    def __len__(self) -> int:
        return len(self.columns[0]) if self.columns else 0

    def __getitem__(self, i):  # type: ignore[override]
        return self._all()[i]

    def __iter__(self) -> Iterator[T]:
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence):
            return NotImplemented
        return self._all() == tuple(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self._all())


@dataclass(frozen=True)
class Protection:
    """Stage 1, pin: the reasons each message is protected (empty when it is not)."""

    because: tuple[tuple[str, ...], ...]
    explicit_pins: int

    @property
    def protected(self) -> tuple[bool, ...]:
        return tuple(map(bool, self.because))

    @property
    def indices(self) -> tuple[int, ...]:
        return tuple(compress(range(len(self.because)), self.because))


@dataclass(frozen=True)
class Similar:
    """The most similar earlier message of the same role still present when a message was met."""

    index: int
    similarity: float


@dataclass(frozen=True)
class Removal:
    """Stage 2, dedupe: a message removed as a near-duplicate of an earlier one."""

    index: int
    duplicate_of: int
    similarity: float
    chars: int


@dataclass(frozen=True)
class Deduplication:
    #: In index order (:class:`Records` from the stage).
    removed: Sequence[Removal]
    #: Per message, its most similar earlier same-role message still present (None if none);
    #: a sequence that may compute each when read (compaction itself reads none).
    nearest: Sequence[Similar | None]


@dataclass(frozen=True)
class Cut:
    """Stage 3, trim: a message cut to its first ``chars`` characters."""

    index: int
    original_chars: int
    chars: int
    kind: str  # "sentence" or "hard"


@dataclass(frozen=True)
class Trimming:
    cuts: tuple[Cut, ...]


@dataclass(frozen=True)
class Drop:
    """Stage 4, drop: one removal, with the present characters before and after it."""

    index: int
    score: float
    chars: int
    rank: int  # 1 for the first message dropped
    total_before: int
    total_after: int


@dataclass(frozen=True)
class Dropping:
    #: Score of every unprotected message still present after dedupe, by index.
    scores: Mapping[int, Score]
    #: Every such message in the order drop would remove it (lowest score first).
    order: tuple[int, ...]
    #: In the order dropped (:class:`Records` from the stage).
    dropped: Sequence[Drop]


# --- the whole result ------------------------------------------------------------------------


@dataclass(frozen=True)
class MessageTrace:
    """Everything the pipeline decided about one input message."""

    message: Message
    fate: Fate
    protected_because: tuple[str, ...]
    #: The run's nearest messages, per message (:attr:`Deduplication.nearest`): read through
    #: :attr:`nearest`, so that a view that never asks computes none.
    nearby: Sequence[Similar | None]
    cut: Cut | None  # set when trimmed, also if the message was dropped afterwards
    score: Score | None  # set for unprotected messages that reached the drop stage
    drop: Drop | None
    output: str | None  # the returned content; None when the message did not survive

    @property
    def index(self) -> int:
        return self.message.index

    @property
    def nearest(self) -> Similar | None:
        """The most similar earlier message of its role still present when it was met."""
        return self.nearby[self.message.index]

    @property
    def protected(self) -> bool:
        return bool(self.protected_because)

    @property
    def survived(self) -> bool:
        return self.output is not None

    @property
    def original_chars(self) -> int:
        return len(self.message.content)

    @property
    def chars(self) -> int:
        """Characters returned (0 when removed)."""
        return 0 if self.output is None else len(self.output)


@dataclass(frozen=True)
class CharTotals:
    """Characters present after each stage, for a waterfall."""

    input: int
    after_dedupe: int
    after_trim: int
    output: int


@dataclass(frozen=True)
class CompactionResult:
    """One pipeline run: the request, every stage's report and every message's trace."""

    request: Request
    analysis: TextAnalysis
    protection: Protection
    deduplication: Deduplication
    trimming: Trimming
    dropping: Dropping
    messages: tuple[MessageTrace, ...]
    totals: CharTotals

    @property
    def survivors(self) -> tuple[MessageTrace, ...]:
        return tuple(t for t in self.messages if t.survived)

    @property
    def protected_chars(self) -> int:
        return sum(t.original_chars for t in self.messages if t.protected)

    @property
    def budget_met(self) -> bool:
        return self.totals.output <= self.request.params.budget_chars
