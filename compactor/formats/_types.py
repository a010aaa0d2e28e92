"""The types of an import: a :class:`Conversion` (the request, every change, the tool links, the
compactions the tool recorded)."""

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
class RecordedCompaction:
    """A compaction an agent recorded in its log (Claude Code's ``compact_boundary`` and its
    ``isCompactSummary`` message, Codex's ``compacted`` item): where it falls and what it wrote.

    ``boundary`` is the index of the first request message after it: messages ``0..boundary-1``
    are the history it replaced, the summary stood in for them from message ``boundary`` on. The
    summary is not a message of the request (it is the tool's text, not a turn of the
    conversation); it is here, whole.
    """

    boundary: int
    summary: str
    trigger: str | None = None  # "auto" or "manual" when the log says
    pre_tokens: int | None = None  # the context's tokens before, as the tool counted them
    post_tokens: int | None = None  # and after
    source: str | None = None  # where in the input: "line 7"

    def to_dict(self) -> dict[str, Any]:
        return {
            "boundary": self.boundary,
            "trigger": self.trigger,
            "pre_tokens": self.pre_tokens,
            "post_tokens": self.post_tokens,
            "summary_chars": len(self.summary),
            "summary": self.summary,
            "source": self.source,
        }


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
    #: Tool messages whose call a window (:func:`compactor.formats._fixes.apply_fixes`) left out:
    #: kept results without their call, by their index in the request.
    window_orphans: tuple[int, ...] = ()
    #: The request parameters the input itself stated (``budget_chars``, ...), in contract order.
    params_given: tuple[str, ...] = ()
    #: The compactions the log recorded, in order (:class:`RecordedCompaction`); their summaries
    #: are not among the request's messages.
    compactions: tuple[RecordedCompaction, ...] = ()

    @property
    def needs_fixes(self) -> bool:
        """True when a lossy fix (:func:`apply_fixes`) is needed before the request is valid."""
        return any(c.kind in PENDING for c in self.changes)

    @property
    def lossy(self) -> bool:
        """True when the conversion lost content, or must lose some to become valid."""
        return any(c.lossy for c in self.changes)
