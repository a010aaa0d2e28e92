"""The one error vocabulary, from the engine to every edge: a :class:`Problem` says what is wrong
and where (a JSON path, or a line and column), and each error type carries a tuple of them.

>>> error = InvalidRequest([Problem("is required but missing", path="budget_chars")])
>>> str(error)
'budget_chars: is required but missing'
>>> error.problems[0].to_dict()
{'path': 'budget_chars', 'message': 'is required but missing'}
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from compactor.wording import install_command

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

#: No error lists more than this many problems: the rest are counted in one last problem, so
#: the cost of reporting (and the size of a response) never grows with the number of problems.
MAX_PROBLEMS = 100
#: A key or a value is echoed in a message as at most this many characters of it.
EXCERPT_CHARS = 40
#: Arrays and objects nest at most this deep in any input (the outermost value is level 1).
MAX_DEPTH = 100
# Escaped when echoed: controls, format characters (bidirectional overrides, zero widths),
# surrogates, private use, and line or paragraph separators: text that could hide, reorder or
# break the message it is quoted in, or not be written as UTF-8 at all.
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})
_SHORT_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\b": "\\b",
    "\f": "\\f",
}


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

    The path of the request itself is ``$``; problems come sorted by path. At most
    :data:`MAX_PROBLEMS` are listed: when there are more, a last problem at ``$`` counts them.
    """


class FormatError(ProblemError):
    """Input that is JSON but not a conversation in a known format."""


class IntegrationUnavailable(ImportError):
    """An optional package is not installed; the message names it and the command to install
    it (LangChain messages and the middleware need the langchain extra, the Agents SDK session
    the agents extra, a budget in tokens the tokens extra)."""

    def __init__(self, what: str, extra: str) -> None:
        self.extra = extra
        super().__init__(
            f"{what} needs the {extra} extra; install it with: {install_command(extra)}"
        )


def format_path(parts: Iterable[str | int]) -> str:
    """``("messages", 3, "content")`` -> ``messages[3].content``; the empty path is ``$``.

    A key that is not a short plain name is quoted as :func:`excerpt` quotes it (shortened):

    >>> format_path(["odd key", 0]), format_path(["x" * 50])
    ('["odd key"][0]', '["xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…"]')
    """
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif len(part) <= EXCERPT_CHARS and _IDENTIFIER.fullmatch(part):
            out += f".{part}" if out else part
        else:
            out += f"[{excerpt(part)}]"
    return out or "$"


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    r"""``text`` as a quoted JSON string of at most ``limit`` of its characters (``…`` after a
    cut), with every character that could hide, reorder or break the message escaped.

    >>> excerpt("bot"), excerpt("a\u202eb\x1b\ud800"), excerpt("abcdef", 3)
    ('"bot"', '"a\\u202eb\\u001b\\ud800"', '"abc…"')
    """
    out = ['"']
    for ch in text[:limit]:
        if ch in _SHORT_ESCAPES:
            out.append(_SHORT_ESCAPES[ch])
        elif unicodedata.category(ch) in _UNSAFE_CATEGORIES:
            code = ord(ch)
            if code > 0xFFFF:  # JSON escapes a code point beyond the BMP as a surrogate pair
                code -= 0x10000
                out.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
            else:
                out.append(f"\\u{code:04x}")
        else:
            out.append(ch)
    out.append('…"' if len(text) > limit else '"')
    return "".join(out)


def quoted(value: Any, limit: int = EXCERPT_CHARS) -> str:
    """A name from the input as Python quotes it (``'bot'``), shortened to ``limit`` characters;
    what is not a string is described instead. ``repr`` already escapes what cannot be shown.

    >>> quoted("bot"), quoted("x" * 50, 3), quoted(["a"])
    ("'bot'", "'xxx…'", 'an array of 1 item')
    """
    if not isinstance(value, str):
        return describe(value)
    if len(value) <= limit:
        return repr(value)
    return repr(value[:limit])[:-1] + "…" + repr(value[:limit])[-1]


def describe(value: Any) -> str:
    """A short, bounded text for any value: JSON for a scalar, a summary for anything larger.

    >>> describe("bot"), describe(None), describe(10**50), describe([1, 2]), describe({1, 2})
    ('"bot"', 'null', 'an integer of 51 digits', 'an array of 2 items', 'a set')
    """
    if isinstance(value, str):
        return excerpt(value)
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    if isinstance(value, int):
        return number_text(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, list):
        return f"an array of {len(value):,} item{'' if len(value) == 1 else 's'}"
    if isinstance(value, dict):
        return f"an object of {len(value):,} field{'' if len(value) == 1 else 's'}"
    name = type(value).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def number_text(value: int | float) -> str:
    """A number with thousands separators; an integer too long to show says how long it is."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 100:
        digits = len(str(abs(value))) if value.bit_length() < 10_000 else None
        if digits is None:  # str() of a huge integer is slow, or refused beyond 4,300 digits
            return f"an integer of more than {int((value.bit_length() - 1) * 0.30103):,} digits"
        return f"an integer of {digits:,} digits"
    return f"{value:,}"


def capped(problems: Iterable[Problem], more: int = 0, limit: int = MAX_PROBLEMS) -> list[Problem]:
    """At most ``limit`` of ``problems`` and, when there are more, one last problem (at ``$``)
    counting them; ``more`` adds problems already counted elsewhere and not listed."""
    listed = []
    for problem in problems:
        if len(listed) < limit:
            listed.append(problem)
        else:
            more += 1
    if more:
        listed.append(more_problems(more))
    return listed


def more_problems(count: int) -> Problem:
    """The last problem of a capped list: how many more there are."""
    noun = "problem" if count == 1 else "problems"
    return Problem(
        f"and {count:,} more {noun} not listed (at most {MAX_PROBLEMS} are); fix these first",
        path="$",
    )


_HEADER = re.compile(r"\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$")
_ASSIGN = re.compile(
    r"\s*((?:[A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*'))*)\s*="
)


def toml_key_lines(text: str) -> dict[str, int]:
    """The line of each table (``models.x``) and key (``models.x.input``) of the TOML ``text``,
    as far as a line scan can tell (a comment, or a key inside a multi-line string, is skipped):
    enough to point at a wrong value (``compaction.toml``, the price table)."""
    lines: dict[str, int] = {}
    table = ""
    in_string: str | None = None
    for number, line in enumerate(text.splitlines(), 1):
        if in_string:
            if line.count(in_string) % 2:
                in_string = None
            continue
        header = _HEADER.match(line)
        if header:
            table = _dotted(header[1])
            lines.setdefault(table, number)
            continue
        assign = _ASSIGN.match(line)
        if assign:
            key = _dotted(assign[1])
            lines.setdefault(f"{table}.{key}" if table else key, number)
        for quote in ('"""', "'''"):
            if line.count(quote) % 2:
                in_string = quote
    return lines


def _dotted(key: str) -> str:
    parts = re.findall(r"\"([^\"]*)\"|'([^']*)'|([A-Za-z0-9_-]+)", key)
    return ".".join(next(p for p in part if p) if any(part) else "" for part in parts)
