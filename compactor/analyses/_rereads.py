"""Re-reads after recorded compactions (SPEC part D, "Re-reads"): the files an agent read again
after a compaction, a judge no strategy chose (issue 36).

For compaction k with boundary b (messages ``0..b-1`` replaced by its summary; the messages of
its *history* run from the previous boundary, or 0, to b-1), its *future* runs from b to the next
boundary or the end. Tool calls are read back from the import's call lines
(:func:`compactor.formats.calls_in`); a call's result is the first tool message after it whose
``id`` is the call's id.

- A *re-read* is a file-read call in the future (Claude Code's ``Read``) of a file whose line
  range overlaps that of a read of the same file in the history (the most recent such read,
  with a result), with no write to that file (``Edit``, ``Write``, ``MultiEdit``,
  ``NotebookEdit``) between the two. Ranges come from ``offset`` (the first line, 1-based) and
  ``limit`` (lines): a read without them covers the whole file, so it overlaps every read of the
  file. An earlier read is needed again once: a second read of it in the same future is not
  counted (the agent had it back). A read before the history (before an earlier compaction)
  belongs to that compaction's summary, not to this one's history, and is not looked at.
- Its *characters* are the earlier read's result characters (what the compaction took away);
  *characters read again* are the re-read's own result characters, summed (what fetching it
  back cost).
- A kept context (the spans a strategy returned verbatim) *holds* a re-read when at least half
  of the earlier result's characters are in it; the recorded summary holds it when its text
  contains at least half of the earlier result's lines: its lines stripped of surrounding blanks
  and of the line number Claude Code's ``Read`` puts before each line (``   12→``), since a
  summary quotes the code, never the numbering; lines without a letter or digit (``}``, ``);``)
  are not counted, since any text with a brace would hold them.
- Repeated searches (``Grep``, ``Glob``: the same arguments as a call in the history) and
  repeated commands (``Bash``: the same ``command``) are listed apart: they are re-run for other
  reasons (changed files, new output) and are not needs.

Codex has no file-read tool: it reads files with shell commands. Only the commands that clearly
read one file's lines are reads (``cat FILE``, ``sed -n 'A,Bp' FILE``, ``nl -ba FILE | sed -n
'A,Bp'``, ``head -n N FILE``; a relative path joined to the call's ``workdir``); writes are the
files ``apply_patch`` names, a redirect's target (``> FILE``), and the files ``rm``, ``mv``,
``cp``, ``tee``, ``touch``, ``truncate``, ``sed -i`` and ``perl -i`` name; a relative path and
an absolute one name one file when the absolute one ends with it. Every other shell command is
no read (a script that also reads is missed, never guessed) and is a command: repeated ones are
listed apart, as Claude Code's ``Bash``.
"""

from __future__ import annotations

import json
import posixpath
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from compactor.formats import RecordedCompaction, calls_in
from compactor.model import Request

#: The file-read tools, and the argument naming the file.
READS = {"Read": "file_path"}
#: The tools that change a file, and the argument naming it.
WRITES = {"Edit": "file_path", "Write": "file_path", "MultiEdit": "file_path"} | {
    "NotebookEdit": "notebook_path"
}
#: Searches and commands: re-run for other reasons, reported apart.
SEARCHES = ("Grep", "Glob")
COMMANDS = {"Bash": "command"}

#: The line number Claude Code's ``Read`` puts before each line of a result (``cat -n``).
LINE_NUMBER = re.compile(r"^\s*\d+→")

#: A line the summary rule counts holds a letter or digit.
WORDY = re.compile(r"[^\W_]")

#: The judge, as every surface names it.
REREAD_JUDGE = "re-read (files the agent read again after the compaction)"


@dataclass(frozen=True)
class FileRead:
    """One file-read call: its message, its result's message (None without one), the file and
    its lines (``last`` None: to the end of the file)."""

    message: int
    result: int | None
    path: str
    first: int
    last: int | None

    def overlaps(self, other: FileRead) -> bool:
        """Whether the two reads' line ranges share a line (a whole-file read shares all)."""
        last = min((x for x in (self.last, other.last) if x is not None), default=None)
        return last is None or max(self.first, other.first) <= last

    @property
    def lines(self) -> str:
        """``whole file``, ``lines 12-51`` or ``lines 12-end``."""
        if self.first == 1 and self.last is None:
            return "whole file"
        return f"lines {self.first}-{'end' if self.last is None else self.last}"


@dataclass(frozen=True)
class Reread:
    """A file read again after the compaction: the earlier read (in the history) and the
    re-read (in the future), the earlier result's characters and the re-read's."""

    earlier: FileRead
    again: FileRead
    chars: int  # the earlier result's characters
    chars_again: int  # the re-read's result characters (0 without a result)

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.earlier.path,
            "before": self.earlier.message,
            "before_result": self.earlier.result,
            "before_lines": self.earlier.lines,
            "after": self.again.message,
            "after_result": self.again.result,
            "after_lines": self.again.lines,
            "chars": self.chars,
            "chars_again": self.chars_again,
        }


@dataclass(frozen=True)
class Repeat:
    """A search or command of the future that a call of the history made with the same
    arguments: counted apart, never a need."""

    tool: str
    what: str  # the command, or the search's arguments as one line of JSON
    before: int  # the message of the first such call in the history
    after: int  # the message of its first repeat in the future

    def to_dict(self) -> dict[str, Any]:
        return {"tool": self.tool, "what": self.what, "before": self.before, "after": self.after}


@dataclass(frozen=True)
class CompactionRereads:
    """One recorded compaction's re-reads, with its repeated searches and commands."""

    boundary: int
    start: int  # the history's first message (the previous boundary, or 0)
    end: int  # the future's end (the next boundary, or the number of messages)
    rereads: tuple[Reread, ...]
    searches: tuple[Repeat, ...]
    commands: tuple[Repeat, ...]

    @property
    def chars(self) -> int:
        """The earlier results' characters, summed."""
        return sum(r.chars for r in self.rereads)

    @property
    def chars_again(self) -> int:
        """Characters read again: the re-reads' results, summed."""
        return sum(r.chars_again for r in self.rereads)

    def to_dict(self) -> dict[str, Any]:
        return {
            "judge": REREAD_JUDGE,
            "rereads": len(self.rereads),
            "chars": self.chars,
            "chars_read_again": self.chars_again,
            "files": [r.to_dict() for r in self.rereads],
            "repeated_searches": [s.to_dict() for s in self.searches],
            "repeated_commands": [c.to_dict() for c in self.commands],
        }


@dataclass(frozen=True)
class RereadRecall:
    """Re-read recall under one way to replace the history: held / re-reads (None without
    re-reads); ``held`` is a mean over draws for random."""

    rereads: int
    held: float

    @property
    def recall(self) -> float | None:
        return self.held / self.rereads if self.rereads else None

    def to_dict(self) -> dict[str, Any]:
        recall = self.recall
        held = int(self.held) if float(self.held).is_integer() else round(self.held, 6)
        return {
            "rereads": self.rereads,
            "held": held,
            "recall": None if recall is None else round(recall, 6),
        }


def find_rereads(
    request: Request, compactions: Sequence[RecordedCompaction]
) -> tuple[CompactionRereads, ...]:
    """Each recorded compaction's re-reads, repeated searches and repeated commands."""
    n = len(request.messages)
    calls = _tool_calls(request)
    contents = request.contents
    out = []
    for k, compaction in enumerate(compactions):
        b = compaction.boundary
        start = compactions[k - 1].boundary if k else 0
        end = compactions[k + 1].boundary if k + 1 < len(compactions) else n
        out.append(_one(calls, contents, min(start, b), b, max(end, b)))
    return tuple(out)


def summary_holds(summary: str, result: str) -> bool:
    """Whether ``summary`` contains at least half of ``result``'s lines (stripped, without
    ``Read``'s line numbers, holding a letter or digit); a result without such lines is held by
    nothing."""
    lines = [LINE_NUMBER.sub("", line, count=1).strip() for line in result.splitlines()]
    lines = [line for line in lines if WORDY.search(line)]
    return bool(lines) and 2 * sum(line in summary for line in lines) >= len(lines)


def spans_hold(chars: int, spans: Sequence[tuple[int, int]]) -> bool:
    """Whether kept ``spans`` of a result of ``chars`` characters hold at least half of them."""
    return chars > 0 and 2 * sum(e - s for s, e in spans) >= chars


def summary_recall(rereads: CompactionRereads, request: Request, summary: str) -> RereadRecall:
    """Re-read recall of the recorded summary."""
    contents = request.contents
    held = sum(summary_holds(summary, contents[r.earlier.result]) for r in rereads.rereads)
    return RereadRecall(len(rereads.rereads), held)


def spans_recall(
    rereads: CompactionRereads, spans: Sequence[Sequence[tuple[int, int]]], offset: int
) -> RereadRecall:
    """Re-read recall of a kept context given as, per history message, the spans it returned
    verbatim (``spans[i]``: message ``start + i - offset`` of the request, ``offset`` being the
    messages put before the history, as the previous summary)."""
    held = 0
    for r in rereads.rereads:
        i = r.earlier.result - rereads.start + offset
        held += spans_hold(r.chars, spans[i])
    return RereadRecall(len(rereads.rereads), held)


def lengths_recall(rereads: CompactionRereads, lengths: np.ndarray, offset: int) -> RereadRecall:
    """Re-read recall of whole-message baselines: ``lengths`` per draw (or one row) and history
    message, the characters returned (-1: removed), as the baselines give them; the mean over
    draws."""
    rows = np.atleast_2d(lengths)
    if not rereads.rereads:
        return RereadRecall(0, 0)
    idx = np.array([r.earlier.result - rereads.start + offset for r in rereads.rereads])
    need = np.array([r.chars for r in rereads.rereads])
    held = ((2 * np.maximum(rows[:, idx], 0) >= need) & (need > 0)).sum(axis=1)
    return RereadRecall(len(rereads.rereads), float(held.mean()))


@dataclass(frozen=True)
class _Call:
    message: int
    name: str
    id: str | None
    arguments: Any
    result: int | None
    raw: str | None = None  # the arguments as written, when they were not JSON


def _tool_calls(request: Request) -> list[_Call]:
    """Every call line of an assistant message, in order, with its result's message."""
    waiting: dict[str, list[int]] = {}
    for i, m in enumerate(request.messages):
        if m.role == "tool" and m.id is not None:
            waiting.setdefault(m.id, []).append(i)
    out = []
    for i, m in enumerate(request.messages):
        if m.role != "assistant":
            continue
        for call in calls_in(m.content):
            later = [j for j in waiting.get(call.id or "", ()) if j > i]
            result = later[0] if later else None
            out.append(_Call(i, call.name, call.id, call.arguments, result, call.raw))
    return out


def _file_read(call: _Call) -> FileRead | None:
    """The read a call makes, or None when it is no file read."""
    if call.name in SHELLS:
        return _shell_read(call)
    key = READS.get(call.name)
    args = call.arguments if isinstance(call.arguments, dict) else {}
    path = args.get(key) if key else None
    if not isinstance(path, str) or not path:
        return None
    offset, limit = _count(args.get("offset")), _count(args.get("limit"))
    first = max(1, offset or 1)
    last = None if limit is None else first + max(limit, 1) - 1
    return FileRead(call.message, call.result, _norm(path), first, last)


def _written(call: _Call) -> tuple[str, ...]:
    """The files a call may change."""
    if call.name in SHELLS or call.name == APPLY_PATCH:
        return _shell_writes(call)
    key = WRITES.get(call.name)
    args = call.arguments if isinstance(call.arguments, dict) else {}
    path = args.get(key) if key else None
    return (_norm(path),) if isinstance(path, str) and path else ()


def _repeat_key(call: _Call) -> str | None:
    args = call.arguments if isinstance(call.arguments, dict) else {}
    if call.name in SEARCHES and args:
        return json.dumps(args, sort_keys=True, ensure_ascii=False)
    if call.name in SHELLS:
        found = _script(call)
        return None if found is None or not found[0].strip() else found[0]
    key = COMMANDS.get(call.name)
    command = args.get(key) if key else None
    return command if isinstance(command, str) and command.strip() else None


# -- Codex: files read and written through its shell ------------------------------------------

#: Codex's shell tools (``function_call`` names, and the ``local_shell_call`` item).
SHELLS = frozenset({"shell", "local_shell", "exec_command", "shell_command"})
#: Codex's patch tool (a ``custom_tool_call`` whose input is the patch).
APPLY_PATCH = "apply_patch"
#: A script the recogniser reads as one command: no other operator, substitution or variable.
_PLAIN = re.compile(r"^[^;&|<>`(){}\n]*$")
#: A path the recogniser takes as a file: no variable, no glob.
_FIXED = re.compile(r"^[^$*?\[\]~]+$")
_SED_RANGE = re.compile(r"^(\d+)(?:,(\d+|\$))?p$")
_PATCH_FILE = re.compile(r"^\*\*\* (?:Update|Add|Delete) File: (.+)$|^\*\*\* Move to: (.+)$", re.M)
_REDIRECT = re.compile(r"(?<![0-9&])>>?\s*([^\s;&|<>]+)")
#: Commands that change the files they name (``sed``/``perl`` only with ``-i``).
_CHANGERS = frozenset({"rm", "mv", "cp", "tee", "touch", "truncate"})


def _script(call: _Call) -> tuple[str, str | None] | None:
    """A shell call's script and its working directory, or None when it has none."""
    args = call.arguments if isinstance(call.arguments, dict) else {}
    command = args.get("command", args.get("cmd"))
    workdir = args.get("workdir", args.get("working_directory"))
    workdir = workdir if isinstance(workdir, str) and workdir else None
    if isinstance(command, list) and command and all(isinstance(c, str) for c in command):
        if (
            len(command) == 3
            and command[0] in ("bash", "sh", "zsh")
            and command[1]
            in (
                "-c",
                "-lc",
            )
        ):
            return command[2], workdir
        return shlex.join(command), workdir
    if isinstance(command, str):
        return command, workdir
    return None


def _words(script: str) -> list[str] | None:
    """The words of a plain one-command script (None when it is more than that)."""
    if not _PLAIN.match(script):
        return None
    try:
        return shlex.split(script)
    except ValueError:
        return None


def _shell_read(call: _Call) -> FileRead | None:
    """``cat FILE``, ``sed -n 'A,Bp' FILE``, ``nl -ba FILE | sed -n 'A,Bp'`` and
    ``head -n N FILE``: the commands that clearly read one file's lines; any other is no read."""
    found = _script(call)
    if found is None:
        return None
    script, workdir = found
    parts = script.strip().split(" | ")
    lines: tuple[int, int | None] | None = None
    path = None
    if len(parts) == 2:  # nl -ba FILE | sed -n 'A,Bp'
        numbered, sed = _words(parts[0]), _words(parts[1])
        if numbered and sed and numbered[:-1] in (["nl", "-ba"], ["nl", "-b", "a"]):
            lines = _sed_lines(sed)
            path = numbered[-1] if lines else None
    elif len(parts) == 1:
        words = _words(parts[0]) or []
        if len(words) == 2 and words[0] == "cat":
            lines, path = (1, None), words[1]
        elif len(words) == 4 and words[:2] == ["sed", "-n"]:
            lines, path = _sed_lines(words[:3]), words[3]
        elif len(words) == 4 and words[:2] == ["head", "-n"] and words[2].isdigit():
            lines, path = (1, max(1, int(words[2]))), words[3]
    if lines is None or not path or path.startswith("-") or not _FIXED.match(path):
        return None
    return FileRead(call.message, call.result, _at(path, workdir), *lines)


def _sed_lines(words: list[str]) -> tuple[int, int | None] | None:
    """The lines of ``sed -n 'A,Bp'`` (``Ap``: line A; ``A,$p``: to the end)."""
    if len(words) != 3 or words[:2] != ["sed", "-n"]:
        return None
    match = _SED_RANGE.match(words[2])
    if match is None:
        return None
    first = max(1, int(match[1]))
    last = match[2]
    if last is None:
        return first, first
    return (first, None) if last == "$" else (first, max(first, int(last)))


def _shell_writes(call: _Call) -> tuple[str, ...]:
    """The files a patch or a shell command may change: the patch's files, a redirect's target,
    the files ``rm``, ``mv``, ``cp``, ``tee``, ``touch``, ``truncate`` and ``sed -i`` name."""
    if call.name == APPLY_PATCH:
        patch = call.arguments if isinstance(call.arguments, str) else call.raw or ""
        if isinstance(call.arguments, dict):
            patch = str(call.arguments.get("input", call.arguments.get("patch", "")))
        return tuple(_norm((a or b).strip()) for a, b in _PATCH_FILE.findall(patch))
    found = _script(call)
    if found is None:
        return ()
    script, workdir = found
    out = [(a or b).strip() for a, b in _PATCH_FILE.findall(script)]
    out += _REDIRECT.findall(script)
    for command in re.split(r"&&|\|\||[;|\n]", script):
        try:
            words = shlex.split(command)
        except ValueError:
            continue
        if not words:
            continue
        edits = words[0] in ("sed", "perl") and any(w.startswith("-i") for w in words[1:])
        if words[0] in _CHANGERS or edits:
            out += [w for w in words[1:] if not w.startswith("-")]
    return tuple(_at(p, workdir) for p in out if p and p != "/dev/null")


def _at(path: str, workdir: str | None) -> str:
    """A shell's path as a file: joined to the working directory when relative."""
    if workdir and not path.startswith("/"):
        path = posixpath.join(workdir, path)
    return _norm(path)


def _one(
    calls: list[_Call], contents: Sequence[str], start: int, b: int, end: int
) -> CompactionRereads:
    """One compaction's re-reads and repeats: calls are walked in order (a call's place in
    ``calls`` orders two calls of one message as the message wrote them)."""
    reads: list[tuple[int, FileRead]] = []  # the history's reads with a result, in order
    writes: dict[str, list[int]] = {}  # file -> the places of the calls that wrote it
    seen: dict[tuple[str, str], int] = {}  # (tool, arguments) -> its first call in the history
    rereads: list[Reread] = []
    taken: set[int] = set()
    searches: list[Repeat] = []
    commands: list[Repeat] = []
    repeated: set[tuple[str, str]] = set()
    for place, call in enumerate(calls):
        if call.message < start:
            continue
        if call.message >= end:
            break
        for written in _written(call):
            writes.setdefault(written, []).append(place)
        read = _file_read(call)
        key = _repeat_key(call)
        if call.message < b:
            if read is not None and read.result is not None and read.result < b:
                reads.append((place, read))
            if key is not None:
                seen.setdefault((call.name, key), call.message)
            continue
        if key is not None and (call.name, key) in seen and (call.name, key) not in repeated:
            repeated.add((call.name, key))
            found = Repeat(call.name, key, seen[call.name, key], call.message)
            (searches if call.name in SEARCHES else commands).append(found)
        if read is None:
            continue
        at, earlier = next(
            (
                (p, e)
                for p, e in reversed(reads)
                if same_file(e.path, read.path) and e.overlaps(read)
            ),
            (None, None),
        )
        if earlier is None or at in taken:
            continue
        if any(
            at < w < place
            for path, places in writes.items()
            if same_file(path, read.path)
            for w in places
        ):
            continue
        taken.add(at)
        assert earlier.result is not None
        again = 0 if read.result is None or read.result >= end else len(contents[read.result])
        rereads.append(Reread(earlier, read, len(contents[earlier.result]), again))
    return CompactionRereads(b, start, end, tuple(rereads), tuple(searches), tuple(commands))


def same_file(a: str, b: str) -> bool:
    """Whether two paths name one file: equal, or a relative one the end of the other (a
    Codex patch names files relative to where the session runs, a shell call may not)."""
    if a == b:
        return True
    if a.startswith("/") == b.startswith("/"):
        return False
    relative, absolute = (a, b) if not a.startswith("/") else (b, a)
    return absolute.endswith("/" + relative.removeprefix("./"))


def _count(value: Any) -> int | None:
    ok = isinstance(value, int) and not isinstance(value, bool)
    return value if ok else None


def _norm(path: str) -> str:
    return posixpath.normpath(path)
