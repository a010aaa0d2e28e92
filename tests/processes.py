"""Real processes for the tests that kill them: children of a process, and whether one is gone."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent id) of a process, from /proc; None when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[1])


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (and that are not dead)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _stat(int(entry))
            if stat is not None and stat[1] == pid and stat[0] != "Z":
                found.append(int(entry))
    return sorted(found)


def descendants(pid: int) -> list[int]:
    """Every process below ``pid``: its children, theirs, and so on."""
    found, todo = [], [pid]
    while todo:
        below = children(todo.pop())
        found += below
        todo += below
    return sorted(found)


def gone(pid: int) -> bool:
    """Whether the process has ended (gone, or dead and waiting to be reaped)."""
    stat = _stat(pid)
    return stat is None or stat[0] in ("Z", "X")


def wait_for(condition: Callable[[], bool], seconds: float, step: float = 0.05) -> bool:
    """Whether ``condition()`` became true within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return condition()


@contextmanager
def hearing_sigint() -> Iterator[None]:
    """Processes started inside hear SIGINT even where this one ignores it: a background job
    of a non-interactive shell (as a CI runner may start the suite) ignores SIGINT, and an
    ignored signal stays ignored through ``exec``, where a handled one is reset to its
    default."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
