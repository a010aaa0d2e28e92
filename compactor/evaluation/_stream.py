"""A corpus read as it is evaluated: one conversation at a time, never the whole corpus at once.

:func:`~compactor.evaluation.load_corpus` returns every conversation in a list, converted before
the first is used; a corpus of half a million records would be held whole (and converted whole)
before its first row. :class:`CorpusStream` reads the same files as the same conversations, with
the same names, in the same order, but yields them one at a time:

- it first looks over every file (``len`` and ``probes`` are known before the first row, and a
  file that is not JSON or JSON Lines is refused, with its line, before any work); a JSONL file
  is looked over line by line, holding no line, and read again line by line as it is evaluated;
  a JSON document (a list of records) is parsed whole, once to look and once to convert;
- each record is converted when it is reached; one that cannot be used (not a conversation,
  beyond the limits without the fix, an invalid request) is set aside, with what and where in
  ``problems`` and, with the fixes that would make it usable, in ``set_aside`` (the first
  :data:`~compactor.errors.MAX_PROBLEMS` of each, the rest counted), and the others go on;
- what a folder holds that cannot be read (a link loop, a device) is listed in ``skipped``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from compactor.errors import MAX_PROBLEMS, FormatError, Problem, UnreadableJSON
from compactor.evaluation._corpus import (
    CorpusItem,
    Found,
    ProblemsIn,
    SetAside,
    corpus_files,
    document_items,
    imported_item,
    imported_values,
    is_imported,
    read_file,
    record_item,
)
from compactor.formats import Record, is_record, line_texts, looks_like_lines, read_document
from compactor.input import parse_json

#: How a file is read: JSONL of records, JSONL of ``import --all`` lines, or whole.
RECORDS, IMPORTED, WHOLE = "records", "imported", "whole"


@dataclass(frozen=True)
class _File:
    name: str | None  # its name in a folder; None for a file given itself
    path: Path
    kind: str
    count: int  # conversations
    probes: bool  # whether a record carries probes


class CorpusStream:
    """The conversations of the file or folder ``path``, as :func:`load_corpus` reads them,
    yielded one at a time (iterate once). Raises as ``load_corpus`` does for files that cannot
    be read; records that cannot be used are listed in :attr:`problems` as they are met."""

    def __init__(
        self,
        path: str | Path,
        format: str | None = None,
        *,
        keep_last: bool = False,
        cut_long: bool = False,
    ):
        files = corpus_files(path)
        self.skipped: list[str] = files.skipped
        self.problems: list[Problem] = []  # the first MAX_PROBLEMS; the rest are counted
        self.more_problems = 0
        self.set_aside: list[SetAside] = []  # the first MAX_PROBLEMS; the rest in unusable
        self.read = 0  # conversations yielded so far
        self.unusable = 0  # conversations set aside for their problems
        self._options = (format, keep_last, cut_long)
        self._files: list[_File] = []
        problems: list[Problem] = []
        unreadable = False
        for name, file in files.files:
            try:
                self._files.append(_look(name, file, format))
            except ProblemsIn as error:
                unreadable |= error.unreadable
                problems += error.problems
        if problems:
            raise (UnreadableJSON if unreadable else FormatError)(problems)

    def __len__(self) -> int:
        """The conversations the corpus holds (usable or not)."""
        return sum(f.count for f in self._files)

    @property
    def probes(self) -> bool:
        """Whether a record of the corpus carries probes."""
        return any(f.probes for f in self._files)

    def __iter__(self) -> Iterator[CorpusItem]:
        for file in self._files:
            for found in _conversations(file, *self._options):
                if isinstance(found, CorpusItem):
                    self.read += 1
                    yield found
                else:
                    self.unusable += 1
                    if len(self.set_aside) < MAX_PROBLEMS:
                        self.set_aside.append(found)
                    named = found.named()
                    room = max(0, MAX_PROBLEMS - len(self.problems))
                    self.problems += named[:room]
                    self.more_problems += len(named[room:])


def _look(name: str | None, path: Path, format: str | None) -> _File:
    """How to read the file, and how many conversations it holds; raises :class:`ProblemsIn`
    as :func:`load_corpus` would for a file that is not JSON."""
    lines = _look_at_lines(path, format) if format in (None, "jsonl") else None
    if lines is not None:
        kind, count, probes = lines
        return _File(name, path, kind, count, probes)
    try:
        document = read_document(read_file(path), format)
    except UnreadableJSON as error:
        problems = [p if name is None else _named(p, name) for p in error.problems]
        raise ProblemsIn(problems, True) from None
    imported = imported_values(document)
    if imported is not None:
        return _File(name, path, WHOLE, len(imported), False)
    collection = document.collection
    if collection is None:
        return _File(name, path, WHOLE, 1, False)
    probes = any("probes" in r.value for r in collection.records)
    return _File(name, path, WHOLE, len(collection), probes)


def _look_at_lines(path: Path, format: str | None) -> tuple[str, int, bool] | None:
    """For JSON Lines whose every line is a record (or an ``import --all`` line): the kind, the
    count and whether a record has probes, read line by line. None for anything else (one
    conversation a file, a JSON document, or a file with a problem to report): it is read whole.
    """
    records = imported = True
    count, probes = 0, False
    try:
        with path.open("rb") as handle:
            if b"\x00" in handle.read(4096):
                return None  # binary: read whole, which says so
            handle.seek(0)
            for _, text in line_texts(handle):
                if count == 0 and format is None and not looks_like_lines(text):
                    return None
                try:
                    value = parse_json(text)
                except UnreadableJSON:
                    return None
                records = records and is_record(value)
                imported = imported and is_imported(value)
                if not (records or imported):
                    return None
                probes = probes or (records and "probes" in value)
                count += 1
    except (OSError, UnicodeDecodeError):
        return None
    if count == 0 or (count == 1 and format is None):  # one line is one JSON document
        return None
    return (RECORDS if records else IMPORTED), count, probes


def _conversations(
    file: _File, format: str | None, keep_last: bool, cut_long: bool
) -> Iterator[Found]:
    if file.kind == WHOLE:
        try:
            document = read_document(read_file(file.path), format)
        except (ProblemsIn, UnreadableJSON) as error:  # changed since it was looked at
            name = file.name if file.name is not None else str(file.path)
            yield SetAside(name, tuple(error.problems), label=str(file.path))
            return
        yield from document_items(document, file.name, format, keep_last, cut_long)
        return
    with file.path.open("rb") as handle:
        for index, (number, text) in enumerate(line_texts(handle)):
            value = json.loads(text)  # looked at with parse_json: the same value
            if file.kind == IMPORTED:
                yield imported_item(value, index)
                continue
            conversation = f"{file.name}#{index}" if file.name is not None else index
            record = Record(f"line {number}", value)
            yield record_item(record, conversation, format, keep_last, cut_long)


def _named(problem: Problem, where: str) -> Problem:
    return Problem(f"{problem.message} ({where})", problem.path, problem.line, problem.column)
