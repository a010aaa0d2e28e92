"""A corpus read as it is evaluated: one conversation at a time, never the whole corpus at once.

:func:`~compactor.evaluation.load_corpus` returns every conversation in a list, converted before
the first is used; a corpus of half a million records would be held whole (and converted whole)
before its first row. :class:`CorpusStream` reads the same files as the same conversations, with
the same names, in the same order, but yields them one at a time:

- it first looks over every file (``len`` and ``probes`` are known before the first row, and a
  file given itself that is not JSON or JSON Lines is refused, with its line, before any work);
  a JSONL file is looked over line by line, holding no line, and read again line by line as it
  is evaluated; a JSON document (a list of records) is parsed whole, once to look and once to
  convert;
- each record is converted when it is reached; one that cannot be used (a line of JSON Lines
  that is not JSON, not a conversation, beyond the limits without the fix, an invalid request)
  is set aside, with what and where in ``problems`` and, with the fixes that would make it
  usable, in ``set_aside`` (the first :data:`~compactor.errors.MAX_PROBLEMS` of each, the rest
  counted), and the others go on; so is a file of a folder that is not JSON or JSON Lines (one
  conversation, named by its path), so one truncated file does not sink the folder;
- what a folder holds that cannot be read (a link loop, a device) is listed in ``skipped``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from compactor.errors import MAX_PROBLEMS, Problem, UnreadableJSON
from compactor.evaluation._corpus import (
    IMPORTED,
    LINE_RECORDS_FORMATS,
    WHOLE,
    CorpusItem,
    Found,
    LinesLook,
    ProblemsIn,
    SetAside,
    corpus_files,
    document_items,
    imported_item,
    imported_values,
    line_problem,
    read_file,
    record_item,
)
from compactor.evaluation._questions import QuestionSet
from compactor.formats import Record, line_texts, read_document

#: How a file is read: JSONL of records or of ``import --all`` lines (``RECORDS``,
#: ``IMPORTED``), whole, or not at all (a file of a folder that is not JSON: set aside).
READ_WHOLE, UNREADABLE = "whole", "unreadable"


@dataclass(frozen=True)
class _File:
    name: str | None  # its name in a folder; None for a file given itself
    path: Path
    kind: str
    count: int  # conversations
    probes: bool  # whether a record carries probes
    broken: frozenset[int] = frozenset()  # JSONL: the numbers of the lines that are not JSON
    problems: tuple[Problem, ...] = ()  # UNREADABLE: why


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
        questions: QuestionSet | None = None,
    ):
        files = corpus_files(path)
        self.questions = questions  # when given, its questions are the conversations' probes
        self.skipped: list[str] = files.skipped
        self.problems: list[Problem] = []  # the first MAX_PROBLEMS; the rest are counted
        self.more_problems = 0
        self.set_aside: list[SetAside] = []  # the first MAX_PROBLEMS; the rest in unusable
        self.read = 0  # conversations yielded so far
        self.unusable = 0  # conversations set aside for their problems
        self._options = (format, keep_last, cut_long)
        self._files: list[_File] = []
        for name, file in files.files:
            try:
                self._files.append(_look(name, file, format))
            except ProblemsIn as error:
                if name is None:  # the corpus is this one file: nothing could be evaluated
                    raise UnreadableJSON(error.problems) from None
                self._files.append(
                    _File(name, file, UNREADABLE, 1, False, problems=tuple(error.problems))
                )

    def __len__(self) -> int:
        """The conversations the corpus holds (usable or not)."""
        return sum(f.count for f in self._files)

    @property
    def probes(self) -> bool:
        """Whether a record of the corpus carries probes (or a question set is given)."""
        return self.questions is not None or any(f.probes for f in self._files)

    def __iter__(self) -> Iterator[CorpusItem]:
        for file in self._files:
            for found in _conversations(file, *self._options):
                if isinstance(found, CorpusItem):
                    self.read += 1
                    yield found if self.questions is None else self.questions.attach(found)
                else:
                    if self.questions is not None:
                        self.questions.conversation_set_aside(found.conversation)
                    self.unusable += 1
                    if len(self.set_aside) < MAX_PROBLEMS:
                        self.set_aside.append(found)
                    named = found.named()
                    room = max(0, MAX_PROBLEMS - len(self.problems))
                    self.problems += named[:room]
                    self.more_problems += len(named[room:])
        if self.questions is not None:
            self.questions.finish()


def _look(name: str | None, path: Path, format: str | None) -> _File:
    """How to read the file, and how many conversations it holds; raises :class:`ProblemsIn`
    as :func:`load_corpus` would for a file that is not JSON."""
    lines = _look_at_lines(name, path, format) if format in LINE_RECORDS_FORMATS else None
    if lines is not None:
        return lines
    try:
        document = read_document(read_file(path), format)
    except UnreadableJSON as error:
        raise ProblemsIn(error.problems, True) from None
    imported = imported_values(document)
    if imported is not None:
        return _File(name, path, READ_WHOLE, len(imported), False)
    collection = document.collection
    if collection is None:
        return _File(name, path, READ_WHOLE, 1, False)
    probes = any("probes" in r.value for r in collection.records)
    return _File(name, path, READ_WHOLE, len(collection), probes)


def _look_at_lines(name: str | None, path: Path, format: str | None) -> _File | None:
    """For JSON Lines whose every line is a record (or an ``import --all`` line), some perhaps
    not JSON (:class:`~compactor.evaluation._corpus.LinesLook`): the file, looked at line by
    line. None for anything else (one conversation a file, a JSON document, or a file with a
    problem to report): it is read whole."""
    look = LinesLook(format)
    try:
        with path.open("rb") as handle:
            if b"\x00" in handle.read(4096):
                return None  # binary: read whole, which says so
            handle.seek(0)
            for number, text in line_texts(handle):
                if look.add(number, text) is WHOLE:
                    return None
    except (OSError, UnicodeDecodeError):
        return None
    kind = look.kind()
    if kind is None:
        return None
    return _File(name, path, kind, look.count, look.probes, frozenset(look.broken))


def _conversations(
    file: _File, format: str | None, keep_last: bool, cut_long: bool
) -> Iterator[Found]:
    if file.kind == UNREADABLE:
        yield SetAside(file.name or str(file.path), file.problems, label=file.name or "")
        return
    if file.kind == READ_WHOLE:
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
            conversation = f"{file.name}#{index}" if file.name is not None else index
            if number in file.broken:
                problem = line_problem(number, text)
                yield SetAside(conversation, (problem,), label=_label(conversation))
                continue
            value = json.loads(text)  # looked at with parse_json: the same value
            if file.kind == IMPORTED:
                yield imported_item(value, index)
                continue
            record = Record(f"line {number}", value)
            yield record_item(record, conversation, format, keep_last, cut_long)


def _label(conversation: str | int) -> str:
    return f"record {conversation}"
