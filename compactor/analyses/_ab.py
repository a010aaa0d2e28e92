"""A/B: the same history compacted with two parameter sets, message by message and in total."""

from __future__ import annotations

from dataclasses import dataclass

from compactor.engine import CompactionResult, Fate, run
from compactor.input import validate
from compactor.model import Params, Request
from compactor.text import TextAnalysis


@dataclass(frozen=True)
class Side:
    """The totals of one side of an A/B comparison."""

    params: Params
    input_chars: int
    output_chars: int
    output_messages: int
    removed_messages: int  # duplicates and dropped
    trimmed_messages: int  # returned as a prefix
    truncated_chars: int  # cut from the messages returned as a prefix
    budget_met: bool


@dataclass(frozen=True)
class FatePair:
    """One message's fate under A and under B."""

    index: int
    role: str
    original_chars: int
    fate_a: str
    fate_b: str
    chars_a: int  # characters returned under A (0 when removed)
    chars_b: int
    fate_differs: bool
    #: The fate or the returned text differs (a message trimmed under both, at other lengths,
    #: differs without a change of fate).
    differs: bool


@dataclass(frozen=True)
class ABComparison:
    a: Side
    b: Side
    messages: tuple[FatePair, ...]  # one per input message, in index order

    @property
    def differing(self) -> tuple[int, ...]:
        """Indices of the messages whose fate or returned text differs."""
        return tuple(m.index for m in self.messages if m.differs)

    @property
    def changed_params(self) -> tuple[str, ...]:
        """Names of the parameters that differ between A and B."""
        a, b = self.a.params.to_dict(), self.b.params.to_dict()
        return tuple(name for name in a if a[name] != b[name])


def compare_params(
    request: Request, a: Params, b: Params, analysis: TextAnalysis | None = None
) -> ABComparison:
    """Compact ``request``'s messages with ``a`` and with ``b`` and compare the two results.

    Both parameter sets are checked against the input schema first (raises
    :class:`compactor.InvalidRequest` naming the parameter); ``analysis`` is reused when given.
    """
    sides = []
    for params in (a, b):
        checked = validate({**request.to_dict(), **params.to_dict()}, limits=request.limits)
        sides.append(run(checked, analysis=analysis))
        analysis = sides[-1].analysis
    return compare_results(*sides)


def compare_results(a: CompactionResult, b: CompactionResult) -> ABComparison:
    """Compare two results of the same history; raises ValueError when the histories differ."""
    if a.request.messages != b.request.messages:
        raise ValueError("A and B must compact the same history (their messages differ)")
    pairs = tuple(
        FatePair(
            index=ta.index,
            role=ta.message.role,
            original_chars=ta.original_chars,
            fate_a=str(ta.fate),
            fate_b=str(tb.fate),
            chars_a=ta.chars,
            chars_b=tb.chars,
            fate_differs=ta.fate != tb.fate,
            differs=ta.fate != tb.fate or ta.output != tb.output,
        )
        for ta, tb in zip(a.messages, b.messages, strict=True)
    )
    return ABComparison(_side(a), _side(b), pairs)


def _side(result: CompactionResult) -> Side:
    returned = result.survivors
    trimmed = [t for t in returned if t.fate is Fate.TRIMMED]
    return Side(
        params=result.request.params,
        input_chars=result.totals.input,
        output_chars=result.totals.output,
        output_messages=len(returned),
        removed_messages=len(result.messages) - len(returned),
        trimmed_messages=len(trimmed),
        truncated_chars=sum(t.original_chars - t.chars for t in trimmed),
        budget_met=result.budget_met,
    )
