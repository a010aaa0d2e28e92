"""Bad luck for the workspace's SQLite file, made real: a row damaged by hand, a file that is not
a database or was cut in half, a folder that cannot be written (even by root), and a lock held
by another process. Shared by the workspace's tests and the page tests."""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from explorer.session.conversation import Conversation

PARAMS = {"budget_chars": 400, "keep_last_n": 1, "keep_roles": ["system"]}
PARAMS |= {"duplicate_threshold": 0.9, "max_message_chars": 400}


def conversation(n: int, chars: int = 40) -> Conversation:
    """A pasted conversation of three messages, about ``chars`` characters each."""
    filler = ("lorem ipsum dolor sit amet " * (chars // 27 + 1))[:chars]
    messages = tuple(
        {"role": role, "content": f"#{n} {role}: {filler}"}
        for role in ("user", "assistant", "user")
    )
    return Conversation(messages, PARAMS, f"Pasted conversation {n}", "pasted")


def set_body(database: Path, key: str, body: str) -> None:
    """Overwrite a stored conversation's body by hand, as a crash or a person might."""
    with sqlite3.connect(database) as db:
        db.execute("update conversations set body = ? where key = ?", (body, key))


def truncate_to_half(path: Path) -> None:
    with path.open("r+b") as file:
        file.truncate(path.stat().st_size // 2)


@contextmanager
def read_only(*paths: Path) -> Iterator[None]:
    """``paths`` read-only for this process, root included.

    As root, permission bits do not stop writes, so the immutable attribute (``chattr +i``,
    which stops root too) is set on each path and cleared afterwards; the test is skipped where
    the file system or the container does not allow it. As another user, ``chmod a-w``.
    """
    if os.geteuid() != 0:
        modes = {p: p.stat().st_mode for p in paths}
        try:
            for p in paths:
                p.chmod(modes[p] & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
            yield
        finally:
            for p, mode in modes.items():
                p.chmod(mode)
        return
    done = []
    try:
        for p in paths:
            made = subprocess.run(["chattr", "+i", str(p)], capture_output=True, timeout=30)
            if made.returncode != 0:
                pytest.skip(f"cannot make {p} immutable here: {made.stderr.decode().strip()}")
            done.append(p)
        assert all(not os.access(p, os.W_OK) for p in paths)
        yield
    finally:
        for p in done:
            subprocess.run(["chattr", "-i", str(p)], check=True, timeout=30)


_HOLDER = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("begin exclusive")
print("locked", flush=True)
sys.stdin.read()  # until the test closes our standard input (or kills us)
"""


@contextmanager
def locked(database: Path) -> Iterator[subprocess.Popen]:
    """Another process holding an exclusive lock on ``database`` (no reader, no writer)."""
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(database)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"locked\n"
        yield holder
    finally:
        holder.kill()
        holder.wait(timeout=30)
