"""The cycle collector paused while a call builds many acyclic objects, the one pause every layer
uses.

A whole agent session makes tens of thousands of small containers in one call (a response's
rows, parsed JSON, units, anchors, records). None of them form cycles, but their allocations set
off collections, and every collection of the oldest generation walks all objects the process
holds: tens of milliseconds each in a process with a large heap (the explorer's). Pausing the
collector for the call leaves nothing uncollected: a cycle made meanwhile is found by the next
collection after it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cycle collector for the ``with`` block (or the decorated call).

    Only a pause that found the collector running restarts it, also when the block raises:
    a caller that had paused it finds it still paused, and two threads pausing at once never
    leave it off (at worst one's pause ends early).

    Example:
        >>> import gc
        >>> from compactor.collector import collector_paused
        >>> with collector_paused():
        ...     paused = not gc.isenabled()
        >>> paused, gc.isenabled()
        (True, True)
    """
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            gc.enable()
