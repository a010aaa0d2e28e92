"""JSON at the edges: reading text or bytes with errors that say where, and writing UTF-8
(whether a Python value can be written as JSON at all: :mod:`compactor.input._writable`)."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from collections.abc import Callable
from itertools import chain
from typing import Any

from compactor.collector import collector_paused
from compactor.errors import MAX_DEPTH, Problem, UnreadableJSON, format_path
from compactor.input._schema_check import (
    Report,
    finish,
    is_text,
    key_surrogate_message,
    surrogate_message,
)

NOT_A_NUMBER = "is not a JSON number; use a finite number"


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

    Beyond syntax errors (line and column), what Python's parser lets through is refused with
    its JSON path: ``NaN`` and ``Infinity``, which are not JSON; strings holding unpaired
    surrogates (``"\\ud800"``), which are not Unicode text and could not be written back as
    UTF-8; a key given twice in one object (Python would keep the last silently); and arrays or
    objects nested more than :data:`~compactor.errors.MAX_DEPTH` levels deep. Integers too long
    for Python to convert are refused with their line and column. At most
    :data:`~compactor.errors.MAX_PROBLEMS` problems are listed, the rest counted.
    """
    text = decode_text(source) if isinstance(source, bytes) else source.removeprefix("\ufeff")
    if not text or text.isspace():
        raise UnreadableJSON(
            [Problem("the input is empty; expected a JSON document", line=1, column=1)]
        )
    found = {"constants": 0, "duplicates": 0}  # what the second look must find and report

    def constant(name: str) -> _NotJSON:
        found["constants"] += 1
        return _NotJSON(name)

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        value = dict(items)
        if len(value) == len(items):
            return value
        duplicated = _Duplicated(value, items)
        found["duplicates"] += sum(times > 1 for times in duplicated.given.values())
        return duplicated

    # Parsing makes no reference cycles, but a million containers would set off many full
    # collections (each one walking every object the process holds): pause the collector.
    with collector_paused():
        try:
            value = json.loads(text, parse_constant=constant, object_pairs_hook=pairs)
            deep, not_text = _look(value, MAX_DEPTH)
        except json.JSONDecodeError as error:
            problem = Problem(error.msg, line=error.lineno, column=error.colno)
            raise UnreadableJSON([problem]) from None
        except RecursionError:  # deeper than Python's parser goes: find where it passed the limit
            raise UnreadableJSON([_too_deep_in_text(text)]) from None
        except ValueError:  # an integer longer than sys.get_int_max_str_digits()
            raise UnreadableJSON([_long_number(text)]) from None
    report = Report()
    if found["constants"] or found["duplicates"] or not_text:
        known = None if not_text else found["constants"] + found["duplicates"]
        _not_json(value, report, known)
    if deep:
        report.add(
            _path_to_level(value, MAX_DEPTH + 1), f"is nested more than {MAX_DEPTH} levels deep"
        )
    if report.found:
        raise UnreadableJSON(finish([report]))
    return value


class _NotJSON:
    """Stands in for ``NaN`` or ``Infinity`` until its path is known."""

    def __init__(self, name: str):
        self.name = name


class _Duplicated(dict):
    """An object that had a key more than once; the keys as given are kept to report them."""

    def __init__(self, value: dict[str, Any], items: list[tuple[str, Any]]):
        super().__init__(value)
        self.given = Counter(key for key, _ in items)


_CONTAINERS = (dict, list, _Duplicated)


def _not_json(value: Any, report: Report, known: int | None) -> None:
    """Report the NaNs, infinities, repeated keys and (when ``known`` is None) unpaired
    surrogates in a parsed ``value``, in document order (iterative: any depth is safe).

    ``known`` is how many NaNs, infinities and repeated keys the parser met: the walk stops
    once it has found them all, or once the report is full (the rest are then counted).
    """
    if type(value) not in _CONTAINERS:  # a document that is one value
        _not_json_document(value, report, strings=known is None)
        return
    stack: list[tuple[Any, tuple]] = [(value, ())]
    seen = 0
    while stack and not _walked_enough(report, known, seen):
        item, path = stack.pop()
        seen += _repeated_keys(item, path, report)
        found, children = _not_json_members(item, path, report, known)
        seen += found
        stack.extend(reversed(children))
    if known is not None:  # those the walk stopped before reaching, once the report was full
        report.more += known - seen


def _not_json_document(value: Any, report: Report, strings: bool) -> None:
    if type(value) is _NotJSON:
        report.add((), f"{value.name} {NOT_A_NUMBER}")
    elif strings and type(value) is str and not is_text(value):
        report.add((), surrogate_message(value))


def _walked_enough(report: Report, known: int | None, seen: int) -> bool:
    """Whether the walk can stop: it knows how many to find, and found them or has no room."""
    return known is not None and (seen >= known or report.full)


def _repeated_keys(item: Any, path: tuple, report: Report) -> int:
    """Report the keys an object was given more than once; how many there are."""
    if type(item) is not _Duplicated:
        return 0
    repeated = [(key, times) for key, times in item.given.items() if times > 1]
    for key, times in repeated:
        _add(report, (*path, key), lambda times=times: _given_twice(times))
    return len(repeated)


def _not_json_members(
    item: Any, path: tuple, report: Report, known: int | None
) -> tuple[int, list[tuple[Any, tuple]]]:
    """Report the members of an array or object that are not JSON (and, when ``known`` is None,
    the keys and strings that are not text); the NaNs and infinities met, and the arrays and
    objects to walk next, with their paths."""
    strings = known is None
    found = 0
    children = []
    pairs = item.items() if isinstance(item, dict) else enumerate(item)
    for key, child in pairs:
        if known is not None and report.full:
            break  # the rest is counted from what the parser met
        kind = type(child)
        if kind is _NotJSON:
            found += 1
            _add(report, (*path, key), lambda child=child: f"{child.name} {NOT_A_NUMBER}")
        elif kind in _CONTAINERS:
            if len(path) < MAX_DEPTH:  # deeper is reported once, as too deep
                children.append((child, (*path, key)))
        elif strings and kind is str and not is_text(child):
            _add(report, (*path, key), lambda child=child: surrogate_message(child))
        if strings and type(key) is str and not is_text(key):
            _add(report, path, lambda key=key: key_surrogate_message(key))
    return found, children


def _look(value: Any, limit: int) -> tuple[bool, bool]:
    """(whether arrays and objects nest more than ``limit`` levels in ``value``, whether some
    string or key holds an unpaired surrogate), level by level with C-speed steps: the largest
    request takes a twentieth of a millisecond, a million-item array tens of milliseconds."""
    values = [value]
    level = 0
    not_text = False
    while values:
        kinds = set(map(type, values))
        if str in kinds and not not_text:
            not_text = not _all_text([v for v in values if type(v) is str])
        if _Duplicated in kinds:  # only after repeated keys, which a precise walk reports
            dicts = [v for v in values if isinstance(v, dict)]
        else:
            dicts = [v for v in values if type(v) is dict] if dict in kinds else []
        lists = [v for v in values if type(v) is list] if list in kinds else []
        if not (dicts or lists):
            break
        level += 1
        if level > limit:
            return True, not_text
        if not not_text:
            not_text = not _all_text(list(chain.from_iterable(dicts)))
        values = list(
            chain(chain.from_iterable(map(dict.values, dicts)), chain.from_iterable(lists))
        )
    return False, not_text


def _all_text(strings: list[str]) -> bool:
    return all(map(str.isascii, strings)) or all(map(is_text, strings))


def _path_to_level(value: Any, level: int) -> tuple:
    """The path of the first array or object at ``level`` (the document is level 1)."""
    stack: list[tuple[Any, tuple]] = [(value, ())]
    while stack:
        item, path = stack.pop()
        if len(path) + 1 == level:
            return path
        pairs = item.items() if isinstance(item, dict) else enumerate(item)
        # An empty array or object leads nowhere deeper: most of a wide document is skipped.
        deeper = [(c, (*path, k)) for k, c in pairs if type(c) in _CONTAINERS and c]
        stack.extend(reversed(deeper))
    return ()


def _add(report: Report, path: tuple, message: Callable[[], str]) -> None:
    if report.full:
        report.more += 1
    else:
        report.add(path, message())


def _given_twice(times: int) -> str:
    return f"is given {times} times in one object; give each key once"


_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{},:]')


def _too_deep_in_text(text: str) -> Problem:
    """Where a document too deep to parse first passes MAX_DEPTH: the path, by a token scan."""
    stack: list[list] = []  # [kind, key or index, expecting a key]
    for token in _TOKEN.finditer(text):
        mark = token.group()
        if mark in "[{":
            if len(stack) >= MAX_DEPTH:
                path = format_path([entry[1] for entry in stack if entry[1] is not None])
                return Problem(f"is nested more than {MAX_DEPTH} levels deep", path=path)
            stack.append([mark, 0 if mark == "[" else None, mark == "{"])
        elif mark in "]}":
            if stack:
                stack.pop()
        elif mark == ",":
            if stack and stack[-1][0] == "[":
                stack[-1][1] += 1
            elif stack:
                stack[-1][2] = True
        elif mark == ":":
            if stack:
                stack[-1][2] = False
        elif stack and stack[-1][0] == "{" and stack[-1][2]:
            stack[-1][1] = json.loads(mark)
    return Problem(f"is nested more than {MAX_DEPTH} levels deep", path="$")


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
