"""The engine: the four stages of SPEC part A (:mod:`~compactor.engine._stages`), the drop score
(:mod:`~compactor.engine._score`), the typed result and the contract response
(:mod:`~compactor.engine._result`, :mod:`~compactor.engine._response`), the pipeline that
composes them (:mod:`~compactor.engine._pipeline`), and the same stages on content numbers for
the turns of a replay (:mod:`~compactor.engine._turn_stages`, held equal to the pipeline)."""

from compactor.engine._pipeline import (
    compact,
    outputs,
    run,
)
from compactor.engine._response import (
    build_response,
)
from compactor.engine._result import (
    CharTotals,
    CompactionResult,
    Deduplication,
    Fate,
    MessageTrace,
    Removal,
)
from compactor.engine._score import drop_order, value
from compactor.engine._stages import duplicates, nearest, pin_rules
from compactor.engine._turn_stages import (
    TurnStages,
)

__all__ = [
    "nearest",
    "build_response",
    "CharTotals",
    "compact",
    "CompactionResult",
    "Deduplication",
    "drop_order",
    "duplicates",
    "Fate",
    "MessageTrace",
    "outputs",
    "pin_rules",
    "Removal",
    "run",
    "TurnStages",
    "value",
]
