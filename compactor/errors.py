"""The one error vocabulary, from the engine to every edge: a :class:`Problem` says what is wrong
and where (a JSON path, or a line and column), and each error type carries a tuple of them.

>>> error = InvalidRequest([Problem("is required but missing", path="budget_chars")])
>>> str(error)
'budget_chars: is required but missing'
>>> error.problems[0].to_dict()
{'path': 'budget_chars', 'message': 'is required but missing'}
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input, and where: a JSON path, or a line and column."""

    message: str
    path: str | None = None
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        if self.line is not None:
            return f"line {self.line}, column {self.column}: {self.message}"
        return f"{self.path}: {self.message}" if self.path else self.message

    @property
    def where(self) -> str:
        """The location as one short text (``messages[3].content``, ``line 2, column 19``)."""
        if self.line is not None:
            return f"line {self.line}, column {self.column}"
        return self.path or ""

    def to_dict(self) -> dict[str, Any]:
        """The problem as JSON: ``{"path", "message"}`` or ``{"line", "column", "message"}``."""
        if self.line is not None:
            return {"line": self.line, "column": self.column, "message": self.message}
        if self.path is not None:
            return {"path": self.path, "message": self.message}
        return {"message": self.message}


class ProblemError(ValueError):
    """An input that cannot be used; ``problems`` says everything wrong with it and where."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems: tuple[Problem, ...] = tuple(problems)
        super().__init__("\n".join(map(str, self.problems)))


class UnreadableJSON(ProblemError):
    """Input that is not a JSON document (or not a readable file)."""


class InvalidRequest(ProblemError):
    """A request that breaks the input schema; each problem has the JSON path it is at.

    The path of the request itself is ``$``; problems come sorted by path.
    """


class FormatError(ProblemError):
    """Input that is JSON but not a conversation in a known format."""


def format_path(parts: Iterable[str | int]) -> str:
    """``("messages", 3, "content")`` -> ``messages[3].content``; the empty path is ``$``."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _IDENTIFIER.fullmatch(part):
            out += f".{part}" if out else part
        else:
            out += f"[{json.dumps(part, ensure_ascii=False)}]"
    return out or "$"
