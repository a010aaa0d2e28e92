"""The builder every adapter uses: drafts of messages, changes and problems, then one check."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from compactor.contract import LIMITS, PARAMETERS, RANGES
from compactor.errors import FormatError, Problem, UnreadableJSON, capped, format_path, quoted
from compactor.formats._compactions import Recorder
from compactor.formats._fixes import apply_fixes, limit_changes
from compactor.formats._types import Change, Conversion
from compactor.input import Report, errors_of, json_value_problems
from compactor.text import call_line
from compactor.wording import plural

MAX_ID = LIMITS["max_id_chars"]


def at(base: str, *parts: str | int) -> str:
    """A location inside a message: ``at("messages[4]", "content", 1)`` -> messages[4].content[1].

    JSONL messages are named by line: ``at("line 7", "content", 1)`` -> ``line 7, content[1]``.
    """
    if not parts:
        return base
    tail = format_path(parts)
    if base.startswith("line ") and "," not in base:
        return f"{base}, {tail.lstrip('.')}"
    if base.startswith("line "):  # already inside the line's value: "line 7, message"
        return base + tail if tail.startswith("[") else f"{base}.{tail}"
    if not base or base == "$":
        return tail
    return base + tail if tail.startswith("[") else f"{base}.{tail}"


def json_text(value: Any, where: str = "$") -> str:
    """A JSON value as one line of text, Unicode kept: the stable rendering of arguments.

    A Python value JSON cannot hold (NaN or an infinity, a key that is not a text, an integer
    of more digits than Python writes, nesting over :data:`~compactor.errors.MAX_DEPTH` levels,
    a set or bytes) is a :class:`FormatError` naming each place, under ``where``:

    >>> json_text({"city": "Porto", "n": 2})
    '{"city": "Porto", "n": 2}'
    >>> json_text({"x": [float("nan")]}, "[1].input")
    Traceback (most recent call last):
    compactor.errors.FormatError: [1].input.x[0]: must be a finite number
    """
    try:  # the common case at the encoder's speed; the check below only when it fails
        return _ENCODER.encode(value)
    except (ValueError, TypeError, RecursionError):
        pass
    report = Report()
    json_value_problems(value, report)
    problems = [Problem(message, path=at(where, *parts)) for parts, message in report.found]
    raise FormatError(capped(problems or [Problem("is not a JSON value", path=where)], report.more))


def json_of(text: str) -> Any:
    """The JSON value ``text`` holds, strictly: NaN and the infinities are not JSON, and an
    integer Python cannot write back or nesting Python cannot parse is refused too; raises
    :class:`UnreadableJSON` when ``text`` is not such JSON.

    >>> json_of('{"x": [1, 2.5]}')
    {'x': [1, 2.5]}
    >>> json_of('{"x": NaN}')
    Traceback (most recent call last):
    compactor.errors.UnreadableJSON: NaN is not JSON
    """
    try:
        return _DECODER.decode(text)
    except UnreadableJSON:
        raise
    except (ValueError, RecursionError):  # syntax, an integer too long, nesting too deep
        raise UnreadableJSON([Problem("is not JSON")]) from None


def _not_json(name: str) -> Any:
    raise UnreadableJSON([Problem(f"{name} is not JSON")])


# Made once: json.dumps and json.loads make a new one per call when given an option.
_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False)
_DECODER = json.JSONDecoder(parse_constant=_not_json)


def type_of(part: Any) -> str | None:
    """A part's or block's ``type`` when it is a string (input can put anything there)."""
    kind = part.get("type") if isinstance(part, dict) else None
    return kind if isinstance(kind, str) else None


def describe(value: Any) -> str:
    """The JSON type of ``value`` with its article, for error messages."""
    names = {bool: "a boolean", int: "a number", float: "a number", str: "a string"}
    names |= {list: "a list", dict: "an object", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def tool_call_text(name: str, arguments: Any, call_id: str | None = None, where: str = "$") -> str:
    """``[tool call get_weather id=call_1] {"city": "Porto"}``: a tool call as readable text.

    Arguments given as a JSON string are parsed and written again on one line, so every format
    renders the same call identically; a string that is not JSON (NaN is not) is kept as it is.
    Arguments given as Python values must be JSON values: else a :class:`FormatError` names
    each place under ``where`` (the arguments' own path), as :func:`json_text` says.
    """
    if isinstance(arguments, str):
        try:
            arguments = json_of(arguments) if arguments.strip() else None
        except UnreadableJSON:
            return call_line(name, call_id, arguments)
    return call_line(name, call_id, None if arguments is None else json_text(arguments, where))


def result_text(value: Any, where: str = "$") -> str:
    """A tool's output as message text: a string as it is, anything else as one line of JSON
    (a Python value that is not JSON: a FormatError under ``where``, as :func:`json_text`)."""
    if value is None:
        return ""
    return value if isinstance(value, str) else json_text(value, where)


@dataclass
class Draft:
    """A message being built; ``pieces`` are text and rendered tool calls, in order."""

    role: str
    source: str
    pieces: list[tuple[str, str]] = field(default_factory=list)  # ("text" | "call", text)
    id: str | None = None
    pin: bool = False
    calls: list[str] = field(default_factory=list)  # ids of the tool calls it makes
    answers: str | None = None  # id of the tool call whose result it is
    seq: int = 0  # when it was made, to report changes in input order

    def text(self, text: str) -> None:
        if text:
            self.pieces.append(("text", text))

    def call(self, text: str, call_id: str | None) -> None:
        self.pieces.append(("call", text))
        if call_id:
            self.calls.append(call_id)

    @property
    def content(self) -> str:
        """Text pieces are separated by a blank line; consecutive tool calls by a line break."""
        out = ""
        for i, (kind, text) in enumerate(self.pieces):
            if i:
                out += "\n" if kind == "call" and self.pieces[i - 1][0] == "call" else "\n\n"
            out += text
        return out


@dataclass
class _Note:
    kind: str
    message: str
    source: str | None
    lossy: bool
    draft: Draft | None
    seq: int


class Builder:
    """Collects the drafts, changes and problems of one conversion, then checks and finishes it."""

    def __init__(self, format: str):
        self.format = format
        self.drafts: list[Draft] = []
        self.problems: list[Problem] = []
        self._notes: list[_Note] = []
        self._ignored: dict[str, list[str]] = {}
        self._renamed: dict[tuple[str, str], list[str]] = {}
        self._ids_from: dict[str, int] = {}
        self._seq = 0
        #: The compactions the log recorded (an agent log's reader fills it).
        self.compactions = Recorder(format)

    def _next(self) -> int:
        self._seq += 1
        return self._seq

    # --- collecting ------------------------------------------------------------------------

    def draft(self, role: str, source: str, **fields: Any) -> Draft:
        draft = Draft(role, source, **fields, seq=self._next())
        self.drafts.append(draft)
        return draft

    def note(
        self,
        kind: str,
        message: str,
        source: str | None,
        draft: Draft | None = None,
        lossy: bool = False,
    ) -> None:
        self._notes.append(_Note(kind, message, source, lossy, draft, self._next()))

    def removed(self, what: str, source: str, draft: Draft | None, kind: str) -> None:
        """A part the request cannot hold (an image, audio, a file): a lossy change."""
        self.note(kind, f"{source}: {what} removed; a request holds text only", source, draft, True)

    def problem(self, message: str, source: str | None) -> None:
        self.problems.append(Problem(message, path=source or "$"))

    def ignore(self, name: str, source: str) -> None:
        """A field with no place in a request, reported once per name for the whole input."""
        self._ignored.setdefault(name, []).append(source)

    def renamed(self, original: str, role: str, source: str) -> None:
        """A role name of the format read as one of the request's roles (reported in total)."""
        self._renamed.setdefault((original, role), []).append(source)

    def id_from(self, name: str) -> None:
        """Count an original identifier (e.g. ``tool_call_id``) kept as a message's ``id``."""
        self._ids_from[name] = self._ids_from.get(name, 0) + 1

    def parameters(self, envelope: dict[str, Any], base: str, skip: tuple[str, ...]) -> dict:
        """The request parameters in ``envelope``; other fields (but ``skip``) are reported."""
        found = {}
        for name, value in envelope.items():
            if name in PARAMETERS:
                found[name] = value
            elif name not in skip:
                self.ignore(name, at(base, name))
        return found

    # --- finishing -------------------------------------------------------------------------

    def finish(self, params: dict[str, Any] | None = None) -> Conversion:
        """The conversion, or :class:`FormatError` with every problem found."""
        if self.problems:
            raise FormatError(capped([*self.problems, *_parameter_problems(params or {})]))
        index_of: dict[int, int] = {}
        messages: list[dict[str, Any]] = []
        changes: list[tuple[float, Change]] = []
        last_note = {id(n.draft): n.seq for n in self._notes}
        for draft in self.drafts:
            content = draft.content
            if not content:
                # after what was removed from it, which is why it is empty
                seq = max(draft.seq, last_note.get(id(draft), 0)) + 0.5
                changes.append((seq, _empty_change(draft)))
                continue
            index_of[id(draft)] = len(messages)
            message, change = _message(draft, content, len(messages))
            messages.append(message)
            if change is not None:
                changes.append((draft.seq, change))
        minimum = LIMITS["min_messages"]
        if len(messages) < minimum:
            found = plural(len(messages), "message")
            raise FormatError(
                [
                    Problem(
                        f"the conversation has {found} with text after conversion; a request "
                        f"needs at least {minimum}",
                        path="$",
                    )
                ]
            )
        changes += [
            (n.seq, Change(n.kind, n.message, index_of.get(id(n.draft)), n.source, n.lossy))
            for n in self._notes
        ]
        report = [change for _, change in sorted(changes, key=lambda pair: pair[0])]
        compactions, kept = self.compactions.place([id(d) in index_of for d in self.drafts])
        report += kept + self._totals()
        request: dict[str, Any] = {"messages": messages, **(params or {})}
        if "budget_chars" not in request:
            budget, change = _chosen_budget(messages)
            request["budget_chars"] = budget
            report.append(change)
        sources = tuple(d.source for d in self.drafts if id(d) in index_of)
        report += limit_changes(messages, list(sources))
        links, removed = _tool_links(self.drafts, index_of)
        conversion = Conversion(
            self.format,
            request,
            tuple(report),
            links,
            sources=sources,
            removed_results=removed,
            params_given=tuple(name for name in PARAMETERS if name in (params or {})),
            compactions=compactions,
        )
        errors = errors_of(apply_fixes(conversion).request)
        if errors:
            raise FormatError(errors)
        return conversion

    def _totals(self) -> list[Change]:
        """The changes reported once for the whole input: fields left out, roles read as."""
        out = []
        for (original, role), sources in self._renamed.items():
            out.append(
                Change(
                    "role-mapped",
                    f"{plural(len(sources), 'message')} with role {quoted(original)} read as "
                    f"{role} (first at {sources[0]})",
                    None,
                    sources[0],
                )
            )
        for name, count in self._ids_from.items():
            out.append(
                Change(
                    "id-kept",
                    f"{plural(count, 'message')}: the original {name} kept as the message id",
                )
            )
        for name, sources in self._ignored.items():
            first = sources[0]
            where = (
                f"at {first}" if len(sources) == 1 else f"{len(sources):,} places, first {first}"
            )
            out.append(
                Change(
                    "field-ignored",
                    f"field {quoted(name)} has no place in a request and was left out ({where})",
                    None,
                    first,
                )
            )
        return out


def _parameter_problems(params: dict[str, Any]) -> list[Problem]:
    """What is wrong with the parameters alone (so one report names every problem)."""
    stand_in = [{"role": "user", "content": "-"}] * LIMITS["min_messages"]
    return errors_of({"messages": stand_in, "budget_chars": 100, **params})


def _message(draft: Draft, content: str, index: int) -> tuple[dict[str, Any], Change | None]:
    """The request message of a draft, and the change when its id does not fit."""
    message: dict[str, Any] = {"role": draft.role, "content": content}
    change = None
    if draft.id is not None and len(draft.id) > MAX_ID:
        change = Change(
            "id-too-long",
            f"{draft.source}: the id has {len(draft.id):,} characters, more than the {MAX_ID} a "
            f"request allows, so it was left out: {draft.id[:40]}…",
            index,
            draft.source,
            True,
        )
    elif draft.id is not None:
        message["id"] = draft.id
    if draft.pin:
        message["pin"] = True
    return message, change


def _empty_change(draft: Draft) -> Change:
    """A message removed for having no text; lossy when it was a tool's (empty) result."""
    if draft.answers is not None:
        return Change(
            "empty-result-removed",
            f"{draft.source}: the result of tool call {draft.answers} is empty, so its tool "
            "message was removed (a request needs content in every message); the call is kept "
            "without its result",
            None,
            draft.source,
            True,
        )
    return Change(
        "empty-removed",
        f"{draft.source}: the {draft.role} message has no text, so it was removed "
        "(a request needs content in every message)",
        None,
        draft.source,
        draft.role == "tool",
    )


def _chosen_budget(messages: list[dict[str, Any]]) -> tuple[int, Change]:
    """Half the characters of the conversation (as it will be compacted), in whole hundreds."""
    low, high = RANGES["budget_chars"]
    kept = messages[-LIMITS["max_messages"] :]
    total = sum(min(len(m["content"]), LIMITS["max_content_chars"]) for m in kept)
    budget = int(min(high, max(low, total // 2 // 100 * 100)))
    change = Change(
        "budget-chosen",
        f"the input has no budget_chars, so it was set to {budget:,}: about half of the "
        f"conversation's {total:,} characters, so that compaction has work to do; change it "
        "before compacting",
    )
    return budget, change


def _tool_links(
    drafts: list[Draft], index_of: dict[int, int]
) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, str], ...]]:
    """Pairs (calling message, result message), matched by the call's id, the latest call first;
    and (calling message, call id) for each result the conversion removed (it was empty)."""
    caller: dict[str, int] = {}
    links = []
    removed = []
    for draft in drafts:
        index = index_of.get(id(draft))
        if index is None:
            if draft.answers is not None and draft.answers in caller:
                removed.append((caller[draft.answers], draft.answers))
            continue
        if draft.answers is not None and draft.answers in caller:
            links.append((caller[draft.answers], index))
        for call_id in draft.calls:
            caller[call_id] = index
    return tuple(links), tuple(removed)
