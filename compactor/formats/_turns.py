"""One input message that becomes several: its own text and calls, with tool results between."""

from __future__ import annotations

from typing import Any

from compactor.formats._builder import Builder, Draft, at, result_text, tool_call_text


class Turn:
    """Splits a message whose blocks or parts hold tool results into request messages.

    Text and tool calls go to a message of the turn's role; each tool result becomes a ``tool``
    message after it. Text that follows a result starts a new message of the role, so the order
    of the input is kept; calls made in parallel stay in one message.
    """

    def __init__(self, b: Builder, role: str, source: str, id: str | None = None):
        self.b = b
        self.role = role
        self.source = source
        self.id = id
        self.made: list[Draft] = []
        self._current: Draft | None = None
        self._after_result = False

    def speaker(self, where: str, text: bool = True) -> Draft:
        """The message of the turn's role to add text (or, with ``text=False``, a call) to."""
        if self._current is None or (text and self._after_result):
            first = not self.made
            self._current = self.b.draft(
                self.role, self.source if first else where, id=self.id if first else None
            )
            self.made.append(self._current)
            self._after_result = False
        return self._current

    def text(self, text: str, where: str) -> None:
        if text:
            self.speaker(where).text(text)

    def call(
        self, name: Any, arguments: Any, call_id: Any, where: str, arguments_at: str | None = None
    ) -> None:
        """A call of ``name``; ``arguments_at`` is the arguments' own path (for problems)."""
        if not isinstance(name, str) or not name:
            self.b.problem("the tool call has no name", where)
            return
        call_id = call_id if isinstance(call_id, str) and call_id else None
        text = tool_call_text(name, arguments, call_id, arguments_at or where)
        self.speaker(where, text=False).call(text, call_id)
        self.b.note(
            "tool-call-as-text",
            f"{where}: the call to {name} is written into the {self.role} message's text",
            where,
            self._current,
        )

    def result(self, where: str, call_id: Any, name: str | None = None) -> Draft:
        """A new ``tool`` message for a tool's result; the caller adds its text."""
        call_id = call_id if isinstance(call_id, str) and call_id else None
        draft = self.b.draft("tool", where, id=call_id, answers=call_id)
        self.made.append(draft)
        self._after_result = True
        of = f" of {name}" if name else ""
        self.b.note(
            "tool-result-as-message",
            f"{where}: the result{of} became its own tool message"
            + (f" with id {call_id}" if call_id else ""),
            where,
            draft,
        )
        return draft

    def output(
        self,
        where: str,
        call_id: Any,
        value: Any,
        name: str | None = None,
        value_at: str | None = None,
    ) -> Draft:
        """A tool message holding ``value`` (text as it is, other JSON on one line);
        ``value_at`` is the value's own path (for problems)."""
        draft = self.result(where, call_id, name)
        draft.text(result_text(value, value_at or where))
        return draft

    def step(self) -> None:
        """A step boundary: what comes next starts a new message."""
        self._current = None

    def close(self) -> None:
        """An input message that gave nothing is kept as an empty draft, so it is reported."""
        if not self.made:
            self.made.append(self.b.draft(self.role, self.source, id=self.id))
        elif self.id is not None and self.made[0].id != self.id:
            self.b.ignore("id", at(self.source, "id"))
