"""Integrations: the chosen setting leaves the explorer for an agent.

- the setting (strategy, parameters, one budget) and its ``compaction.toml``, re-exported from
  its home below this layer, :mod:`compactor.strategies._setting` (the CLI, the corpus grid and
  the explorer read it there);
- :mod:`.shrink`: ``shrink(messages, setting)``, the one call an agent makes, and its report;
- ``ShrinkMiddleware`` (:mod:`.langchain_middleware`, the langchain extra): a LangChain v1
  agent middleware whose ``before_model`` shrinks the state's messages;
- ``ShrinkingSession`` (:mod:`.agents_session`, the agents extra): an OpenAI Agents SDK session
  whose ``get_items`` returns the history shrunk.

The last two are imported when first named, so the face loads without their packages; naming
one without its extra raises :class:`IntegrationUnavailable` with the command that installs it.
"""

from typing import Any

from compactor.errors import IntegrationUnavailable
from compactor.integrations._budget import fit_tokens
from compactor.integrations._shrink import ShrinkError, Shrunk, shrink, shrink_with_report
from compactor.integrations._shrink_report import ShrinkReport
from compactor.strategies import (
    SETTING_FILE_NAME as FILE_NAME,
)
from compactor.strategies import (
    Setting,
    SettingError,
    load_setting,
    setting_from_toml,
    setting_toml,
)

#: The integrations that need an extra: name -> (module, extra, what needs it).
_LAZY = {
    "ShrinkMiddleware": ("langchain_middleware", "langchain", "The LangChain middleware"),
    "ShrinkingSession": ("agents_session", "agents", "The OpenAI Agents SDK session"),
}

__all__ = [
    "FILE_NAME",
    "IntegrationUnavailable",
    "Setting",
    "SettingError",
    "ShrinkError",
    "ShrinkMiddleware",
    "ShrinkReport",
    "ShrinkingSession",
    "Shrunk",
    "fit_tokens",
    "load_setting",
    "setting_from_toml",
    "setting_toml",
    "shrink",
    "shrink_with_report",
]


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, extra, what = _LAZY[name]
    try:
        if module == "langchain_middleware":
            from compactor.integrations import _langchain_middleware as found
        else:
            from compactor.integrations import _agents_session as found
    except ImportError as error:
        if isinstance(error, IntegrationUnavailable):
            raise
        raise IntegrationUnavailable(what, extra) from None
    return getattr(found, name)
