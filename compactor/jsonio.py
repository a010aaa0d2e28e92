"""JSON at the edges: reading text or bytes with errors that say where, and writing UTF-8."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from compactor.validation import format_path

_SURROGATE = re.compile("[\ud800-\udfff]")


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


class UnreadableJSON(ValueError):
    """Input that is not a JSON document; ``problems`` says what and where."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(map(str, problems)))


def decode_text(data: bytes) -> str:
    """UTF-8 bytes (a byte-order mark allowed) as text; raises :class:`UnreadableJSON`."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        start = 3 if data.startswith(b"\xef\xbb\xbf") else 0
        before = data[start : error.start].decode("utf-8", "replace")
        line = before.count("\n") + 1
        column = len(before) - (before.rfind("\n") + 1) + 1
        byte = data[error.start]
        raise UnreadableJSON(
            [
                Problem(
                    f"not UTF-8 text (byte 0x{byte:02x}); save the file as UTF-8",
                    line=line,
                    column=column,
                )
            ]
        ) from None


def parse_json(source: str | bytes) -> Any:
    """Parse a JSON document; raises :class:`UnreadableJSON` with line and column on error.

    Strings holding unpaired surrogates (``"\\ud800"``) are refused with their JSON path: they
    are not Unicode text and could not be written back out as UTF-8.
    """
    text = decode_text(source) if isinstance(source, bytes) else source.removeprefix("\ufeff")
    if not text.strip():
        raise UnreadableJSON(
            [Problem("the input is empty; expected a JSON document", line=1, column=1)]
        )
    try:
        value = json.loads(text)
        surrogates = list(_surrogates(value, []))
    except json.JSONDecodeError as error:
        raise UnreadableJSON([Problem(error.msg, line=error.lineno, column=error.colno)]) from None
    except RecursionError:
        raise UnreadableJSON(
            [Problem("the document is nested too deeply", line=1, column=1)]
        ) from None
    bad = [
        Problem(
            f"contains an unpaired surrogate (U+{ord(ch):04X}), which is not Unicode text",
            path=format_path(path),
        )
        for path, ch in surrogates
    ]
    if bad:
        raise UnreadableJSON(bad)
    return value


def _surrogates(value: Any, path: list[str | int]) -> Iterator[tuple[list[str | int], str]]:
    if isinstance(value, str):
        match = _SURROGATE.search(value)
        if match:
            yield list(path), match.group()
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _surrogates(key, path)
            yield from _surrogates(item, [*path, key])
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _surrogates(item, [*path, i])


def dumps(value: Any, indent: int | None = 2) -> str:
    """JSON text, not ASCII-escaped; the same value always gives the same text."""
    return json.dumps(value, ensure_ascii=False, indent=indent)
