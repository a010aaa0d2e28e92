"""memory-compact: shrink a conversation to a character budget and explain every decision.

``compact(request) -> response`` is the service contract; ``run(validate(request))`` gives the
typed :class:`CompactionResult` behind it, which the explorer, the CLI and the HTTP service read.
"""

from compactor.analysis import TextAnalysis, analyse
from compactor.errors import InvalidRequest, Problem
from compactor.model import Message, Params, Request
from compactor.pipeline import compact, run
from compactor.result import CompactionResult, Fate, MessageTrace
from compactor.validation import validate

__all__ = [
    "CompactionResult",
    "Fate",
    "InvalidRequest",
    "Message",
    "MessageTrace",
    "Params",
    "Problem",
    "Request",
    "TextAnalysis",
    "analyse",
    "compact",
    "run",
    "validate",
]
