"""What a format's writer is given: the compacted conversation, as :mod:`compactor.formats` hands
it over.

A writer reads what its format needs: the survivors as plain messages (the request and the
message list), or as turns whose call lines are structured calls again, each call paired with
its result (every provider format). The structuring is the export's (it reads the import's call
lines back and settles the orphan halves of call/result pairs); these protocols say what of it
a writer may read, so that the formats, below the export, import nothing from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol


class StructuredCall(Protocol):
    """One tool call read back from its call line."""

    @property
    def name(self) -> str: ...

    @property
    def id(self) -> str | None: ...

    @property
    def arguments(self) -> Any:
        """The parsed JSON arguments (None when there were none)."""

    @property
    def raw(self) -> str | None:
        """The arguments as written, when they were not JSON."""

    @property
    def arguments_text(self) -> str:
        """The arguments as one string (OpenAI's ``function.arguments``)."""


class StructuredTurn(Protocol):
    """One compacted message ready for a provider: its text and its structured calls."""

    @property
    def role(self) -> str: ...

    @property
    def index(self) -> int:
        """The message's index in the request (#N)."""

    @property
    def id(self) -> str | None: ...

    @property
    def answers(self) -> str | None:
        """A tool result: the id of the call it answers."""

    @property
    def restored(self) -> bool:
        """An empty result the import had removed, given back."""

    @property
    def text(self) -> str: ...

    @property
    def calls(self) -> Sequence[StructuredCall]: ...


class Compacted(Protocol):
    """The compacted conversation, as a writer reads it."""

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The survivors as ``{role, content, id}`` messages, the call lines as text."""

    @property
    def params(self) -> dict[str, Any]:
        """The request's parameters (``budget_chars``, ...), in contract order."""

    @property
    def turns(self) -> Sequence[StructuredTurn]:
        """The survivors with structured calls, orphans dropped (or kept as text), each drop
        in :attr:`notes`."""

    @property
    def notes(self) -> list[str]:
        """What the export changed to make the conversation sendable; a writer adds its own."""

    @property
    def source(self) -> Any:
        """The input as it was given, when the conversation is written back in its own format
        (``shrink``: a writer may give back the input's own objects); else None."""

    @property
    def sources(self) -> tuple[str, ...]:
        """Where each request message came from in the input (``[4]``, ``messages[4]``)."""
