"""Evaluation rows on disk: JSONL appended and flushed row by row, or Parquet at the end.

A run that is interrupted keeps every row it wrote, and a resumed run reads them back to skip
them. JSONL is the file itself; for Parquet (whose footer is written last, so a cut file is
unreadable) the rows go to a JSONL file beside it, ``FILE.parquet.rows.jsonl``, which becomes the
Parquet file (in row groups) when the run finishes. A last line cut short by the interruption
is removed before the run goes on, and its row computed again.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from compactor.errors import Problem, ProblemError, UnreadableJSON
from compactor.input.jsonio import dumps, parse_json

SUFFIXES = (".jsonl", ".parquet")
PARQUET_HINT = 'writing Parquet needs pyarrow, in the parquet extra: pip install -e ".[parquet]"'
#: Rows per Parquet row group (and per batch read from the rows file).
ROW_GROUP = 50_000


def check_out(path: str | Path, resume: bool) -> None:
    """Raise :class:`ProblemError` when rows cannot go to ``path``: another suffix, Parquet
    without pyarrow, or a file that exists when not resuming (it is never overwritten)."""
    path = Path(path)
    if path.suffix not in SUFFIXES:
        raise ProblemError(
            [Problem(f"{path}: the rows file must end in .jsonl or .parquet", path="--out")]
        )
    if path.suffix == ".parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise ProblemError([Problem(PARQUET_HINT, path="--out")]) from None
    if not resume and (path.exists() or rows_file(path).exists()):
        raise ProblemError(
            [
                Problem(
                    f"{path} exists: add --resume to continue that run, or choose another file",
                    path="--out",
                )
            ]
        )


def rows_file(path: str | Path) -> Path:
    """Where rows are appended as they finish: the file, or the JSONL beside a Parquet file."""
    path = Path(path)
    return path.with_name(path.name + ".rows.jsonl") if path.suffix == ".parquet" else path


def read_rows(path: str | Path) -> list[dict[str, Any]]:
    """The rows an earlier run wrote to ``path`` (none when there is no file); a last line cut
    short is removed from the file. Raises :class:`UnreadableJSON` (with the line) for a line
    that is not a row."""
    path = Path(path)
    rows: list[dict[str, Any]] = []
    if path.suffix == ".parquet" and path.exists():
        import pyarrow.parquet as pq

        rows += pq.read_table(path).to_pylist()
    appended = rows_file(path)
    if path.suffix == ".parquet" and rows and not appended.exists():
        # A finished Parquet file: its rows move back to the rows file, which grows from here.
        write_lines(appended, rows)
        path.unlink()
        return rows
    if not appended.exists():
        return rows
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
            rows.append(row)
    return rows


class RowWriter:
    """Appends rows to the rows file, one flushed line each; :meth:`finish` writes Parquet."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._handle = rows_file(self.path).open("ab")

    def write(self, row: dict[str, Any]) -> None:
        self._handle.write(dumps(row, None).encode("utf-8") + b"\n")
        self._handle.flush()

    def close(self) -> None:
        self._handle.close()

    def finish(self) -> None:
        """Close the file; for Parquet, write it from the rows file and remove that."""
        self.close()
        if self.path.suffix == ".parquet":
            to_parquet(rows_file(self.path), self.path)
            rows_file(self.path).unlink()


def to_parquet(source: Path, target: Path) -> None:
    """The JSONL rows of ``source`` as a Parquet file (written beside, then moved in place)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    partial = target.with_name(target.name + ".partial")
    writer = None
    try:
        for batch in _batches(source):
            table = pa.Table.from_pylist(batch)
            if writer is None:
                writer = pq.ParquetWriter(partial, table.schema)
            writer.write_table(table.cast(writer.schema))
        if writer is None:  # no rows at all
            pq.write_table(pa.table({"conversation": pa.array([], pa.string())}), partial)
    finally:
        if writer is not None:
            writer.close()
    os.replace(partial, target)


def write_lines(path: Path, rows: Iterable[dict[str, Any]]) -> None:
    with path.open("wb") as handle:
        for row in rows:
            handle.write(dumps(row, None).encode("utf-8") + b"\n")


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
