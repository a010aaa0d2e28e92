"""A small memo for the anchor finder: the last few values of a pure function of a
conversation's contents.

The finder takes no parameter, so what it finds in a conversation is the same for every request
over it; the explorer and the CLI ask for the anchors of one conversation under many parameter
settings. A memo keyed by the contents themselves (not by an id or a file name) can only return
what computing again would return; it holds the last ``size`` conversations and is safe across
the threads Streamlit runs its scripts in (two threads asking at once may both compute: the same
value).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from threading import Lock
from typing import Generic, TypeVar

V = TypeVar("V")


class ContentsMemo(Generic[V]):
    """The values of one pure function, by key, the least recently used dropped first."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._values: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = Lock()

    def get(self, key: Hashable, compute: Callable[[], V]) -> V:
        """The value for ``key``: remembered, or ``compute()`` remembered."""
        with self._lock:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key]
        value = compute()
        with self._lock:
            self._values[key] = value
            while len(self._values) > self._size:
                self._values.popitem(last=False)
        return value

    def values(self) -> list[V]:
        """The values held, oldest first."""
        with self._lock:
            return list(self._values.values())

    def clear(self) -> None:
        with self._lock:
            self._values.clear()
