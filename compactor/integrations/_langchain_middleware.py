"""LangChain v1: an agent middleware whose ``before_model`` hook shrinks the state's messages
with a setting, so the model is sent only the compacted history (the langchain extra)::

    from langchain.agents import create_agent
    agent = create_agent(model, tools, middleware=[ShrinkMiddleware("compaction.toml")])

Like LangChain's own ``SummarizationMiddleware``, it replaces the state's messages (a
``RemoveMessage`` of them all, then the shrunk ones, each with its original ``id``), so what
is removed stays removed on later turns; when the setting removes, cuts and drops nothing,
the state is left as it is. The system prompt of ``create_agent`` is not in the state, so it
is never compacted.
"""

from __future__ import annotations

from typing import Any

from langchain.agents.middleware import AgentMiddleware, AgentState
from langchain_core.messages import RemoveMessage
from langgraph.graph.message import REMOVE_ALL_MESSAGES

from compactor.integrations._shrink import SettingLike, as_setting, shrink_with_report
from compactor.integrations._shrink_report import ShrinkReport


class ShrinkMiddleware(AgentMiddleware):
    """Shrink the agent's messages with ``setting`` before every model call.

    Args:
        setting: a :class:`~compactor.strategies.Setting`, its dict, or the path of a
            ``compaction.toml`` (read once, here).
        lossy_fixes: past the contract's limits (200 messages, 8,000 characters a message), keep
            the last 200 and cut longer contents first; without it (the default) the history
            is compacted whole, in the agent mode.
    """

    def __init__(self, setting: SettingLike, *, lossy_fixes: bool = False) -> None:
        super().__init__()
        self.setting = as_setting(setting)
        self.lossy_fixes = lossy_fixes
        #: The report of the last shrink (None before the first model call).
        self.last_report: ShrinkReport | None = None

    def before_model(self, state: AgentState, runtime: Any) -> dict[str, Any] | None:
        messages = list(state["messages"])
        if not messages:
            return None
        shrunk = shrink_with_report(messages, self.setting, lossy_fixes=self.lossy_fixes)
        report = self.last_report = shrunk.report
        if not (report.removed or report.cut or report.replaced or report.export_notes):
            return None  # nothing compacted: the state keeps its own messages, metadata and all
        return {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), *shrunk.messages]}

    async def abefore_model(self, state: AgentState, runtime: Any) -> dict[str, Any] | None:
        return self.before_model(state, runtime)
