"""A corpus: many conversations read with the collection import (``../shared/SPEC.md`` part C).

A corpus is a file holding many records (a JSON list of ShareGPT or evaluation records, JSONL of
requests or conversations, one a line), a file of one conversation, or a folder of such files
(every ``.json`` and ``.jsonl`` file in it, searched recursively, in path order). Each
conversation is named as ``import --all`` names it: its record number ``i`` in a file, or
``"PATH"`` / ``"PATH#i"`` in a folder (PATH relative to the folder, ``/``-separated). The lines
``import --all`` prints (``{"record", "id", "request"}``) are a corpus too, named by their
``record``.

A collection record may carry labelled evidence (``../shared/SPEC.md`` part D, "Probes"): a
``probes`` list beside its conversation, each ref a message ``id`` or 0-based index of that
conversation; a ref that names no message is an error with its path in the file.

>>> items = load_corpus_text('{"messages": [{"role": "user", "content": "Hi"},'
...     ' {"role": "assistant", "content": "Hello"}], "budget_chars": 100}', "one.json")
>>> [(item.conversation, len(item.request["messages"])) for item in items]
[(0, 2)]
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from compactor.analyses.outcomes import InvalidProbes, Probe, parse_probes
from compactor.contract import AUTO_LIMITS
from compactor.errors import FormatError, Problem, UnreadableJSON
from compactor.evaluation._limits import with_fixes
from compactor.formats import (
    Conversion,
    Document,
    Files,
    Record,
    RecordedCompaction,
    apply_fixes,
    convert_document,
    convert_record,
    files_of,
    is_record,
    line_texts,
    place_in_record,
    read_document,
)
from compactor.input import errors_of, parse_json, validate

#: ``record`` and ``request``: the lines ``import --all`` prints.
IMPORTED_KEYS = frozenset({"record", "id", "request"})

#: A conversation's name in a corpus: its record number, ``"PATH"`` or ``"PATH#i"``.
ConversationName = int | str

#: What a file of JSON Lines holds a line: records, or the lines ``import --all`` prints.
RECORDS, IMPORTED = "records", "imported"

#: The formats a file of JSON Lines of records can be read as, one line a conversation.
LINE_RECORDS_FORMATS = (None, "jsonl", "records")


@dataclass(frozen=True)
class CorpusItem:
    """One conversation of a corpus: its name (``record``) and its request.

    ``tool_links`` are the (call, result) message index pairs the import linked by tool-call id
    (:attr:`compactor.formats.Conversion.tool_links`); tool pairs not linked are paired by
    position, as :func:`compactor.analyses._pairing.tool_pairs` does. ``probes`` are the
    record's labelled evidence, refs resolved to message indices (none when it has none).
    ``compactions`` are those the log recorded (Claude Code, Codex), boundaries into the
    request's messages: the re-read columns judge them.
    ``record_id`` is the record's own identifier (its ``id``, ``conversation_id``,
    ``session_id``, ``task_id`` or ``sample_id``; the ``id`` of an ``import --all`` line), by
    which a question set may name it (:mod:`~compactor.evaluation._questions`).
    """

    conversation: ConversationName
    request: dict[str, Any]
    tool_links: tuple[tuple[int, int], ...] = field(default=(), compare=True)
    probes: tuple[Probe, ...] = ()
    compactions: tuple[RecordedCompaction, ...] = ()
    record_id: str | int | None = None


@dataclass(frozen=True)
class SetAside:
    """A conversation of a corpus that cannot be used, set aside while the others go on.

    ``problems`` say what makes it unusable and where (the JSON path or line in its file);
    ``fixes`` name the import fixes (:data:`~compactor.evaluation._limits.FIXES`) that would
    make it usable, when that is all it needs; ``label`` names it (``record 117``,
    ``runs.json, record 3``).
    """

    conversation: ConversationName
    problems: tuple[Problem, ...]
    fixes: tuple[str, ...] = ()
    label: str = ""

    def named(self) -> list[Problem]:
        """The problems, each with the conversation named after its message."""
        return [_in(p, self.label) for p in self.problems]


@dataclass(frozen=True)
class CorpusRead:
    """A corpus as read: the conversations that can be used, and those set aside."""

    items: list[CorpusItem]
    set_aside: list[SetAside]


def load_corpus(
    path: str | Path,
    format: str | None = None,
    *,
    keep_last: bool = False,
    cut_long: bool = False,
) -> list[CorpusItem]:
    """Every conversation of the file or folder ``path``, in order.

    ``format`` names the import format (detected when None). A conversation beyond the
    contract's limits (more than 200 messages, a content over 8,000 characters) is an error
    unless ``keep_last`` / ``cut_long`` choose the fix, as ``import`` does. Raises
    :class:`~compactor.errors.UnreadableJSON` or :class:`~compactor.errors.FormatError` listing
    every problem of every file and record, each naming where (the JSON path, or the line and
    column) and which file or record.
    """
    items: list[CorpusItem] = []
    problems: list[Problem] = []
    unreadable = False
    for name, file in corpus_files(path).files:
        try:
            data = read_file(file)
        except ProblemsIn as error:
            unreadable = True
            problems += error.problems
            continue
        try:
            items += _items(data, name, format, keep_last, cut_long)
        except ProblemsIn as error:
            unreadable |= error.unreadable
            problems += error.problems
    if problems:
        raise _error(problems, unreadable)
    return items


def load_corpus_text(
    text: str | bytes,
    name: str | None = None,
    format: str | None = None,
    *,
    keep_last: bool = False,
    cut_long: bool = False,
) -> list[CorpusItem]:
    """The conversations of one uploaded file's text (``name`` is only for the messages).

    They are numbered as the records of a file are (0, 1, ...), as :func:`load_corpus` does
    for a file; raises as it does.
    """
    try:
        return _items(text, None, format, keep_last, cut_long, shown=name)
    except ProblemsIn as error:
        raise _error(error.problems, error.unreadable) from None


def read_corpus_text(
    text: str | bytes,
    name: str | None = None,
    format: str | None = None,
    *,
    keep_last: bool = False,
    cut_long: bool = False,
) -> CorpusRead:
    """As :func:`load_corpus_text`, but a conversation that cannot be used is set aside (in
    :attr:`CorpusRead.set_aside`) and the others are read; raises only for a file that is not
    JSON or JSON Lines (:class:`~compactor.errors.UnreadableJSON`, with its line and column)."""
    try:
        return _read(text, None, format, keep_last, cut_long, shown=name)
    except ProblemsIn as error:
        raise UnreadableJSON(error.problems) from None


def corpus_files(path: str | Path) -> Files:
    """The files of a corpus (:func:`~compactor.formats._folders.files_of`); raises
    :class:`FormatError` for a path that is a device or a pipe, or a folder without one."""
    root = Path(path)
    files = files_of(root)
    if not files.files:
        raise FormatError([Problem(f"{root}: the folder holds no .json or .jsonl file")])
    return files


def read_file(file: Path) -> bytes:
    """The bytes of a corpus file; raises :class:`ProblemsIn` (unreadable) saying why not."""
    try:
        return file.read_bytes()
    except OSError as error:
        problem = Problem(f"{file}: cannot read the file ({error.strerror})")
        raise ProblemsIn([problem], True) from None


class ProblemsIn(Exception):
    """The problems of one file, gathered before the corpus reports them all."""

    def __init__(self, problems: list[Problem], unreadable: bool):
        self.problems = problems
        self.unreadable = unreadable


def _error(problems: list[Problem], unreadable: bool) -> FormatError | UnreadableJSON:
    return (UnreadableJSON if unreadable else FormatError)(problems)


def _items(
    source: str | bytes,
    name: str | None,
    format: str | None,
    keep_last: bool,
    cut_long: bool,
    shown: str | None = None,
) -> list[CorpusItem]:
    """The conversations of one file; raises :class:`ProblemsIn` with all of its problems."""
    read = _read(source, name, format, keep_last, cut_long, shown)
    problems = [
        _in(with_fixes(p, aside.fixes), aside.label)
        for aside in read.set_aside
        for p in aside.problems
    ]
    if problems:
        raise ProblemsIn(problems, False)
    return read.items


def _read(
    source: str | bytes,
    name: str | None,
    format: str | None,
    keep_last: bool,
    cut_long: bool,
    shown: str | None = None,
) -> CorpusRead:
    """The conversations of one file, those that cannot be used set aside; raises
    :class:`ProblemsIn` (unreadable) for a file that is not JSON."""
    try:
        document = read_document(source, format)
        found_all: Iterable[Found] = document_items(
            document, name, format, keep_last, cut_long, shown
        )
    except UnreadableJSON as error:
        lines = _records_despite(source, format)
        if lines is None:
            label = name if name is not None else shown
            raise ProblemsIn([_in(p, label) for p in error.problems], True) from None
        found_all = _line_items(lines, name, format, keep_last, cut_long, shown)
    read = CorpusRead([], [])
    for found in found_all:
        (read.items if isinstance(found, CorpusItem) else read.set_aside).append(found)
    return read


class LinesLook:
    """Looks over a file of JSON Lines a line at a time: are its lines records (or the lines
    ``import --all`` prints), a few perhaps unreadable (each then set aside as one conversation,
    and the others used), or is it something else, to be read whole (a JSON document over many
    lines, one conversation's messages)?

    Unreadable lines are allowed when the first line is a record, or when the records outnumber
    them: a JSON document over many lines (``[``, ``{"messages": ...},``, ...) has at most one
    line that reads as a record, so it is never taken for records with lines set aside.
    """

    def __init__(self, format: str | None):
        self.format = format
        self.records = self.imported = True
        self.good = 0
        self.broken: list[int] = []  # the numbers of the lines that are not JSON
        self.first_good = False
        self.probes = False

    @property
    def count(self) -> int:
        """The lines looked at (conversations, when they are records)."""
        return self.good + len(self.broken)

    def add(self, number: int, text: str) -> Any:
        """Look at the line ``number``: its value (a :class:`Broken` when it is not JSON), or
        :data:`WHOLE` when the file is not lines of records (stop looking: read it whole)."""
        try:
            value = parse_json(text)
        except UnreadableJSON as error:
            self.broken.append(number)
            if len(self.broken) > self.good + 1:
                return WHOLE
            return Broken(_line_problem(error.problems[0], number))
        self.records = self.records and is_record(value)
        self.imported = self.imported and is_imported(value)
        if not (self.records or self.imported):
            return WHOLE
        self.probes = self.probes or (self.records and "probes" in value)
        self.first_good = self.first_good or self.count == 0
        self.good += 1
        return value

    def kind(self) -> str | None:
        """:data:`RECORDS` or :data:`IMPORTED` when the lines looked at are that; else None."""
        if self.good == 0 or (self.count == 1 and self.format is None):
            return None  # one line is one JSON document
        if self.broken and not (self.first_good or self.good > len(self.broken)):
            return None
        return RECORDS if self.records else IMPORTED


#: :meth:`LinesLook.add`'s answer for a file to read whole.
WHOLE = object()


@dataclass(frozen=True)
class Broken:
    """A line of JSON Lines of records that is not JSON: what is wrong, at its line."""

    problem: Problem


def line_problem(number: int, text: str) -> Problem:
    """What is wrong with the line ``number`` (``text``), which is not JSON."""
    try:
        parse_json(text)
    except UnreadableJSON as error:
        return _line_problem(error.problems[0], number)
    return Problem("this line is not JSON", line=number, column=1)  # pragma: no cover


def _line_problem(first: Problem, number: int) -> Problem:
    """As :func:`~compactor.formats.read_lines` says it: the line of the file, its column."""
    message = f"{first.path}: {first.message}" if first.path else first.message
    return Problem(message, line=number, column=first.column or 1)


def _records_despite(source: str | bytes, format: str | None) -> list[tuple[int, Any]] | None:
    """``(line number, value)`` of each line of a text that is not JSON, when it is JSON Lines
    of records some of whose lines are not JSON (their value a :class:`Broken`); else None."""
    if format not in LINE_RECORDS_FORMATS:
        return None
    data = source.encode("utf-8", "surrogatepass") if isinstance(source, str) else source
    if b"\x00" in data[:4096]:
        return None
    look = LinesLook(format)
    lines = []
    try:
        for number, text in line_texts(io.BytesIO(data)):
            value = look.add(number, text)
            if value is WHOLE:
                return None
            lines.append((number, value))
    except UnicodeDecodeError:
        return None
    return lines if look.broken and look.kind() is not None else None


def _line_items(
    lines: list[tuple[int, Any]],
    name: str | None,
    format: str | None,
    keep_last: bool,
    cut_long: bool,
    shown: str | None,
) -> Iterator[Found]:
    for index, (number, value) in enumerate(lines):
        conversation = f"{name}#{index}" if name is not None else index
        if isinstance(value, Broken):
            yield _set_aside(conversation, shown, [value.problem])
        elif is_imported(value):
            yield imported_item(value, index)
        else:
            record = Record(f"line {number}", value)
            yield record_item(record, conversation, format, keep_last, cut_long, shown)


#: One conversation of a file as read: its item, or why it is set aside.
Found = CorpusItem | SetAside


def document_items(
    document: Document,
    name: str | None,
    format: str | None,
    keep_last: bool,
    cut_long: bool,
    shown: str | None = None,
) -> Iterator[Found]:
    """Each conversation of a read file, one at a time (the records converted as they are
    reached, each once: the file's records are found once, not per record)."""
    imported = imported_values(document)
    if imported is not None:
        for i, value in enumerate(imported):
            yield imported_item(value, i)
        return
    collection = document.collection
    if collection is None:
        yield _one(document, name if name is not None else 0, format, keep_last, cut_long, shown)
        return
    for i, record in enumerate(collection.records):
        conversation = f"{name}#{i}" if name is not None else i
        yield record_item(record, conversation, format, keep_last, cut_long, shown)


def record_item(
    record: Record,
    conversation: ConversationName,
    format: str | None,
    keep_last: bool,
    cut_long: bool,
    shown: str | None = None,
) -> Found:
    """A collection record as a corpus conversation, or the problems that make it unusable."""
    try:
        conversion = convert_record(record, format)
    except FormatError as error:
        return _set_aside(conversation, shown, error.problems)
    found = _usable(conversion, conversation, keep_last, cut_long, shown)
    if isinstance(found, CorpusItem) and record.id is not None:
        found = replace(found, record_id=record.id)
    if not isinstance(found, CorpusItem) or "probes" not in record.value:
        return found
    try:
        probes = _probes(record, found.request)
    except InvalidProbes as error:
        return _set_aside(conversation, shown, error.problems)
    return replace(found, probes=probes)


def imported_item(value: dict[str, Any], index: int) -> Found:
    """A line ``import --all`` printed, as a corpus conversation named by its ``record``."""
    record = value.get("record", index)
    invalid = errors_of(value["request"], limits=AUTO_LIMITS)
    if invalid:
        return SetAside(record, tuple(invalid), label=f"record {record}")
    given = value.get("id")
    given = given if isinstance(given, str | int) and not isinstance(given, bool) else None
    return CorpusItem(record, value["request"], record_id=given)


def is_imported(value: Any) -> bool:
    """Whether a value is a line ``import --all`` prints (``{"record", "id", "request"}``)."""
    return (
        isinstance(value, dict)
        and set(value) <= IMPORTED_KEYS
        and isinstance(value.get("request"), dict)
    )


def _one(
    document: Document,
    conversation: ConversationName,
    format: str | None,
    keep_last: bool,
    cut_long: bool,
    shown: str | None,
) -> Found:
    """A file of one conversation."""
    try:
        conversion = convert_document(document, format, None)
    except FormatError as error:
        return _set_aside(conversation, shown, error.problems)
    return _usable(conversion, conversation, keep_last, cut_long, shown)


def _usable(
    conversion: Conversion,
    conversation: ConversationName,
    keep_last: bool,
    cut_long: bool,
    shown: str | None,
) -> Found:
    """The conversion with the chosen fixes, as an item; or what makes it invalid. A whole
    session over the contract's limits is an item as it is (evaluated in the agent mode); the
    fixes are options."""
    if keep_last or cut_long:
        conversion = apply_fixes(conversion, keep_last=keep_last, cut_long=cut_long)
    invalid = errors_of(conversion.request, limits=AUTO_LIMITS)
    if invalid:
        return _set_aside(conversation, shown, invalid)
    return CorpusItem(
        conversation,
        conversion.request,
        conversion.tool_links,
        compactions=conversion.compactions,
    )


def _set_aside(
    conversation: ConversationName,
    shown: str | None,
    problems: Iterable[Problem],
    fixes: Iterable[str] = (),
) -> SetAside:
    label = _record_label(conversation, shown)
    return SetAside(conversation, tuple(problems), tuple(fixes), label)


def _probes(record: Record, request: dict[str, Any]) -> tuple[Probe, ...]:
    """The record's ``probes``, resolved against its request's messages; raises
    :class:`InvalidProbes` with each problem placed in the file (``[3].probes[0]...``)."""
    try:
        messages = validate(request, limits=AUTO_LIMITS).messages
        return parse_probes({"probes": record.value["probes"]}, messages)
    except InvalidProbes as error:
        placed = [
            place_in_record(record.source, replace(p, path=(p.path or "$").removeprefix("$.")))
            for p in error.problems
        ]
        raise InvalidProbes(placed) from None


def imported_values(document: Document) -> list[Any] | None:
    """The values of a file of ``import --all`` output lines (or a JSON list of them); else
    None."""
    if document.lines is not None:
        values = [value for _, value in document.lines]
    elif isinstance(document.data, list) and document.data:
        values = document.data
    else:
        return None
    return values if all(is_imported(v) for v in values) else None


def _record_label(record: ConversationName, shown: str | None) -> str:
    if isinstance(record, int) and shown:
        return f"{shown}, record {record}"
    return f"record {record}"


def _in(problem: Problem, where: str | None) -> Problem:
    """The problem with its file or record named after the message (its location kept)."""
    if where is None:
        return problem
    return Problem(f"{problem.message} ({where})", problem.path, problem.line, problem.column)
