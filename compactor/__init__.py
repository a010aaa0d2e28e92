"""memory-compact: shrink a conversation to a character budget and explain every decision.

``compact(request) -> response`` is the service contract; ``run(validate(request))`` gives the
typed :class:`CompactionResult` behind it, which the explorer, the CLI and the HTTP service read.
"""

from compactor.engine.pipeline import compact, run
from compactor.engine.result import CompactionResult, Fate, MessageTrace
from compactor.errors import InvalidRequest, Problem
from compactor.input.validation import validate
from compactor.model import Message, Params, Request
from compactor.text.profile import TextAnalysis, analyse

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
