"""Reading an uploaded or pasted file: JSON, or JSON Lines (one message, record or log line each).

A file that holds many conversations (:mod:`compactor.formats._collections`) converts one record
at a time, each by its own format: without ``record``, :class:`ManyConversations` says how many
there are.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Any, BinaryIO

from compactor.errors import FormatError, Problem, UnreadableJSON
from compactor.formats._collections import Collection, ManyConversations, collection_of
from compactor.formats._registry import (
    LINE_FORMATS,
    convert,
    convert_lines,
    convert_record,
    format_named,
)
from compactor.formats._types import Conversion
from compactor.input import decode_text, parse_json

#: At most this many unreadable lines are reported, so a wrong file does not flood the report.
MAX_LINE_PROBLEMS = 20


@dataclass(frozen=True)
class Document:
    """A file as read: one JSON value (``data``), or JSONL lines (``lines``)."""

    data: Any = None
    lines: list[tuple[str, Any]] | None = None

    @cached_property
    def collection(self) -> Collection | None:
        """Its records, found once: converting each of N records must not look at all N again
        (that made reading a collection quadratic)."""
        return collection_of(self.data, self.lines)


def read_document(source: str | bytes, format: str | None = None) -> Document:
    """Parse the text: one JSON document, or JSON Lines.

    Raises :class:`UnreadableJSON` (line and column; for JSONL the line of the file) when it is
    neither, empty or binary. Without ``format``, a text that is not one JSON value but whose
    first line is a JSON object is read as JSONL; a line format (``jsonl``, ``claude-code``,
    ``codex``) reads it as JSONL whatever it looks like, except the Claude Code export (one
    JSON object with ``loglines``); a collection (``records``) is either.
    """
    text = _text(source)
    many = format is not None and format_named(format).many
    if format in LINE_FORMATS:
        try:
            data = parse_json(text)
        except UnreadableJSON:
            data = None
        if format == "claude-code" and isinstance(data, dict) and "loglines" in data:
            return Document(data=data)
        return Document(lines=read_lines(text))
    try:
        return Document(data=parse_json(text))
    except UnreadableJSON:
        if (format is None or many) and _looks_like_lines(text):
            return Document(lines=read_lines(text))
        raise


def convert_document(
    document: Document, format: str | None = None, record: int | None = None
) -> Conversion:
    """The conversation of a read document, or of its record ``record`` (0-based)."""
    collection = document.collection
    if collection is not None:
        if record is None and len(collection) != 1:
            raise ManyConversations(collection)
        return convert_record(collection.record(record or 0), format)
    if record not in (None, 0):
        raise FormatError(
            [Problem(f"there is no record {record}: the file holds one conversation (record 0)")]
        )
    if document.lines is not None:
        return convert_lines(document.lines, format)
    return convert(document.data, format)


def convert_text(
    source: str | bytes, format: str | None = None, record: int | None = None
) -> Conversion:
    """Convert a JSON or JSONL document given as text or bytes (UTF-8, a byte-order mark allowed).

    Raises :class:`~compactor.errors.UnreadableJSON` (line and column; for JSONL the line of the
    file) when it is not JSON, empty or binary; :class:`FormatError` when it is JSON but not a
    conversation; :class:`ManyConversations` when it holds many and ``record`` does not pick one.
    """
    return convert_document(read_document(source, format), format, record)


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


def line_texts(handle: BinaryIO) -> Iterator[tuple[int, str]]:
    """``(line number, text)`` of each non-blank line of a binary file, read one at a time and
    split as :func:`read_lines` splits (at LF only; a CR before it and a byte-order mark at the
    start dropped). Raises :class:`UnicodeDecodeError` for a line that is not UTF-8."""
    for number, raw in enumerate(handle, start=1):
        raw = raw.removesuffix(b"\n").removesuffix(b"\r")
        if number == 1:
            raw = raw.removeprefix(codecs.BOM_UTF8)
        text = raw.decode("utf-8")
        if text.strip():
            yield number, text


def looks_like_lines(first: str) -> bool:
    """Whether a text whose first non-blank line is ``first``, followed by another, is JSON
    Lines when no format is given (it cannot then be one JSON document)."""
    try:
        return isinstance(json.loads(first), dict)
    except ValueError:
        return False


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
    return len(lines) >= 2 and looks_like_lines(lines[0])


def _lines(text: str) -> list[str]:
    """Lines as JSONL means them: split at LF only (U+2028 or U+0085 inside a string is text)."""
    return [line.removesuffix("\r") for line in text.split("\n")]
