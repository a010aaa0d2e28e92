"""OpenAI Agents SDK: a session that keeps every item and returns the history shrunk (the
agents extra)::

    from agents import Runner, SQLiteSession
    session = ShrinkingSession(SQLiteSession("user-42", "chats.db"), "compaction.toml")
    await Runner.run(agent, "And the weather in Oslo?", session=session)

The SDK's ``Session`` protocol is four methods, and it allows this: the runner reads the history
with ``get_items()`` once at the start of each run, sends it before the new input, and saves the
new input and the run's items with ``add_items``. So ``get_items()`` here returns the stored
items shrunk (as Responses items: :mod:`compactor.formats._responses`), and
``add_items``, ``pop_item`` and ``clear_session`` go to the wrapped session unchanged: the store
keeps the whole conversation, and every run starts from all of it, shrunk afresh. When the
setting removes, cuts and drops nothing, the items come back exactly as stored.

What the protocol does not allow: the items a run adds between its own model calls (a tool call
and its result within one ``Runner.run``) are not read through the session, so they reach the
model whole until the next run. ``get_items(limit=N)`` returns the last N items as stored,
unshrunk: the SDK asks for a tail that way when it checks which of its writes landed, and a
shrunk tail would not match what it wrote.

The runner reads the history before it adds the run's new input, so ``get_items()`` cannot see
the turn the model is about to answer. A strategy that reads it (``focus``: by default the last
user message) then reads the previous one. With ``with_new_input=True`` the session shrinks the
history and the new input together instead, in the SDK's own hook for merging them::

    session = ShrinkingSession(store, {"strategy": "focus", "budget_chars": 20_000},
                               with_new_input=True)
    await Runner.run(agent, "Where was the quokka photo taken?", session=session,
                     run_config=RunConfig(session_input_callback=session.input_callback))

``get_items()`` then returns the stored items as they are, and ``input_callback`` returns them
and the new input shrunk, so focus reads the new input and nothing later.
"""

from __future__ import annotations

from typing import Any

from agents.memory import Session

from compactor.integrations._shrink import RESPONSES, SettingLike, as_setting, shrink_with_report
from compactor.integrations._shrink_report import ShrinkReport


class ShrinkingSession:
    """A :class:`agents.memory.Session` whose ``get_items()`` returns ``session``'s items shrunk
    by ``setting`` (a Setting, its dict, or the path of a ``compaction.toml``).

    A long-lived session that outgrows the contract's limits (200 messages, 8,000 characters a
    message) is compacted whole, in the agent mode; ``lossy_fixes`` keeps the last 200 messages
    and cuts longer contents first instead.
    """

    def __init__(
        self,
        session: Session,
        setting: SettingLike,
        *,
        lossy_fixes: bool = False,
        with_new_input: bool = False,
    ):
        self.session = session
        self.session_id = session.session_id
        self.session_settings = getattr(session, "session_settings", None)
        self.setting = as_setting(setting)
        self.lossy_fixes = lossy_fixes
        #: Shrink in :meth:`input_callback` (history and new input together), not in get_items.
        self.with_new_input = with_new_input
        #: The report of the last shrink (None before the first ``get_items()``).
        self.last_report: ShrinkReport | None = None

    async def get_items(self, limit: int | None = None) -> list[Any]:
        items = await self.session.get_items(limit)
        if limit is not None or self.with_new_input:
            return items
        return self._shrunk(items)

    def input_callback(self, history: list[Any], new_input: list[Any]) -> list[Any]:
        """The SDK's ``session_input_callback``: the history and the run's new input, shrunk
        together (with ``with_new_input=True``; otherwise the history was shrunk already and
        the new input is appended as the SDK would)."""
        if not self.with_new_input:
            return [*history, *new_input]
        return self._shrunk([*history, *new_input])

    def _shrunk(self, items: list[Any]) -> list[Any]:
        shrunk = shrink_with_report(
            items, self.setting, format=RESPONSES, lossy_fixes=self.lossy_fixes
        )
        self.last_report = shrunk.report
        return shrunk.messages  # nothing compacted: the items as stored (ids, reasoning and all)

    async def add_items(self, items: list[Any]) -> None:
        await self.session.add_items(items)

    async def pop_item(self) -> Any:
        return await self.session.pop_item()

    async def clear_session(self) -> None:
        await self.session.clear_session()
