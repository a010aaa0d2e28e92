"""Child processes that end with their parent: a pool's workers never outlive the process that
started them, even when it is killed with SIGKILL and cannot stop them itself.

Each child calls :func:`end_with_parent` first (a pool's initializer). On Linux the kernel then
kills it when its parent dies (``PR_SET_PDEATHSIG``), but only when the pool was started from
the parent's main thread: the signal follows the thread that made the child, and a pool started
from another thread (a web server's thread pool, a Streamlit script run) would lose its children
when that thread ends. Every child also watches its parent from a thread and ends within
:data:`WATCH_SECONDS` of it (on every system, and for those other pools).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time

#: How often a child looks whether its parent is still there.
WATCH_SECONDS = 0.5
_PR_SET_PDEATHSIG = 1


def parent_watch() -> tuple[int, bool]:
    """What a pool's children need to end with this process: its id, and whether the kernel
    can tie them to it (the pool is started from this process's main thread). Pass it to
    :func:`end_with_parent` in the children (an initializer's arguments)."""
    return os.getpid(), threading.current_thread() is threading.main_thread()


def end_with_parent(parent: int, immediate: bool = False) -> None:
    """In a child process: end it when ``parent`` (the process that started it) ends.

    ``immediate`` asks the kernel to kill it at once (Linux, and only for a child made by the
    parent's main thread: :func:`parent_watch` says). A child whose parent is not ``parent``
    (a forkserver's child: its parent is the forkserver, which ends with ``parent``) watches
    the parent it has.
    """
    if immediate and sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    watched = os.getppid()
    if watched == 1 or (watched != parent and not _alive(parent)):
        os._exit(1)  # the parent died before the child could ask
    threading.Thread(target=_watch, args=(watched,), name="end-with-parent", daemon=True).start()


def _watch(parent: int) -> None:
    while True:
        time.sleep(WATCH_SECONDS)
        if os.getppid() != parent:  # the parent died: this process was handed to another
            os._exit(1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
