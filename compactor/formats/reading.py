"""Reading an uploaded or pasted file: JSON, or JSON Lines with one message per line."""

from __future__ import annotations

import json
from typing import Any

from compactor.errors import Problem, UnreadableJSON
from compactor.formats.registry import convert, convert_lines
from compactor.formats.types import Conversion
from compactor.jsonio import decode_text, parse_json

#: At most this many unreadable lines are reported, so a wrong file does not flood the report.
MAX_LINE_PROBLEMS = 20


def convert_text(source: str | bytes, format: str | None = None) -> Conversion:
    """Convert a JSON or JSONL document given as text or bytes (UTF-8, a byte-order mark allowed).

    Raises :class:`compactor.jsonio.UnreadableJSON` (line and column; for JSONL the line of the
    file) when it is not JSON, empty or binary, and :class:`FormatError` when it is JSON but not
    a conversation. Without ``format``, a document that is not one JSON value but whose first
    line is a JSON object is read as JSONL.
    """
    text = _text(source)
    if format == "jsonl":
        return convert_lines(read_lines(text))
    try:
        data = parse_json(text)
    except UnreadableJSON:
        if format is None and _looks_like_lines(text):
            return convert_lines(read_lines(text))
        raise
    return convert(data, format)


def read_lines(text: str) -> list[tuple[str, Any]]:
    """``("line N", value)`` for each non-blank line; raises UnreadableJSON naming bad lines."""
    values = []
    problems = []
    for number, line in enumerate(_lines(text), start=1):
        if not line.strip():
            continue
        try:
            values.append((f"line {number}", parse_json(line)))
        except UnreadableJSON as error:
            first = error.problems[0]
            message = f"{first.path}: {first.message}" if first.path else first.message
            problems.append(Problem(message, line=number, column=first.column or 1))
    if problems:
        shown = problems[:MAX_LINE_PROBLEMS]
        if len(problems) > len(shown):
            more = len(problems) - len(shown)
            shown.append(Problem(f"and {more:,} more lines that are not JSON", path="$"))
        raise UnreadableJSON(shown)
    if not values:
        raise UnreadableJSON(
            [Problem("the input is empty; expected a JSON document", line=1, column=1)]
        )
    return values


def _text(source: str | bytes) -> str:
    if isinstance(source, str):
        return source.removeprefix("\ufeff")
    if b"\x00" in source[:4096]:
        at = source.index(b"\x00")
        before = source[:at].decode("utf-8", "replace")
        raise UnreadableJSON(
            [
                Problem(
                    "this is a binary file (it contains NUL bytes), not JSON text; a UTF-16 "
                    "file looks like this too: save it as UTF-8",
                    line=before.count("\n") + 1,
                    column=len(before) - (before.rfind("\n") + 1) + 1,
                )
            ]
        )
    return decode_text(source)


def _looks_like_lines(text: str) -> bool:
    lines = [line for line in _lines(text) if line.strip()]
    if len(lines) < 2:
        return False
    try:
        return isinstance(json.loads(lines[0]), dict)
    except ValueError:
        return False


def _lines(text: str) -> list[str]:
    """Lines as JSONL means them: split at LF only (U+2028 or U+0085 inside a string is text)."""
    return [line.removesuffix("\r") for line in text.split("\n")]
