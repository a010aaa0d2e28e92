"""Whether a Python value can be written back as JSON: each place where it cannot, with its path.

JSON read by :func:`compactor.input._jsonio.parse_json` always can; values built in Python (a
strategy's messages, a caller's dict) may hold other types, NaN, unpaired surrogates, keys that
are not strings, integers too long to write, or nesting too deep.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from itertools import chain
from typing import Any

from compactor.errors import MAX_DEPTH, describe
from compactor.input._schema_check import (
    Parts,
    Report,
    is_text,
    key_surrogate_message,
    surrogate_message,
    type_name,
)

Message = Callable[[], str]  # made only when the report has room to show it


def json_value_problems(
    value: Any, report: Report, parts: Parts = (), level: int = 1, max_depth: int = MAX_DEPTH
) -> None:
    """Add to ``report`` every place where ``value`` is not a JSON value that can be written
    back (see :func:`_json_value_problems`); a quick look first, since JSON that came through
    :func:`compactor.input._jsonio.parse_json` always passes it."""
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
    (``value`` itself is at ``level``). Iterative: any depth of Python value is safe.

    A path of None stands for a place the report has no room to name: it is only counted."""
    stack: list[tuple[Any, Parts | None, int]] = [(value, parts, level)]
    while stack:
        item, where, depth = stack.pop()
        if not isinstance(item, (dict, list)):
            problem = _scalar_problem(item)
            if problem is not None:
                _add_at(report, where, problem)
        elif depth > max_depth:
            _add_at(report, where, lambda: f"is nested more than {max_depth} levels deep")
        else:
            stack.extend(reversed(_members(item, where, depth, report)))


def _scalar_problem(item: Any) -> Message | None:
    """Why ``item``, which is no array or object, cannot be written back; None when it can."""
    if isinstance(item, str):
        return None if is_text(item) else lambda: surrogate_message(item)
    if isinstance(item, bool) or item is None:
        return None
    if isinstance(item, int):
        return _too_many_digits if item.bit_length() > 14_000 and not _writable(item) else None
    if isinstance(item, float):
        return None if math.isfinite(item) else lambda: "must be a finite number"
    return lambda: f"must be a JSON value, not {type_name(item)}"


def _members(
    item: dict | list, where: Parts | None, depth: int, report: Report
) -> list[tuple[Any, Parts | None, int]]:
    """The members of an array or object to look at next, each with its path (None once the
    report is full) and level; an object's keys that cannot be written are reported here."""
    counting = where is None or report.full
    if isinstance(item, list):
        return [
            (child, None if counting else (*where, i), depth + 1) for i, child in enumerate(item)
        ]
    members = []
    for key, child in item.items():
        problem = _key_problem(key)
        if problem is not None:
            _add_at(report, where, problem)
        else:
            members.append((child, None if counting else (*where, key), depth + 1))
    return members


def _key_problem(key: Any) -> Message | None:
    """Why an object's ``key`` cannot be written back (its value is then not looked at)."""
    if not isinstance(key, str):
        return lambda: f"has a key that is not a string ({describe(key)}); JSON keys are strings"
    if not is_text(key):
        return lambda: key_surrogate_message(key)
    return None


def _too_many_digits() -> str:
    return f"has more than {sys.get_int_max_str_digits():,} digits; no field takes that many"


def _add_at(report: Report, where: Parts | None, message: Message) -> None:
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
