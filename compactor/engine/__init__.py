"""The engine: the four stages of SPEC part A (:mod:`~compactor.engine.stages`), the drop score
(:mod:`~compactor.engine.score`), the typed result and the contract response
(:mod:`~compactor.engine.result`, :mod:`~compactor.engine.response`), the pipeline that
composes them (:mod:`~compactor.engine.pipeline`), and the same stages on content numbers for
the turns of a replay (:mod:`~compactor.engine.turn_stages`, held equal to the pipeline)."""

from compactor.engine.pipeline import (
    compact,
    outputs,
    run,
)
from compactor.engine.response import (
    build_response,
)
from compactor.engine.result import (
    CharTotals,
    CompactionResult,
    Fate,
    MessageTrace,
)
from compactor.engine.turn_stages import (
    TurnStages,
)

__all__ = [
    "CharTotals",
    "CompactionResult",
    "Fate",
    "MessageTrace",
    "TurnStages",
    "build_response",
    "compact",
    "outputs",
    "run",
]
