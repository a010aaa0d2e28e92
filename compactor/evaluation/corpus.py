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

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from compactor.analyses.outcomes import InvalidProbes, Probe, parse_probes
from compactor.contract import LIMITS
from compactor.errors import FormatError, Problem, UnreadableJSON
from compactor.formats import Conversion, Record, apply_fixes, convert_document, read_document
from compactor.formats.collections import convert_record, place_in_record
from compactor.formats.folders import Files, files_of
from compactor.formats.reading import Document
from compactor.formats.types import PENDING
from compactor.input.validation import errors_of, validate

#: ``record`` and ``request``: the lines ``import --all`` prints.
IMPORTED_KEYS = frozenset({"record", "id", "request"})

#: A conversation's name in a corpus: its record number, ``"PATH"`` or ``"PATH#i"``.
ConversationName = int | str


@dataclass(frozen=True)
class CorpusItem:
    """One conversation of a corpus: its name (``record``) and its request.

    ``tool_links`` are the (call, result) message index pairs the import linked by tool-call id
    (:attr:`compactor.formats.Conversion.tool_links`); tool pairs not linked are paired by
    position, as :func:`compactor.analyses.pairing.tool_pairs` does. ``probes`` are the
    record's labelled evidence, refs resolved to message indices (none when it has none).
    """

    conversation: ConversationName
    request: dict[str, Any]
    tool_links: tuple[tuple[int, int], ...] = field(default=(), compare=True)
    probes: tuple[Probe, ...] = ()


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


def corpus_files(path: str | Path) -> Files:
    """The files of a corpus (:func:`~compactor.formats.folders.files_of`); raises
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
    label = name if name is not None else shown
    try:
        document = read_document(source, format)
    except UnreadableJSON as error:
        raise ProblemsIn([_in(p, label) for p in error.problems], True) from None
    items, problems = [], []
    for found in document_items(document, name, format, keep_last, cut_long, shown):
        if isinstance(found, CorpusItem):
            items.append(found)
        else:
            problems += found
    if problems:
        raise ProblemsIn(problems, False)
    return items


#: One conversation of a file as read: its item, or the problems that make it unusable.
Found = CorpusItem | list[Problem]


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
        return [_in(p, _record_label(conversation, shown)) for p in error.problems]
    found = _usable(conversion, conversation, keep_last, cut_long, shown)
    if not isinstance(found, CorpusItem) or "probes" not in record.value:
        return found
    try:
        probes = _probes(record, found.request)
    except InvalidProbes as error:
        return [_in(p, _record_label(conversation, shown)) for p in error.problems]
    return replace(found, probes=probes)


def imported_item(value: dict[str, Any], index: int) -> Found:
    """A line ``import --all`` printed, as a corpus conversation named by its ``record``."""
    record = value.get("record", index)
    invalid = errors_of(value["request"])
    if invalid:
        return [_in(p, f"record {record}") for p in invalid]
    return CorpusItem(record, value["request"])


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
        return [_in(p, _record_label(conversation, shown)) for p in error.problems]
    return _usable(conversion, conversation, keep_last, cut_long, shown)


def _usable(
    conversion: Conversion,
    conversation: ConversationName,
    keep_last: bool,
    cut_long: bool,
    shown: str | None,
) -> Found:
    """The conversion with the chosen fixes, as an item; or what still makes it invalid."""
    if keep_last or cut_long:
        conversion = apply_fixes(conversion, keep_last=keep_last, cut_long=cut_long)
    pending = _pending(conversion)
    if pending:
        return [Problem(f"{pending} ({_record_label(conversation, shown)})")]
    invalid = errors_of(conversion.request)
    if invalid:
        return [_in(p, _record_label(conversation, shown)) for p in invalid]
    return CorpusItem(conversation, conversion.request, conversion.tool_links)


def _probes(record: Record, request: dict[str, Any]) -> tuple[Probe, ...]:
    """The record's ``probes``, resolved against its request's messages; raises
    :class:`InvalidProbes` with each problem placed in the file (``[3].probes[0]...``)."""
    try:
        return parse_probes({"probes": record.value["probes"]}, validate(request).messages)
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


def _pending(conversion: Conversion) -> str:
    """What still makes the conversation invalid, and the option that fixes it; empty if none."""
    kinds = [c.kind for c in conversion.changes if c.kind in PENDING]
    needs = []
    if "too-many-messages" in kinds:
        count = len(conversion.request["messages"])
        needs.append(
            f"{count:,} messages are more than {LIMITS['max_messages']} (keep_last, --keep-last, "
            "keeps the last)"
        )
    long = kinds.count("content-too-long")
    if long:
        needs.append(
            f"{long:,} content{'s' * (long != 1)} over {LIMITS['max_content_chars']:,} characters "
            "(cut_long, --cut-long, cuts them)"
        )
    return "not usable as a request: " + "; ".join(needs) if needs else ""


def _record_label(record: ConversationName, shown: str | None) -> str:
    if isinstance(record, int) and shown:
        return f"{shown}, record {record}"
    return f"record {record}"


def _in(problem: Problem, where: str | None) -> Problem:
    """The problem with its file or record named after the message (its location kept)."""
    if where is None:
        return problem
    return Problem(f"{problem.message} ({where})", problem.path, problem.line, problem.column)
