"""JSON at the edges: reading text or bytes with errors that say where, and writing UTF-8."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from typing import Any

from compactor.errors import Problem, UnreadableJSON, format_path

_SURROGATE = re.compile("[\ud800-\udfff]")
_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


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
    """Parse a JSON document; raises :class:`UnreadableJSON` saying what is wrong and where.

    Beyond syntax errors (line and column), three things Python's parser lets through are refused
    with their JSON path: ``NaN`` and ``Infinity``, which are not JSON; strings holding unpaired
    surrogates (``"\\ud800"``), which are not Unicode text and could not be written back as UTF-8;
    and integers too long for Python to convert (line and column).
    """
    text = decode_text(source) if isinstance(source, bytes) else source.removeprefix("\ufeff")
    if not text.strip():
        raise UnreadableJSON(
            [Problem("the input is empty; expected a JSON document", line=1, column=1)]
        )
    constants: list[str] = []
    try:
        value = json.loads(
            text, parse_constant=lambda name: constants.append(name) or _NotJSON(name)
        )
        suspicious = constants or _SURROGATE.search(text) or _ESCAPED_SURROGATE.search(text)
        bad = list(_not_json(value, [])) if suspicious else []
    except json.JSONDecodeError as error:
        raise UnreadableJSON([Problem(error.msg, line=error.lineno, column=error.colno)]) from None
    except RecursionError:
        raise UnreadableJSON(
            [Problem("the document is nested too deeply", line=1, column=1)]
        ) from None
    except ValueError:  # an integer longer than sys.get_int_max_str_digits()
        raise UnreadableJSON([_long_number(text)]) from None
    if bad:
        raise UnreadableJSON([Problem(reason, path=format_path(path)) for path, reason in bad])
    return value


class _NotJSON:
    """Stands in for ``NaN`` or ``Infinity`` until its path is known."""

    def __init__(self, name: str):
        self.name = name


def _not_json(value: Any, path: list[str | int]) -> Iterator[tuple[list[str | int], str]]:
    if isinstance(value, str):
        match = _SURROGATE.search(value)
        if match:
            code = f"U+{ord(match.group()):04X}"
            yield list(path), f"contains an unpaired surrogate ({code}), which is not Unicode text"
    elif isinstance(value, _NotJSON):
        yield list(path), f"{value.name} is not a JSON number; use a finite number"
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _not_json(key, path)
            yield from _not_json(item, [*path, key])
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _not_json(item, [*path, i])


def _long_number(text: str) -> Problem:
    limit = sys.get_int_max_str_digits()
    found = re.search(rf"\d{{{limit + 1},}}", text)
    where = {"line": 1, "column": 1}
    if found:
        before = text[: found.start()]
        where = {"line": before.count("\n") + 1, "column": found.start() - before.rfind("\n")}
    return Problem(f"a number has more than {limit:,} digits; no field takes that many", **where)


def dumps(value: Any, indent: int | None = 2) -> str:
    """JSON text, not ASCII-escaped; the same value always gives the same text."""
    return json.dumps(value, ensure_ascii=False, indent=indent)
