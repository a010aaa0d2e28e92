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

Every name is imported when first used (PEP 562): ``import compactor`` loads nothing but this
face, so ``python -m compactor --help`` starts without the engine, a command line that only
compacts loads the engine alone, and the layers above it (strategies, analyses, integrations)
load only where one of their names is used.

>>> import compactor
>>> out = compactor.compact({"messages": [
...     {"role": "user", "content": "Where is DE-4471?"},
...     {"role": "assistant", "content": "In Hamburg."}], "budget_chars": 100})
>>> out["budget"]["budget_met"]
True
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the engine's names for type checkers; at run time each loads on first use
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

    __version__: str

#: Each name this face gives, and the module it comes from, imported on first use: the engine's
#: names so that ``import compactor`` costs nothing (the CLI's ``--help`` needs none of them);
#: the higher layers' because they import this face, so importing them here would be a loop.
_LAZY: dict[str, str] = {
    "CompactionResult": "compactor.engine",
    "Fate": "compactor.engine",
    "MessageTrace": "compactor.engine",
    "compact": "compactor.engine",
    "run": "compactor.engine",
    "FormatError": "compactor.errors",
    "IntegrationUnavailable": "compactor.errors",
    "InvalidRequest": "compactor.errors",
    "Problem": "compactor.errors",
    "ProblemError": "compactor.errors",
    "UnreadableJSON": "compactor.errors",
    "validate": "compactor.input",
    "Message": "compactor.model",
    "Params": "compactor.model",
    "Request": "compactor.model",
    "TextAnalysis": "compactor.text",
    "analyse": "compactor.text",
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


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("compaction-explorer")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "0+unknown"


def __getattr__(name: str) -> Any:
    if name == "__version__":
        globals()[name] = found = _version()
        return found
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    found = getattr(import_module(module), name)
    globals()[name] = found  # the next use is a plain attribute
    return found


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY) | {"__version__"})
