"""Getting a conversation in: pasted or uploaded text (through compactor.formats), edits, and the
tables that report an import.

Reading never raises at a page: every outcome is a value (a conversion to show and load, or the
problems with their line and column or JSON path), so nothing the user typed is lost on an error.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from compactor import InvalidRequest, validate
from compactor.contract import AUTO_LIMITS, LIMITS
from compactor.errors import FormatError, Problem, UnreadableJSON
from compactor.formats import (
    FORMATS,
    Collection,
    Conversion,
    ManyConversations,
    Window,
    apply_fixes,
    convert_record,
    convert_text,
    spans_text,
)
from explorer.session.conversation import Conversation, message_name, params_from, safe_name

#: Columns of the message editor, in order.
EDITOR_COLUMNS = ("position", "role", "content", "id", "pin")
#: The formats a user can pick instead of detection (name -> its line in the registry): every
#: format the import reads.
FORMAT_CHOICES: Mapping[str, str] = {name: entry.label for name, entry in FORMATS.items()}
#: Change kinds a user may fix (a window, a cut) before loading; without a fix the conversation
#: loads whole, in the agent mode (see compactor.formats).
FIX_KINDS = {"too-many-messages": "keep_last", "content-too-long": "cut_long"}
MAX_MESSAGES = LIMITS["max_messages"]
#: The fixes' checkbox labels, by option.
FIX_LABELS = {
    "keep_last": f"Keep at most {MAX_MESSAGES} messages (choose which below)",
    "cut_long": f"Cut every content to its first {LIMITS['max_content_chars']:,} characters",
}
#: The same fixes on the Corpus page, where no window is chosen: each conversation keeps its last
#: messages (issue 40: the label promised a choice "below" that the page never offers).
CORPUS_FIX_LABELS = {
    **FIX_LABELS,
    "keep_last": f"Keep the last {MAX_MESSAGES} messages of each conversation",
}


@dataclass(frozen=True)
class Attempt:
    """What reading some text gave: a conversion, or problems of one kind.

    ``kind`` is ``"syntax"`` (not JSON: line and column), ``"format"`` (JSON but not a
    conversation: JSON paths), ``"schema"`` (a request that breaks the schema: JSON paths),
    ``"collection"`` (a file of many conversations: ``collection`` has them, to pick one) or
    ``"fixes"`` (the fixes chosen are not enough: ``conversion`` is the read as it was, still
    waiting for fixes, and each problem says which fix the rest needs).
    """

    conversion: Conversion | None = None
    problems: tuple[Problem, ...] = ()
    kind: str = ""
    collection: Collection | None = None
    format: str | None = None  # the format the user chose (None: detected)

    @property
    def ok(self) -> bool:
        return self.conversion is not None and not self.problems

    @property
    def over_limits(self) -> bool:
        """A read over the contract's limits: it loads whole (the agent mode), or with a window
        or a cut the user chooses."""
        return (
            self.conversion is not None
            and self.kind in ("", "fixes")
            and self.conversion.needs_fixes
        )


def read(source: str | bytes, format: str | None = None) -> Attempt:
    """Convert pasted or uploaded text; the format is detected unless given."""
    try:
        return Attempt(convert_text(source, format), format=format)
    except UnreadableJSON as error:
        return Attempt(problems=tuple(error.problems), kind="syntax")
    except ManyConversations as error:
        problems = tuple(error.problems)
        return Attempt(
            problems=problems, kind="collection", collection=error.collection, format=format
        )
    except FormatError as error:
        return Attempt(problems=tuple(error.problems), kind="format")


def read_record(attempt: Attempt, record: int) -> Attempt:
    """Record ``record`` of a file of many conversations (an attempt of kind ``collection``)."""
    assert attempt.collection is not None
    try:
        conversion = convert_record(attempt.collection.record(record), attempt.format)
    except FormatError as error:
        return Attempt(problems=tuple(error.problems), kind="format")
    return Attempt(conversion, format=attempt.format)


def record_options(collection: Collection) -> dict[int, str]:
    """Picker labels for a collection's records: ``record 3 · id 41`` (no content)."""
    out = {}
    for i, record in enumerate(collection.records):
        shown = safe_name(str(record.id)) if record.id is not None else None
        out[i] = f"record {i}" + (f" · id {shown}" if shown else "")
    return out


#: The largest file or paste the explorer reads (bytes): a larger one is refused before it is read
#: whole (its size and this limit said). A session of this size takes several times as much memory
#: once read (its text, the request, the analysis); Streamlit's upload limit is the same
#: (``server.maxUploadSize`` in .streamlit/config.toml).
MAX_INPUT_BYTES = 64 * 1024 * 1024


def too_large(size: int, what: str = "This file") -> Problem | None:
    """Why an input of ``size`` bytes is refused unread (None when it may be read)."""
    if size <= MAX_INPUT_BYTES:
        return None
    return Problem(
        f"{what} is {size:,} bytes ({size / 2**20:,.1f} MB), over the explorer's limit of "
        f"{MAX_INPUT_BYTES:,} bytes ({MAX_INPUT_BYTES // 2**20} MB); it was not read. Window it "
        "first (python -m compactor import --keep-last ... or --first/--last), or use the "
        "command line, which reads files of any size."
    )


def schema_problems(request: Mapping[str, Any]) -> tuple[Problem, ...]:
    """Every schema violation of ``request`` as the engine reports it (empty when valid), in
    the ``auto`` mode: a whole session over the contract's limits is checked in the agent mode
    (any number of messages, contents of any length, budgets up to 2,000,000)."""
    try:
        validate(request, limits=AUTO_LIMITS)
    except InvalidRequest as error:
        return error.problems
    return ()


def finish(
    conversion: Conversion,
    *,
    keep_last: bool = False,
    cut_long: bool = False,
    window: Window | None = None,
    fallback: Mapping[str, Any],
    label: str,
    source: str,
    file_name: str | None = None,
    record: int | None = None,
) -> tuple[Conversation | None, Attempt]:
    """Apply the fixes the user chose, if any, and validate; a conversation, or why there is none.

    With no fix chosen a conversation over the contract's limits loads whole (validated in the
    ``auto`` mode: the agent mode for it). A window that cannot make a request gives an attempt
    of kind ``fixes`` holding the read as it was, so the choice stays open.
    """
    read = conversion
    if conversion.needs_fixes and (keep_last or cut_long or window is not None):
        try:
            conversion = apply_fixes(
                conversion, keep_last=keep_last, cut_long=cut_long, window=window
            )
        except FormatError as error:
            return None, Attempt(read, error.problems, "fixes")
    problems = schema_problems(conversion.request)
    if problems:
        return None, Attempt(conversion, problems, "schema")
    request = conversion.request
    conv = Conversation(
        messages=tuple(request["messages"]),
        params=params_from(request, fallback),
        label=label,
        source=source,
        format=conversion.format,
        tool_links=tuple(conversion.tool_links),
        file_name=safe_name(file_name),
        record=record,
        sources=tuple(conversion.sources),
        removed_results=tuple(conversion.removed_results),
        compactions=tuple(conversion.compactions),
        window_orphans=tuple(conversion.window_orphans),
    )
    return conv, Attempt(conversion)


def window_preview(conversion: Conversion, window: Window) -> str:
    """What a window keeps and leaves out, before it is applied (or why it cannot be)."""
    messages = conversion.request["messages"]
    problems = window.problems(len(messages))
    if problems:
        return problems[0].message[:1].upper() + problems[0].message[1:] + "."
    kept = window.kept(len(messages))
    kept_set = set(kept)
    left = [i for i in range(len(messages)) if i not in kept_set]
    text = f"Keeps {spans_text(kept)} ({len(kept):,} messages)"
    if not left:
        return text + "."
    chars = sum(len(messages[i]["content"]) for i in left)
    return f"{text}; leaves out {spans_text(left)}: {len(left):,} messages, {chars:,} characters."


def pending_fixes(conversion: Conversion) -> dict[str, list[str]]:
    """The lossy fixes a conversion still needs: option name -> what each would do."""
    out: dict[str, list[str]] = {}
    for change in conversion.changes:
        option = FIX_KINDS.get(change.kind)
        if option:
            out.setdefault(option, []).append(change.message)
    return out


def first_lines(lines: list[str], limit: int = 20) -> str:
    """At most ``limit`` lines, then how many more there are."""
    text = "\n".join(lines[:limit])
    return text + (f"\n... and {len(lines) - limit:,} more" if len(lines) > limit else "")


#: Characters of a problem text on one line of the problem table (at the page's width, about).
PROBLEM_LINE_CHARS = 95


def problem_row_height(problems: Iterable[Problem], line_chars: int = PROBLEM_LINE_CHARS) -> int:
    """Pixels of a problem table's rows: tall enough for the longest problem to wrap whole."""
    longest = max((len(p.message) for p in problems), default=0)
    lines = min(12, max(1, -(-longest // line_chars)))
    return 35 if lines == 1 else 21 * lines + 14


def problem_rows(problems: Iterable[Problem]) -> pd.DataFrame:
    """Problems as a table: where (line and column, or JSON path) and what is wrong."""
    rows = []
    for p in problems:
        where = f"line {p.line}, column {p.column}" if p.line is not None else p.path or "$"
        rows.append({"where": where, "problem": p.message})
    return pd.DataFrame(rows, columns=["where", "problem"])


def change_rows(changes: Iterable[Any]) -> pd.DataFrame:
    """An import's changes as a table, lossy ones flagged: the message as ``#N`` (the request's
    numbering, #0 first), ``where`` the place in the file it came from."""
    rows = [
        {
            "lossy": bool(c.lossy),
            "kind": c.kind,
            "message": "" if c.index is None else message_name(c.index),
            "where": c.source or "",
            "what changed": c.message,
        }
        for c in changes
    ]
    return pd.DataFrame(rows, columns=["lossy", "kind", "message", "where", "what changed"])


def removed_result_lines(conv: Conversation) -> list[str]:
    """The calls the import left without their (empty) results, for the pairing check."""
    return [
        f"{message_name(index)}: the call {call} is kept, its empty result was removed"
        for index, call in conv.removed_results
    ]


# --- the message editor --------------------------------------------------------------------


def editor_frame(messages: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """The messages as editor rows; ``position`` orders them (edit it to move a message), and
    is the message's number (#0 first) as everywhere else."""
    rows = [
        {
            "position": float(i),
            "role": m["role"],
            "content": m["content"],
            "id": m.get("id"),
            "pin": bool(m.get("pin", False)),
        }
        for i, m in enumerate(messages)
    ]
    frame = pd.DataFrame(rows, columns=list(EDITOR_COLUMNS))
    return frame.astype({"position": "float64", "role": "object", "id": "object", "pin": "boolean"})


def _missing(value: Any) -> bool:
    if value is None or value is pd.NA:
        return True
    return isinstance(value, float) and math.isnan(value)


def rows_to_messages(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """The messages an edited table holds, in ``position`` order.

    Rows without a position keep their place after the numbered ones (new rows go last); a
    row left entirely empty is ignored; an empty ``id`` means no id; ``pin`` is kept only when
    true. A missing role or content is left out so validation names it (``messages[3].role``).
    """
    keyed = []
    for order, (_, row) in enumerate(frame.iterrows()):
        values = {name: row.get(name) for name in EDITOR_COLUMNS}
        text_fields = [values["role"], values["content"], values["id"]]
        if all(_missing(v) or v == "" for v in text_fields) and not _truthy(values["pin"]):
            continue
        position = values["position"]
        rank = (1, 0.0) if _missing(position) else (0, float(position))
        keyed.append((rank, order, values))
    keyed.sort(key=lambda item: (item[0], item[1]))
    messages = []
    for _, _, values in keyed:
        message: dict[str, Any] = {}
        if not _missing(values["role"]):
            message["role"] = str(values["role"])
        if not _missing(values["content"]):
            message["content"] = str(values["content"])
        if not _missing(values["id"]) and str(values["id"]) != "":
            message["id"] = str(values["id"])
        if _truthy(values["pin"]):
            message["pin"] = True
        messages.append(message)
    return messages


def _truthy(value: Any) -> bool:
    return not _missing(value) and bool(value)
