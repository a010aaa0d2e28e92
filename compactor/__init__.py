"""memory-compact: shrink a conversation to a character budget and explain every decision.

The face of the engine, and the only names a program needs:

- ``compact(request) -> response``: the service contract (SPEC part A), a dict in, a dict out;
- ``run(validate(request))``: the typed :class:`CompactionResult` behind it, which the explorer,
  the CLI and the HTTP service read;
- ``shrink(messages, setting)`` and ``shrink_with_report``: the agent's one call, any
  conversation in, the same format out, compacted by a :class:`Setting` (``compaction.toml``);
- the strategy registry (``STRATEGIES``, ``strategy_names``, ``apply_strategy``) and the outcome
  judges (``continuation_check``, ``judge_outcome``, ``judge_text``: SPEC part D);
- ``export(response, request, target)``: a compacted conversation back in a provider's format
  (OpenAI chat or Responses, Anthropic, Vercel AI SDK, LangChain, ShareGPT: the format registry);
- the errors, each a :class:`ProblemError` whose problems say what is wrong and where.

Everything else lives in private modules (``compactor/engine/_pipeline.py``) behind each layer's
package face (``compactor.engine``, ``compactor.strategies``, ...), which the explorer, the CLI
and the service read; a program needs only the names above.

Names from the layers above the engine (strategies, analyses, integrations) are
imported when first used (PEP 562), so ``import compactor`` loads the engine alone and a command
line that only compacts starts fast.

>>> import compactor
>>> out = compactor.compact({"messages": [
...     {"role": "user", "content": "Where is DE-4471?"},
...     {"role": "assistant", "content": "In Hamburg."}], "budget_chars": 100})
>>> out["budget"]["budget_met"]
True
"""

from __future__ import annotations

from importlib import import_module, metadata
from typing import Any

from compactor.engine import CompactionResult, Fate, MessageTrace, compact, run
from compactor.errors import (
    FormatError,
    IntegrationUnavailable,
    InvalidRequest,
    Problem,
    ProblemError,
    UnreadableJSON,
)
from compactor.input import validate
from compactor.model import Message, Params, Request
from compactor.text import TextAnalysis, analyse

try:
    __version__ = metadata.version("compaction-explorer")
except metadata.PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0+unknown"

#: Names this face gives from a higher layer, and the module each comes from, imported on first
#: use: those layers import this face, so importing them here would be a loop (and slow).
_LAZY: dict[str, str] = {
    "export": "compactor.formats",
    "Exported": "compactor.formats",
    "shrink": "compactor.integrations",
    "shrink_with_report": "compactor.integrations",
    "Setting": "compactor.strategies",
    "SettingError": "compactor.strategies",
    "ShrinkError": "compactor.integrations",
    "ShrinkReport": "compactor.integrations",
    "Shrunk": "compactor.integrations",
    "load_setting": "compactor.strategies",
    "STRATEGIES": "compactor.strategies",
    "strategy_names": "compactor.strategies",
    "get_strategy": "compactor.strategies",
    "apply_strategy": "compactor.strategies",
    "StrategyParameterError": "compactor.strategies",
    "StrategyUnavailable": "compactor.strategies",
    "continuation_check": "compactor.analyses.outcomes",
    "judge_outcome": "compactor.analyses.outcomes",
    "judge_text": "compactor.analyses.outcomes",
}

__all__ = [
    "CompactionResult",
    "Exported",
    "Fate",
    "FormatError",
    "IntegrationUnavailable",
    "InvalidRequest",
    "Message",
    "MessageTrace",
    "Params",
    "Problem",
    "ProblemError",
    "Request",
    "STRATEGIES",
    "Setting",
    "SettingError",
    "ShrinkError",
    "ShrinkReport",
    "Shrunk",
    "StrategyParameterError",
    "StrategyUnavailable",
    "TextAnalysis",
    "UnreadableJSON",
    "__version__",
    "analyse",
    "apply_strategy",
    "compact",
    "continuation_check",
    "export",
    "get_strategy",
    "judge_outcome",
    "judge_text",
    "load_setting",
    "run",
    "shrink",
    "shrink_with_report",
    "strategy_names",
    "validate",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    found = getattr(import_module(module), name)
    globals()[name] = found  # the next use is a plain attribute
    return found


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
