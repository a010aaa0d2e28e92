"""memory-compact: shrink a conversation to a character budget and explain every decision.

``compact(request) -> response`` is the service contract; ``run(validate(request))`` gives the
typed :class:`CompactionResult` behind it, which the explorer, the CLI and the HTTP service read.
``shrink(messages, setting)`` is the agent's one call: any conversation in, the same format out,
compacted by a chosen setting (:mod:`compactor.integrations`).
"""

from typing import Any

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
    "shrink",
    "shrink_with_report",
    "validate",
]

#: Names this face gives from a higher layer, imported on first use (PEP 562): ``shrink`` reads
#: formats and writes exports, which import this face, so importing it here would be a loop.
_LAZY = ("shrink", "shrink_with_report")


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from compactor import integrations

    return getattr(integrations, name)
