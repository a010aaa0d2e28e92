"""Reading a provider's answer: each field where the API puts it, or what is off, by path.

A 200 answer is JSON the provider wrote; nothing in it is trusted to have the documented shape.
:func:`member` takes one field of one type and raises :class:`WrongShape` naming where it is and
what it is instead (``choices is an object, not a list``), which the provider turns into a clear
error; usage counts that are missing or not counts are None, and so is a count no call can
have used (over :data:`MAX_REPORTED_TOKENS`), with a warning that names the field.
"""

from __future__ import annotations

import logging
from typing import Any

#: More tokens than any model reads or writes in one call (context windows are at most a few
#: million): a usage count over this is the provider's error, read as not reported.
MAX_REPORTED_TOKENS = 10**9

_log = logging.getLogger("compactor.providers")


class WrongShape(Exception):
    """What is off in an answer's JSON (``choices is an object, not a list``)."""


def member(value: Any, name: str, kind: type, where: str = "") -> Any:
    """``value[name]``, which must be of ``kind``; raises :class:`WrongShape` naming the path."""
    path = f"{where}.{name}" if where else name
    if not isinstance(value, dict):
        raise WrongShape(f"{where or 'the answer'} is {_kind_of(value)}, not an object")
    if name not in value:
        raise WrongShape(f"{path} is missing")
    found = value[name]
    if not isinstance(found, kind) or isinstance(found, bool) and kind is not bool:
        raise WrongShape(f"{path} is {_kind_of(found)}, not {_KINDS.get(kind, kind.__name__)}")
    return found


_KINDS = {dict: "an object", list: "a list", str: "a string", int: "a number"}


def _kind_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return _KINDS.get(type(value), "a number" if isinstance(value, float) else type(value).__name__)


def reported_count(value: Any, name: str = "usage") -> int | None:
    """A token count from a response's usage (the field ``name``), or None when it is missing,
    not a count, or more than :data:`MAX_REPORTED_TOKENS` (then a warning names the field).

    >>> reported_count(1200), reported_count(-1), reported_count("12"), reported_count(True)
    (1200, None, None, None)
    """
    ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
    if ok and value > MAX_REPORTED_TOKENS:
        _log.warning(
            "the provider reported %s of more than %s tokens, more than any call uses; read as "
            "not reported",
            name,
            f"{MAX_REPORTED_TOKENS:,}",
        )
        return None
    return value if ok else None
