"""JSON at the edges: reading text or bytes with errors that say where, writing UTF-8, and
whether a Python value can be written as JSON at all."""

from __future__ import annotations

import gc
import json
import math
import re
import sys
from collections import Counter
from collections.abc import Callable
from itertools import chain
from typing import Any

from compactor.errors import MAX_DEPTH, Problem, UnreadableJSON, describe, format_path
from compactor.input.schema_check import (
    Parts,
    Report,
    finish,
    is_text,
    key_surrogate_message,
    surrogate_message,
    type_name,
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

    collecting = gc.isenabled()
    # Parsing makes no reference cycles, but a million containers would set off many full
    # collections (each one walking every object the process holds): pause the collector.
    gc.disable()
    try:
        value = json.loads(text, parse_constant=constant, object_pairs_hook=pairs)
        deep, not_text = _look(value, MAX_DEPTH)
    except json.JSONDecodeError as error:
        raise UnreadableJSON([Problem(error.msg, line=error.lineno, column=error.colno)]) from None
    except RecursionError:  # deeper than Python's parser goes: find where it passed the limit
        raise UnreadableJSON([_too_deep_in_text(text)]) from None
    except ValueError:  # an integer longer than sys.get_int_max_str_digits()
        raise UnreadableJSON([_long_number(text)]) from None
    finally:
        if collecting:
            gc.enable()
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
    strings = known is None
    if type(value) not in _CONTAINERS:  # a document that is one value
        if type(value) is _NotJSON:
            report.add((), f"{value.name} {NOT_A_NUMBER}")
        elif strings and type(value) is str and not is_text(value):
            report.add((), surrogate_message(value))
        return
    stack: list[tuple[Any, tuple]] = [(value, ())]
    seen = 0
    while stack and not (known is not None and (seen >= known or report.full)):
        item, path = stack.pop()
        if type(item) is _Duplicated:
            for key, times in item.given.items():
                if times > 1:
                    seen += 1
                    _add(report, (*path, key), lambda times=times: _given_twice(times))
        pairs = item.items() if isinstance(item, dict) else enumerate(item)
        children = []
        for key, child in pairs:
            if known is not None and report.full:
                break  # the rest is counted from what the parser met
            kind = type(child)
            if kind is _NotJSON:
                seen += 1
                _add(report, (*path, key), lambda child=child: f"{child.name} {NOT_A_NUMBER}")
            elif kind in _CONTAINERS:
                if len(path) < MAX_DEPTH:  # deeper is reported once, as too deep
                    children.append((child, (*path, key)))
            elif strings and kind is str and not is_text(child):
                _add(report, (*path, key), lambda child=child: surrogate_message(child))
            if strings and type(key) is str and not is_text(key):
                _add(report, path, lambda key=key: key_surrogate_message(key))
        stack.extend(reversed(children))
    if known is not None:  # those the walk stopped before reaching, once the report was full
        report.more += known - seen


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


def json_value_problems(
    value: Any, report: Report, parts: Parts = (), level: int = 1, max_depth: int = MAX_DEPTH
) -> None:
    """Add to ``report`` every place where ``value`` is not a JSON value that can be written
    back (see :func:`_json_value_problems`); a quick look first, since JSON that came through
    :func:`compactor.input.jsonio.parse_json` always passes it."""
    if not _plainly_json(value, max_depth - level + 1):
        _json_value_problems(value, report, parts, level, max_depth)


_PLAIN = frozenset({str, int, float, bool, type(None), dict, list})


def _plainly_json(value: Any, levels: int) -> bool:
    """Whether ``value`` is, beyond doubt, JSON that can be written back: exact JSON types,
    string keys, ASCII or encodable text, finite floats, integers of a printable size, at most
    ``levels`` levels deep. Each level is looked at with C-speed steps."""
    values = [value]
    while values:
        kinds = set(map(type, values))
        if not kinds <= _PLAIN:
            return False
        if str in kinds and not all(map(is_text, [v for v in values if type(v) is str])):
            return False
        if float in kinds and not all(map(math.isfinite, [v for v in values if type(v) is float])):
            return False
        if (
            int in kinds
            and max(map(int.bit_length, [v for v in values if type(v) is int])) > 14_000
        ):
            return False
        dicts = [v for v in values if type(v) is dict] if dict in kinds else []
        lists = [v for v in values if type(v) is list] if list in kinds else []
        if not (dicts or lists):
            return True
        levels -= 1
        if levels < 0:
            return False
        keys = list(chain.from_iterable(dicts))
        if not (set(map(type, keys)) <= {str} and all(map(is_text, keys))):
            return False
        values = list(chain(chain.from_iterable(map(dict.values, dicts)), *lists))
    return True


def _json_value_problems(
    value: Any, report: Report, parts: Parts = (), level: int = 1, max_depth: int = MAX_DEPTH
) -> None:
    """Add to ``report`` every place where ``value`` is not a JSON value that can be written
    back: a type JSON does not have, NaN or an infinity, an unpaired surrogate, a key that is
    not a string, an integer too long to write, or nesting deeper than ``max_depth`` levels
    (``value`` itself is at ``level``). Iterative: any depth of Python value is safe."""
    stack: list[tuple[Any, Parts | None, int]] = [(value, parts, level)]
    while stack:
        item, where, depth = stack.pop()
        if isinstance(item, str):
            if not is_text(item):
                _add_at(report, where, lambda item=item: surrogate_message(item))
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int):
            if item.bit_length() > 14_000 and not _writable(item):
                _add_at(report, where, _too_many_digits)
        elif isinstance(item, float):
            if not math.isfinite(item):
                _add_at(report, where, lambda: "must be a finite number")
        elif isinstance(item, (dict, list)):
            if depth > max_depth:
                _add_at(report, where, lambda: f"is nested more than {max_depth} levels deep")
                continue
            counting = where is None or report.full
            if isinstance(item, list):
                children = [
                    (child, None if counting else (*where, i), depth + 1)
                    for i, child in enumerate(item)
                ]
            else:
                children = []
                for key, child in item.items():
                    if not isinstance(key, str):
                        _add_at(report, where, lambda key=key: _key_message(key))
                    elif not is_text(key):
                        _add_at(report, where, lambda key=key: key_surrogate_message(key))
                    else:
                        children.append((child, None if counting else (*where, key), depth + 1))
            stack.extend(reversed(children))
        else:
            _add_at(report, where, lambda item=item: f"must be a JSON value, not {type_name(item)}")


def _too_many_digits() -> str:
    return f"has more than {sys.get_int_max_str_digits():,} digits; no field takes that many"


def _key_message(key: Any) -> str:
    return f"has a key that is not a string ({describe(key)}); JSON keys are strings"


def _add_at(report: Report, where: Parts | None, message: Callable[[], str]) -> None:
    if where is None or report.full:
        report.more += 1
    else:
        report.add(where, message())


def _writable(number: int) -> bool:
    try:
        str(number)
    except ValueError:  # over sys.get_int_max_str_digits()
        return False
    return True
