"""Evaluation rows on disk: JSONL appended and flushed row by row, or Parquet at the end.

A run that is interrupted keeps every row it wrote, and a resumed run reads them back to skip
them. JSONL is the file itself; for Parquet (whose footer is written last, so a cut file is
unreadable) the rows go to a JSONL file beside it, ``FILE.parquet.rows.jsonl``, which becomes the
Parquet file (in row groups) when the run finishes. A last line cut short by the interruption
is removed before the run goes on, and its row computed again.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from compactor.errors import Problem, ProblemError, UnreadableJSON
from compactor.input import dumps, parse_json
from compactor.wording import install_command

SUFFIXES = (".jsonl", ".parquet")
PARQUET_HINT = f"writing Parquet needs pyarrow, in the parquet extra: {install_command('parquet')}"
#: Rows per Parquet row group (and per batch read from the rows file).
ROW_GROUP = 50_000


def check_out(path: str | Path, resume: bool) -> None:
    """Raise :class:`ProblemError` when rows cannot go to ``path``: another suffix, a folder that
    does not exist, Parquet without pyarrow, or a file that exists when not resuming (it is
    never overwritten)."""
    path = Path(path)
    if path.suffix not in SUFFIXES:
        raise ProblemError(
            [Problem(f"{path}: the rows file must end in .jsonl or .parquet", path="--out")]
        )
    folder = path.parent
    if not folder.is_dir():
        raise ProblemError(
            [
                Problem(
                    f"{path}: the folder {folder} does not exist; create it, or choose a file "
                    "in a folder that does",
                    path="--out",
                )
            ]
        )
    if path.suffix == ".parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise ProblemError([Problem(PARQUET_HINT, path="--out")]) from None
    if not resume and (path.exists() or rows_file(path).exists()):
        raise ProblemError([_exists(path)])


def _exists(path: Path) -> Problem:
    return Problem(
        f"{path} exists: add --resume to continue that run, or choose another file", path="--out"
    )


def rows_file(path: str | Path) -> Path:
    """Where rows are appended as they finish: the file, or the JSONL beside a Parquet file."""
    path = Path(path)
    return path.with_name(path.name + ".rows.jsonl") if path.suffix == ".parquet" else path


def read_rows(path: str | Path) -> list[dict[str, Any]]:
    """Every row an earlier run wrote to ``path`` (:func:`iter_rows`), in a list."""
    return list(iter_rows(path))


def iter_rows(path: str | Path) -> Iterator[dict[str, Any]]:
    """The rows an earlier run wrote to ``path``, read one at a time (none when there is no
    file); a last line cut short is removed from the file first, and a finished Parquet file's
    rows go back to the rows file, which grows from here. Raises :class:`UnreadableJSON` (with
    the line) for a line that is not a row."""
    path = Path(path)
    appended = rows_file(path)
    if path.suffix == ".parquet" and path.exists():
        if appended.exists() and appended.stat().st_size:
            # Parquet is written from the rows file, which is removed after: both there means
            # the run stopped in between, and the rows file holds every row.
            path.unlink()
        else:
            _back_to_rows(path, appended)
    if not appended.exists():
        return
    _cut_partial_line(appended)
    with appended.open("rb") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                row = parse_json(line)
            except UnreadableJSON as error:
                first = error.problems[0]
                raise UnreadableJSON(
                    [Problem(f"{appended}: {first.message}", line=number, column=first.column or 1)]
                ) from None
            if not isinstance(row, dict) or "conversation" not in row:
                raise UnreadableJSON(
                    [Problem(f"{appended}: not an evaluation row", line=number, column=1)]
                )
            yield row


class RowWriter:
    """Appends rows to the rows file, one line each, written through at once; :meth:`finish`
    writes Parquet.

    The rows file is locked while the writer is open, so two runs never write one file (the
    second is refused at once, saying so). A fresh run (not ``resume``) creates the file and
    never opens one that exists. A row that cannot be written whole (a full disk, a file size
    limit) is taken back, so the file ends with a whole row and a resumed run goes on exactly;
    the error says so.
    """

    def __init__(self, path: str | Path, resume: bool = False):
        self.path = Path(path)
        target = rows_file(self.path)
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | (0 if resume else os.O_EXCL)
        try:
            self._fd = os.open(target, flags, 0o644)
        except FileExistsError:
            raise ProblemError([_exists(self.path)]) from None
        except OSError as error:
            raise ProblemError(
                [Problem(f"{target}: cannot write the rows there ({error.strerror})", "--out")]
            ) from None
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(self._fd)
            raise ProblemError(
                [
                    Problem(
                        f"{target}: another run is writing these rows now; wait for it to end "
                        "(then --resume goes on from its rows), or choose another --out",
                        path="--out",
                    )
                ]
            ) from None
        self._size: int | None = None  # the file's size after the last whole row
        self.written = 0

    def write(self, row: dict[str, Any]) -> None:
        data = dumps(row, None).encode("utf-8") + b"\n"
        if self._size is None:
            self._size = os.fstat(self._fd).st_size
        try:
            done = 0
            while done < len(data):
                done += os.write(self._fd, data[done:])
        except OSError as error:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, self._size)
            raise ProblemError([self._cannot(rows_file(self.path), error)]) from None
        self._size += len(data)
        self.written += 1

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)  # and with it the lock
            self._fd = -1

    def finish(self) -> None:
        """For Parquet, write it from the rows file and remove that; then close the file."""
        try:
            if self.path.suffix == ".parquet":
                appended = rows_file(self.path)
                try:
                    to_parquet(appended, self.path)
                except OSError as error:
                    raise ProblemError([self._cannot(self.path, error)]) from None
                appended.unlink()
        finally:
            self.close()

    def _cannot(self, target: Path, error: OSError) -> Problem:
        kept = rows_file(self.path)
        return Problem(
            f"{target}: cannot write ({error.strerror or error}); the rows written so far are "
            f"kept whole in {kept}: make room, then run the same command with --resume to go on",
            path="--out",
        )


def to_parquet(source: Path, target: Path) -> None:
    """The JSONL rows of ``source`` as a Parquet file (written beside, then moved in place)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    partial = target.with_name(target.name + ".partial")
    schema = _schema(source)  # every row's columns: rows of a mixed corpus differ in their keys
    writer = None
    try:
        for batch in _batches(source):
            table = pa.Table.from_pylist(batch, schema=schema)
            if writer is None:
                writer = pq.ParquetWriter(partial, schema)
            writer.write_table(table)
        if writer is None:  # no rows at all
            pq.write_table(pa.table({"conversation": pa.array([], pa.string())}), partial)
    except BaseException:
        if writer is not None:
            with contextlib.suppress(Exception):
                writer.close()
        partial.unlink(missing_ok=True)
        raise
    if writer is not None:
        writer.close()
    os.replace(partial, target)


def _schema(source: Path) -> Any:
    """One schema for all the rows: the union of their columns, in the order they first appear,
    each with the type its values share (a column empty in one batch takes another's type)."""
    import pyarrow as pa

    schemas = []
    for batch in _batches(source):
        names = list(dict.fromkeys(key for row in batch for key in row))
        columns = {name: [row.get(name) for row in batch] for name in names}
        schemas.append(pa.Table.from_pydict(columns).schema)
    if not schemas:
        return None
    return pa.unify_schemas(schemas, promote_options="permissive")


def write_lines(path: Path, rows: Iterable[dict[str, Any]]) -> None:
    with path.open("ab") as handle:
        for row in rows:
            handle.write(dumps(row, None).encode("utf-8") + b"\n")


def _back_to_rows(parquet: Path, appended: Path) -> None:
    """A finished Parquet file's rows, batch by batch, into the rows file; then it goes."""
    import pyarrow.parquet as pq

    with pq.ParquetFile(parquet) as table:
        rows = (row for batch in table.iter_batches(ROW_GROUP) for row in batch.to_pylist())
        write_lines(appended, rows)
    parquet.unlink()


def _batches(source: Path) -> Iterator[list[dict[str, Any]]]:
    batch = []
    with source.open("rb") as handle:
        for line in handle:
            if line.strip():
                batch.append(json.loads(line))
            if len(batch) >= ROW_GROUP:
                yield batch
                batch = []
    if batch:
        yield batch


def _cut_partial_line(path: Path) -> None:
    """Remove a last line without its newline: a row cut short when the run was stopped."""
    size = path.stat().st_size
    if not size:
        return
    with path.open("rb+") as handle:
        handle.seek(size - 1)
        if handle.read(1) == b"\n":
            return
        keep, step = size, 4096
        while keep > 0:
            start = max(0, keep - step)
            handle.seek(start)
            found = handle.read(keep - start).rfind(b"\n")
            if found >= 0:
                handle.truncate(start + found + 1)
                return
            keep = start
        handle.truncate(0)
