"""Question sets: a team's labelled evidence over a whole corpus (``../shared/SPEC.md`` part D,
"Probes", asked of many conversations).

A question set is one file: a JSON list of questions, ``{"questions": [...]}``, or JSON Lines
with one question a line. Each question names its conversation by ``record`` (its name in the
corpus, as the rows' ``conversation``: the record number ``i`` of a file, or ``"PATH"`` /
``"PATH#i"`` in a folder) and/or ``record_id`` (the record's own id: its ``id``,
``conversation_id``, ``session_id``, ``task_id`` or ``sample_id``, the ``id`` of an
``import --all`` line; the first conversation in corpus order with that id), and carries the
probe's fields: ``id`` (its 0-based position in the file when missing; unique in the set),
``evidence`` (message ids or 0-based indices of that conversation), ``answer``? and
``question``? (the labeller's words, shown beside a failure).

A question that cannot be used is set aside, never sinking the others: a line that is not JSON,
a field of the wrong type or unknown, an id given twice, a conversation the corpus does not
hold (or holds but set aside), an evidence ref that names no message of it. Each says where:
the line of a JSON Lines file (``line 4, column 1``, the field's path in the message), or the
JSON path of a document (``$[3].evidence[1]``, with the line and column where the question
starts). At most :data:`~compactor.errors.MAX_PROBLEMS` are listed; the rest are counted.

>>> found = read_questions_text('{"record": 0, "id": "q1", "evidence": [1]}\\n'
...     '{"record": 0, "evidence": [9]}', "set.jsonl")
>>> [q.id for q in found.questions]
['q1', '1']
>>> item = found.attach(CorpusItem(0, {"messages": [{"role": "user", "content": "a"},
...     {"role": "assistant", "content": "b"}], "budget_chars": 100}))
>>> [p.id for p in item.probes], [str(p) for a in found.finish() for p in a.problems]
(['q1'], ['line 2, column 1: $.evidence[0]: names no message: indices run from 0 to 1'])
"""

from __future__ import annotations

import bisect
import json
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from compactor.analyses.outcomes import PROBE_FIELDS, InvalidProbes, parse_probes
from compactor.contract import AUTO_LIMITS
from compactor.errors import (
    MAX_PROBLEMS,
    InvalidRequest,
    Problem,
    UnreadableJSON,
    format_path,
    quoted,
)
from compactor.evaluation._corpus import ConversationName, CorpusItem
from compactor.input import decode_text, parse_json, validate

#: The fields of a question: the probe's, and the conversation it is asked of.
QUESTION_FIELDS = PROBE_FIELDS | {"record", "record_id"}
_SHOWN = ", ".join(sorted(QUESTION_FIELDS))


@dataclass(frozen=True)
class Question:
    """One question of a set as read: the conversation it names, its probe's fields (``id``
    filled in), and where it is (``path``: ``$[3]`` in a JSON document, ``$`` on a line of
    JSON Lines; ``line`` and ``column`` where it starts)."""

    id: str
    record: ConversationName | None
    record_id: str | int | None
    fields: dict[str, Any]
    path: str
    line: int
    column: int
    lines: bool  # whether it is a line of JSON Lines

    def problem(self, message: str, *inside: str | int) -> Problem:
        """A problem of this question at the field ``inside`` (``"evidence", 1``)."""
        at = _join(self.path, inside)
        if self.lines:
            return Problem(f"{at}: {message}" if inside else message, line=self.line, column=1)
        return Problem(
            f"{message} (the question starting at line {self.line}, column {self.column})", at
        )


@dataclass(frozen=True)
class QuestionAside:
    """A question set aside: its id (None when it has none yet), the conversation it names
    (None when it names none), and what is wrong and where."""

    id: str | None
    record: Any
    problems: tuple[Problem, ...]


@dataclass
class QuestionSet:
    """A question set as read, and what became of its questions as a corpus is read.

    :meth:`attach` gives a conversation its questions (as probes, refs resolved); a question
    whose conversation is set aside is set aside with it (:meth:`conversation_set_aside`), and
    :meth:`finish` sets aside those whose conversation never came. ``set_aside`` lists the
    first :data:`~compactor.errors.MAX_PROBLEMS`; ``unusable`` counts them all.
    """

    name: str
    questions: list[Question]
    set_aside: list[QuestionAside] = field(default_factory=list)
    unusable: int = 0
    asked: int = 0  # questions attached to a conversation: the judge's count
    _by_record: dict[Any, list[Question]] = field(default_factory=dict, repr=False)
    _by_id: dict[Any, list[Question]] = field(default_factory=dict, repr=False)
    _done: set[str] = field(default_factory=set, repr=False)
    _seen: list[str] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        by_record: dict[Any, list[Question]] = defaultdict(list)
        by_id: dict[Any, list[Question]] = defaultdict(list)
        for q in self.questions:
            if q.record is not None:
                by_record[_key(q.record)].append(q)
            else:
                by_id[_key(q.record_id)].append(q)
        self._by_record, self._by_id = dict(by_record), dict(by_id)

    def aside(self, found: QuestionAside) -> None:
        self.unusable += 1
        if len(self.set_aside) < MAX_PROBLEMS:
            self.set_aside.append(found)

    def attach(self, item: CorpusItem) -> CorpusItem:
        """``item`` with the questions asked of it as its probes (its record's own probes are
        not read: the set is the judge); those that cannot be used are set aside."""
        if len(self._seen) < 3:
            self._seen.append(repr(item.conversation))
        asked = [
            q for q in self._by_record.get(_key(item.conversation), ()) if q.id not in self._done
        ]
        if item.record_id is not None:
            asked += [
                q for q in self._by_id.get(_key(item.record_id), ()) if q.id not in self._done
            ]
        if not asked:
            return replace(item, probes=())
        try:
            messages = validate(item.request, limits=AUTO_LIMITS).messages
        except InvalidRequest:
            messages = None
        probes = []
        for q in asked:
            self._done.add(q.id)
            if q.record is not None and q.record_id is not None and q.record_id != item.record_id:
                has = (
                    "has no id"
                    if item.record_id is None
                    else f"has the id {quoted(item.record_id)}"
                )
                why = f"record_id does not match: the conversation {item.conversation!r} {has}"
                self.aside(QuestionAside(q.id, q.record, (q.problem(why, "record_id"),)))
                continue
            if messages is None:
                why = f"its conversation {item.conversation!r} is not a valid request"
                self.aside(QuestionAside(q.id, item.conversation, (q.problem(why),)))
                continue
            try:
                (probe,) = parse_probes([q.fields], messages)
            except InvalidProbes as error:
                placed = tuple(_placed(q, p) for p in error.problems)
                self.aside(QuestionAside(q.id, item.conversation, placed))
                continue
            probes.append(probe)
        self.asked += len(probes)
        return replace(item, probes=tuple(probes))

    def conversation_set_aside(self, conversation: ConversationName) -> None:
        """The conversation ``conversation`` cannot be used: its questions are set aside."""
        for q in self._by_record.get(_key(conversation), ()):
            if q.id not in self._done:
                self._done.add(q.id)
                why = f"its conversation {conversation!r} is set aside (listed with the corpus's)"
                self.aside(QuestionAside(q.id, conversation, (q.problem(why, "record"),)))

    def finish(self) -> list[QuestionAside]:
        """Set aside each question whose conversation never came; the questions set aside."""
        like = f"; the corpus names them like {', '.join(self._seen)}" if self._seen else ""
        for q in self.questions:
            if q.id in self._done:
                continue
            self._done.add(q.id)
            if q.record is not None:
                why = f"names no conversation of the corpus: record {q.record!r}{like}"
                self.aside(QuestionAside(q.id, None, (q.problem(why, "record"),)))
            else:
                why = f"no conversation of the corpus has the id {quoted(q.record_id)}"
                self.aside(QuestionAside(q.id, None, (q.problem(why, "record_id"),)))
        return self.set_aside


def read_questions(path: str | Path) -> QuestionSet:
    """The question set in the file ``path``; raises :class:`~compactor.errors.UnreadableJSON`
    (with the line and column) for a file that cannot be read as JSON or JSON Lines."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise UnreadableJSON(
            [Problem(f"{path}: cannot read the question set ({error.strerror})")]
        ) from None
    return read_questions_text(data, path.name)


def read_questions_text(text: str | bytes, name: str = "questions") -> QuestionSet:
    """The question set of a file's text (``name`` names it); raises as :func:`read_questions`."""
    if isinstance(text, bytes):
        text = decode_text(text)
    text = text.removeprefix("\ufeff")
    found = QuestionSet(name, [])
    try:
        read = _line_questions(text, found) if _is_lines(text) else _document_questions(text, found)
    except UnreadableJSON:
        if not _is_lines(text, any_line=True):
            raise
        read = _line_questions(text, found)  # JSON Lines whose first line is broken
    ids: dict[str, Question] = {}
    for q in read:
        if q.id in ids:
            first = ids[q.id]
            said = f"line {first.line}" if first.lines else first.path
            why = f"repeats the id {quoted(q.id)} of the question at {said}; ids are unique"
            found.aside(QuestionAside(q.id, q.record, (q.problem(why, "id"),)))
        else:
            ids[q.id] = q
    found.questions = list(ids.values())
    found.__post_init__()
    return found


def _is_lines(text: str, any_line: bool = False) -> bool:
    """JSON Lines: more than one non-blank line, the first (``any_line``: one) a JSON object
    on its own."""
    lines = [line for line in text.split("\n") if line.strip()]
    if len(lines) < 2:
        return False
    for line in lines if any_line else lines[:1]:
        try:
            if isinstance(json.loads(line), dict):
                return True
        except ValueError:
            continue
    return False


def _line_questions(text: str, found: QuestionSet) -> list[Question]:
    read = []
    position = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        at = position
        position += 1
        try:
            value = parse_json(line.removesuffix("\r"))
        except UnreadableJSON as error:
            first = error.problems[0]
            message = f"{first.path}: {first.message}" if first.path else first.message
            problem = Problem(message, line=number, column=first.column or 1)
            found.aside(QuestionAside(None, None, (problem,)))
            continue
        question = _question(value, at, "$", number, 1, True, found)
        if question is not None:
            read.append(question)
    return read


def _document_questions(text: str, found: QuestionSet) -> list[Question]:
    value = parse_json(text)  # raises UnreadableJSON with the line and column
    if isinstance(value, dict) and "questions" in value:
        others = sorted(set(value) - {"questions"})
        if others:
            why = f"is not a field of a question set ({', '.join(map(quoted, others))}): "
            raise UnreadableJSON([Problem(why + 'give {"questions": [...]}', "$")])
        items, root = value["questions"], "$.questions"
    elif isinstance(value, list):
        items, root = value, "$"
    elif isinstance(value, dict):
        items, root = [value], None  # one question
    else:
        items, root = None, "$"
    if not isinstance(items, list):
        why = 'should be a list of questions, {"questions": [...]}, or JSON Lines'
        raise UnreadableJSON([Problem(why, root)])
    starts = _starts(text, root == "$.questions") if root is not None else [_skip(text, 0)]
    lines = _Lines(text)
    read = []
    for k, item in enumerate(items):
        path = f"{root}[{k}]" if root is not None else "$"
        line, column = lines.at(starts[k])
        question = _question(item, k, path, line, column, False, found)
        if question is not None:
            read.append(question)
    return read


def _question(
    item: Any, position: int, path: str, line: int, column: int, lines: bool, found: QuestionSet
) -> Question | None:
    """The question ``item`` at ``path``, or None when its shape is wrong (set aside)."""
    shell = Question(str(position), None, None, {}, path, line, column, lines)
    if not isinstance(item, dict):
        why = 'should be an object {"record" or "record_id", "id", "evidence", ...}'
        found.aside(QuestionAside(None, None, (shell.problem(why),)))
        return None
    problems = [
        shell.problem(f"is not a field of a question ({_SHOWN})", key)
        for key in sorted(set(item) - QUESTION_FIELDS, key=str)
    ]
    name = item.get("id", position)
    if isinstance(name, bool) or not isinstance(name, str | int):
        problems.append(shell.problem("should be a string", "id"))
    record, record_id = item.get("record"), item.get("record_id")
    if record is None and record_id is None:
        problems.append(shell.problem("names no conversation: give record (or record_id)"))
    if record is not None and not _is_record(record):
        why = 'should be the conversation\'s record: a number (0, 1, ...) or "PATH" / "PATH#i"'
        problems.append(shell.problem(why, "record"))
    if record_id is not None and (
        isinstance(record_id, bool) or not isinstance(record_id, str | int)
    ):
        problems.append(shell.problem("should be a string or a whole number", "record_id"))
    problems += _probe_shape(item, shell)
    qid = str(name) if not isinstance(name, bool) and isinstance(name, str | int) else None
    if problems:
        found.aside(QuestionAside(qid, record if _is_record(record) else None, tuple(problems)))
        return None
    fields = {k: v for k, v in item.items() if k in PROBE_FIELDS}
    fields["id"] = str(name)
    return replace(shell, id=str(name), record=record, record_id=record_id, fields=fields)


def _probe_shape(item: dict[str, Any], shell: Question) -> list[Problem]:
    """The problems of the probe's fields that need no conversation to find (the refs' types;
    whether a ref names a message waits for its conversation)."""
    problems = []
    answer, question = item.get("answer"), item.get("question")
    if answer is not None and not (isinstance(answer, str) and answer):
        problems.append(shell.problem("should be a non-empty string", "answer"))
    if question is not None and not isinstance(question, str):
        problems.append(shell.problem("should be a string", "question"))
    evidence = item.get("evidence")
    if not isinstance(evidence, list) or not evidence:
        problems.append(shell.problem("should be a non-empty list of message refs", "evidence"))
        return problems
    for r, ref in enumerate(evidence):
        if isinstance(ref, bool) or not isinstance(ref, str | int):
            why = "should be a message id (a string) or a 0-based index (an integer)"
            problems.append(shell.problem(why, "evidence", r))
    return problems


def _is_record(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    return (isinstance(value, int) and value >= 0) or (isinstance(value, str) and bool(value))


def _key(value: Any) -> tuple[str, Any]:
    """A conversation name or id as a key: 3 and "3" stay two names."""
    return (type(value).__name__, value)


def _placed(q: Question, problem: Problem) -> Problem:
    """A problem ``parse_probes`` found at ``$[0]...``, placed at the question in its file."""
    inside = (problem.path or "$").removeprefix("$").removeprefix(".").removeprefix("[0]")
    parts: list[str | int] = []
    for piece in inside.replace("[", ".").replace("]", "").split("."):
        if piece:
            parts.append(int(piece) if piece.isdigit() else piece)
    return q.problem(problem.message, *parts)


def _join(path: str, inside: Iterable[str | int]) -> str:
    inside = list(inside)
    if not inside:
        return path
    rest = format_path(inside)
    return path + (rest if rest.startswith("[") else f".{rest}")


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    return i


def _starts(text: str, keyed: bool) -> list[int]:
    """Where each question of a parsed document starts: the items of the top-level list, or of
    the ``questions`` member of the top-level object (the text is known to be JSON)."""
    decoder = json.JSONDecoder()
    i = _skip(text, 0)
    if keyed:
        i = _skip(text, i + 1)  # past "{"
        while True:
            key, i = json.decoder.scanstring(text, i + 1)
            i = _skip(text, _skip(text, i) + 1)  # past ":"
            if key == "questions":
                break
            _, i = decoder.raw_decode(text, i)
            i = _skip(text, _skip(text, i) + 1)  # past ","
    starts = []
    i = _skip(text, i + 1)  # past "["
    while i < len(text) and text[i] != "]":
        starts.append(i)
        _, i = decoder.raw_decode(text, i)
        i = _skip(text, i)
        if i < len(text) and text[i] == ",":
            i = _skip(text, i + 1)
    return starts


class _Lines:
    """Offsets in a text as (line, column), 1-based."""

    def __init__(self, text: str):
        self.ends = [m.start() for m in re.finditer("\n", text)]

    def at(self, offset: int) -> tuple[int, int]:
        k = bisect.bisect_left(self.ends, offset)
        return k + 1, offset - (self.ends[k - 1] + 1 if k else 0) + 1


def failure_text(failed: Sequence[str]) -> str:
    """What a failed question lost, in words, from the recalls it fails (a summary's
    ``probes_failed`` entry): its evidence dropped (partial failed) or cut (strict failed),
    and its answer lost."""
    if "partial" in failed:
        said = "evidence dropped"
    elif "strict" in failed:
        said = "evidence cut"
    else:
        said = "evidence kept"
    return said + ("; answer lost" if "answer" in failed else "")
