"""The files a path of conversations names: the file itself, or a folder's .json and .jsonl files.

A folder is searched recursively, in path order, following links to folders once each. What it
cannot read is skipped and said (``skipped``), never silently: a link loop, a link to nothing,
and a device, pipe or socket named like a conversation file. The path itself must be a file or
a folder: a device (``/dev/zero``) or a pipe would be read without end, so it is refused.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from compactor.errors import FormatError, Problem

#: The files of a folder that hold conversations.
SUFFIXES = (".json", ".jsonl")


@dataclass(frozen=True)
class Files:
    """``(name in the folder, path)`` of each file to read (the name is None for a file given
    itself), and ``skipped``: one line per folder entry not read, saying why."""

    files: list[tuple[str | None, Path]]
    skipped: list[str] = field(default_factory=list)


def files_of(path: str | Path) -> Files:
    """The files of ``path``; raises :class:`FormatError` when it is neither a file nor a folder
    (a missing path is left to the reader, which says it cannot read it)."""
    root = Path(path)
    try:
        mode = root.stat().st_mode
    except OSError:
        return Files([(None, root)])
    if stat.S_ISDIR(mode):
        found, skipped = _walk(root)
        return Files([(p.relative_to(root).as_posix(), p) for p in sorted(found)], skipped)
    if not stat.S_ISREG(mode):
        raise FormatError(
            [
                Problem(
                    f"{root}: this is {_kind(mode)}, not a file or a folder of conversations; "
                    "it could be read without end, so it is not read"
                )
            ]
        )
    return Files([(None, root)])


def _walk(root: Path) -> tuple[list[Path], list[str]]:
    found: list[Path] = []
    skipped: list[str] = []
    start = root.stat()
    seen = {(start.st_dev, start.st_ino)}

    def visit(folder: Path) -> None:  # depth first, in name order: the same choice every time
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as error:
            skipped.append(f"{_shown(root, folder)}: cannot read the folder ({error.strerror})")
            return
        for entry in entries:
            path = Path(entry.path)
            try:
                info = path.stat()  # through links
            except OSError as error:
                if error.errno == errno.ELOOP:
                    skipped.append(f"{_shown(root, path)}: a link loop, not read")
                elif path.suffix in SUFFIXES:
                    skipped.append(f"{_shown(root, path)}: cannot read it ({error.strerror})")
                continue
            if stat.S_ISDIR(info.st_mode):
                if (info.st_dev, info.st_ino) in seen:
                    where = _shown(root, path)
                    skipped.append(f"{where}: a link to a folder already read, not read again")
                    continue
                seen.add((info.st_dev, info.st_ino))
                visit(path)
            elif path.suffix in SUFFIXES:
                if stat.S_ISREG(info.st_mode):
                    found.append(path)
                else:
                    skipped.append(f"{_shown(root, path)}: {_kind(info.st_mode)}, not read")

    visit(root)
    return found, skipped


def _shown(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix() if path != root else str(root)


def _kind(mode: int) -> str:
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"
