"""Files that hold many conversations: a JSON list of records, or JSONL with one a line.

A record is a ShareGPT record (``conversations``), an evaluation record holding a conversation
under ``messages``, ``conversations`` or ``traj`` (tau-bench's recorded trajectories: ``traj``
is a list of OpenAI Chat Completions messages), or, in JSONL, any one conversation a line.
Records are numbered from 0 in file order (``../shared/SPEC.md`` part C). Each record is read
by its own format (:func:`compactor.formats._registry.convert_record`); here is what places its
changes and problems in the file.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from compactor.errors import FormatError, Problem
from compactor.formats._builder import at
from compactor.formats._types import Change, Conversion
from compactor.wording import plural

#: Where a record keeps its conversation, in the order they are looked for.
HOLDERS = ("conversations", "messages", "traj")
#: A record's identifier, the first of these it has (a string or a whole number).
ID_FIELDS = ("id", "conversation_id", "session_id", "task_id", "sample_id")
#: Fields that make an object a message, not a record holding a conversation.
MESSAGE_SIGNS = ("role", "from", "payload", "message")


@dataclass(frozen=True)
class Record:
    source: str  # where it is: "[3]" in a JSON list, "line 4" in JSONL
    value: dict[str, Any]

    @property
    def id(self) -> str | int | None:
        for name in ID_FIELDS:
            value = self.value.get(name)
            if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
                return value
        return None

    @property
    def holder(self) -> str:
        return next(name for name in HOLDERS if isinstance(self.value.get(name), list))

    @property
    def conversation(self) -> Any:
        """What its format reads: tau-bench's ``traj`` list, or the record itself."""
        return self.value["traj"] if self.holder == "traj" else self.value

    def placed_error(self, error: FormatError) -> FormatError:
        """The problems of reading the record, placed in the file (``[3].traj[5].role``)."""
        return FormatError([_under(self._base, p) for p in error.problems])

    def placed(self, conversion: Conversion) -> Conversion:
        """The record's conversion with its changes and sources placed in the file, and the
        fields beside tau-bench's ``traj`` reported."""
        base = self._base
        changes = tuple(_placed(base, c) for c in conversion.changes)
        sources = tuple(_join(base, source) for source in conversion.sources)
        others = [name for name in self.value if name != "traj"] if self.holder == "traj" else []
        if others:
            changes += (
                Change(
                    "field-ignored",
                    f"{self.source}: the record's other fields ({', '.join(others)}) have no "
                    "place in a request and were left out",
                    None,
                    self.source,
                ),
            )
        return replace(conversion, changes=changes, sources=sources)

    @property
    def _base(self) -> str:
        return at(self.source, "traj") if self.holder == "traj" else self.source


@dataclass(frozen=True)
class Collection:
    """The records of a file that holds many conversations."""

    records: tuple[Record, ...]

    def __len__(self) -> int:
        return len(self.records)

    @property
    def description(self) -> str:
        holders = sorted({r.holder for r in self.records})
        return (
            f"{plural(len(self), 'conversation')} (records 0 to {len(self) - 1}, each holding "
            f"{' or '.join(holders)})"
        )

    def record(self, index: int) -> Record:
        """Record ``index`` (0-based); a problem saying how many there are when there is none."""
        if not 0 <= index < len(self):
            raise FormatError(
                [Problem(f"there is no record {index}: the file holds {self.description}")]
            )
        return self.records[index]


class ManyConversations(FormatError):
    """The file holds many conversations; ``collection`` has them, to convert one by one."""

    def __init__(self, collection: Collection):
        self.collection = collection
        super().__init__([Problem(f"the file holds {collection.description}")])


def is_record(value: Any) -> bool:
    """An object that holds a conversation rather than being a message."""
    return (
        isinstance(value, dict)
        and any(isinstance(value.get(name), list) for name in HOLDERS)
        and not any(name in value for name in MESSAGE_SIGNS)
    )


def collection_of(data: Any, lines: list[tuple[str, Any]] | None = None) -> Collection | None:
    """The records of a JSON list or of JSONL lines, when that is what they are; else None.

    A JSON list is a collection when every item is a record; a request or a ShareGPT record on
    its own is one conversation. JSONL is a collection when every line is a record.
    """
    if lines is not None:
        items = [(source, value) for source, value in lines]
    elif isinstance(data, list) and data:
        items = [(f"[{i}]", value) for i, value in enumerate(data)]
    else:
        return None
    if not all(is_record(value) for _, value in items):
        return None
    return Collection(tuple(Record(source, value) for source, value in items))


def _join(base: str, source: str) -> str:
    """A place inside a record, placed in the file: ``[3]`` + ``messages[4]``."""
    if source in ("", "$"):
        return base
    if base.startswith("line "):
        return at(base, source) if not source.startswith("[") else f"{base}, {source}"
    return base + source if source.startswith("[") else f"{base}.{source}"


def _placed(base: str, change: Change) -> Change:
    if change.source is None:
        return change
    source = _join(base, change.source)
    message = change.message
    if message.startswith(change.source + ":"):
        message = source + message[len(change.source) :]
    return replace(change, source=source, message=message)


def place_in_record(source: str, problem: Problem) -> Problem:
    """A problem whose path is inside the record at ``source`` (``probes[0]``), placed in the
    file: ``[3].probes[0]``, or the record's JSONL line."""
    return _under(source, problem)


def _under(base: str, problem: Problem) -> Problem:
    """A record's problem, placed in the file: ``[3].traj[5].role``, or its JSONL line."""
    if base.startswith("line "):
        number = int(base.split()[1].rstrip(","))
        where = problem.path if problem.path not in (None, "$") else ""
        tail = base.partition(", ")[2]  # "traj" of "line 3, traj"
        where = (tail + (where if where.startswith("[") else f".{where}" if where else "")) or where
        message = f"{where}: {problem.message}" if where else problem.message
        return Problem(message, line=number, column=1)
    if problem.line is not None:
        return problem
    path = problem.path
    if path in (None, "$", ""):
        return Problem(problem.message, path=base)
    return Problem(problem.message, path=base + path if path.startswith("[") else f"{base}.{path}")
