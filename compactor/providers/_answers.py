"""Reading a provider's answer: each field where the API puts it, or what is off, by path.

A 200 answer is JSON the provider wrote; nothing in it is trusted to have the documented shape.
:func:`member` takes one field of one type and raises :class:`WrongShape` naming where it is and
what it is instead (``choices is an object, not a list``), which the provider turns into a clear
error; usage counts that are missing or not counts are None.
"""

from __future__ import annotations

from typing import Any


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


def reported_count(value: Any) -> int | None:
    """A token count from a response's usage, or None when it is missing or not a count."""
    ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
    return value if ok else None
