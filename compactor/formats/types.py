"""The types of an import: a :class:`Conversion` (the request, every change, the tool links)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: Change kinds that stand for a fix still to make: the request is invalid until it is applied.
PENDING = frozenset({"too-many-messages", "content-too-long"})


@dataclass(frozen=True)
class Change:
    """One thing the conversion changed, or must still change, and why."""

    kind: str  # e.g. "tool-call-as-text", "image-removed", "content-too-long"
    message: str  # readable: what changed and why, naming the message by where it was
    index: int | None = None  # the message's index in the converted request, when it has one
    source: str | None = None  # where in the input: "messages[4].content[1]" or "line 7"
    lossy: bool = False  # content is lost, or must be lost to make the request valid


@dataclass(frozen=True)
class Conversion:
    """A conversation read from some format: the request, every change made, the tool links."""

    format: str
    request: dict[str, Any]
    changes: tuple[Change, ...] = ()
    #: (assistant message that made a tool call, tool message with its result), linked by id.
    tool_links: tuple[tuple[int, int], ...] = ()
    #: Where each request message came from in the input (``messages[4]``, ``line 7``), in order.
    sources: tuple[str, ...] = ()
    #: (calling message, call id) for each tool call whose result message the import removed
    #: (an empty result, as tau-bench's ``think`` calls give): the call is kept, its result not.
    removed_results: tuple[tuple[int, str], ...] = ()
    #: The request parameters the input itself stated (``budget_chars``, ...), in contract order.
    params_given: tuple[str, ...] = ()

    @property
    def needs_fixes(self) -> bool:
        """True when a lossy fix (:func:`apply_fixes`) is needed before the request is valid."""
        return any(c.kind in PENDING for c in self.changes)

    @property
    def lossy(self) -> bool:
        """True when the conversion lost content, or must lose some to become valid."""
        return any(c.lossy for c in self.changes)
