"""Reading FILE as conversations: the one import entry of every command that takes a
conversation (:func:`read_input`: a request as sent, or any file ``import`` reads, a record of a
collection, the fixes chosen), and every record of a file or folder (``--all``, one JSON line
each, as ``../shared/SPEC.md`` part C says)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from compactor.cli._io import fail, read_bytes
from compactor.cli._params import budget_given
from compactor.cli._reports import many_problems, needed_fixes, report, write_lines
from compactor.contract import LIMITS
from compactor.errors import FormatError, Problem, ProblemError, UnreadableJSON
from compactor.formats import (
    FORMATS,
    PENDING,
    Conversion,
    ManyConversations,
    Window,
    apply_fixes,
    convert_document,
    detect_format,
    files_of,
    read_document,
)
from compactor.input import dumps

MAX_MESSAGES = LIMITS["max_messages"]


def _record_number(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a record is a whole number, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"records are numbered from 0, not {value}")
    return value


def add_record_arguments(parser: argparse.ArgumentParser, every: bool = False) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--record",
        type=_record_number,
        metavar="N",
        help="in a file that holds many conversations, the record to read (0-based)",
    )
    if every:
        group.add_argument(
            "--all",
            action="store_true",
            help='every record (and every file of a folder FILE): one JSON line each, {"record", '
            '"id", "request"}',
        )


def add_source_arguments(parser: argparse.ArgumentParser, every: bool = False) -> None:
    """``--format NAME`` and ``--record N`` (``every``: also ``--all``)."""
    parser.add_argument(
        "--format",
        choices=list(FORMATS),
        metavar="NAME",
        help=f"read FILE as this format instead of detecting it: {', '.join(FORMATS)}",
    )
    add_verbose_argument(parser)
    add_record_arguments(parser, every)


def add_verbose_argument(parser: argparse.ArgumentParser) -> None:
    """``--verbose``: every note of the import (and every conversation set aside), one per
    line; by default one summary line says how many there are."""
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="list every change the import made (by default one line counts them)",
    )


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"a number of messages, not {text!r} (the number is optional: put FILE before "
            "--keep-last, or write --keep-last=N)"
        ) from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"a number of messages, at least 0, not {value}")
    return value


def _range(text: str) -> tuple[int | None, int | None]:
    start, colon, end = text.partition(":")
    try:
        if not colon:
            raise ValueError
        pair = (int(start) if start.strip() else 0, int(end) if end.strip() else None)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"a range is A:B (message numbers, both kept; B may be left out), not {text!r}"
        ) from None
    if pair[0] < 0 or (pair[1] is not None and pair[1] < 0):
        raise argparse.ArgumentTypeError(f"messages are numbered from 0, not {text!r}")
    return pair


def add_fix_arguments(parser: argparse.ArgumentParser) -> None:
    """The lossy fixes of a conversation over the request's limits: which messages to keep
    (``--keep-last [M]``, ``--keep-first N``, ``--range A:B``) and ``--cut-long``."""
    group = parser.add_argument_group(
        "fixes",
        f"a request holds at most {MAX_MESSAGES} messages of at most "
        f"{LIMITS['max_content_chars']:,} characters; a longer conversation is only changed "
        "when you choose how (what is left out is reported: message numbers and characters)",
    )
    group.add_argument(
        "--keep-last",
        nargs="?",
        const=-1,
        type=_count,
        metavar="M",
        dest="fix_keep_last",
        help=f"keep the last M messages (without M: the last {MAX_MESSAGES} when there are more, "
        "or with --keep-first N the last 200 - N)",
    )
    group.add_argument(
        "--keep-first",
        type=_count,
        metavar="N",
        dest="fix_keep_first",
        help="also keep the first N messages (a session's instructions and task), with the "
        f"last {MAX_MESSAGES} - N (or the last M of --keep-last M)",
    )
    group.add_argument(
        "--range",
        type=_range,
        metavar="A:B",
        dest="fix_range",
        help="keep messages #A to #B, both included (numbered from 0 as #0; 'A:' to the end)",
    )
    group.add_argument(
        "--cut-long",
        action="store_true",
        help=f"cut every content over {LIMITS['max_content_chars']:,} characters to its first "
        f"{LIMITS['max_content_chars']:,} (never inside a character; the rest is lost)",
    )


@dataclass(frozen=True)
class Fixes:
    """The fixes the command line chose: a window of messages (or keep the last 200 when there
    are more), and cutting long contents."""

    keep_last: bool = False
    cut_long: bool = False
    window: Window | None = None

    @property
    def chosen(self) -> bool:
        return self.keep_last or self.cut_long or self.window is not None

    def apply(self, conversion: Conversion) -> Conversion:
        if not self.chosen:
            return conversion
        return apply_fixes(
            conversion, keep_last=self.keep_last, cut_long=self.cut_long, window=self.window
        )


def fixes_of(args: argparse.Namespace) -> Fixes:
    """The fixes ``args`` chose (``shrink``'s ``--lossy-fixes``: the last 200 and cut)."""
    if getattr(args, "lossy_fixes", False):
        return Fixes(keep_last=True, cut_long=True)
    # the dests are the fixes' own: summarize's --keep-last N is another thing
    last = getattr(args, "fix_keep_last", None)
    first = getattr(args, "fix_keep_first", None)
    span = getattr(args, "fix_range", None)
    cut = bool(getattr(args, "cut_long", False))
    if span is not None:
        if last is not None or first is not None:
            raise ProblemError(
                [Problem("--range keeps one range: give it without --keep-first and --keep-last")]
            )
        return Fixes(cut_long=cut, window=Window(start=span[0], end=span[1]))
    if first is None and last in (None, -1):
        return Fixes(keep_last=last == -1, cut_long=cut)
    return Fixes(
        cut_long=cut,
        window=Window(first=first or 0, last=None if last in (None, -1) else last),
    )


def fixed(conversion: Conversion, args: argparse.Namespace) -> Conversion:
    return fixes_of(args).apply(conversion)


@dataclass(frozen=True)
class Input:
    """A conversation read from FILE: the request (with the command line's parameters over
    its own), and the import's conversion (None when FILE was a request taken as sent)."""

    request: dict[str, Any]
    conversion: Conversion | None = None


def is_request(data: Any, args: argparse.Namespace) -> bool:
    """A memory-compact request as it stands, taken as sent (so its schema errors are reported
    as such): a request with a budget (or the command line gives one)."""
    if not isinstance(data, dict) or ("budget_chars" not in data and not budget_given(args)):
        return False
    try:
        return detect_format(data) == "request"
    except FormatError:
        return False


def read_input(
    args: argparse.Namespace,
    given: dict[str, Any] | None = None,
    *,
    as_sent: Callable[[Any, argparse.Namespace], bool] = is_request,
    limits: bool = True,
    raw: bytes | None = None,
    fix_hint: str | None = None,
) -> Input:
    """The conversation in ``args.file``: the one way every command reads its FILE.

    A file ``as_sent`` accepts (by default a memory-compact request) is taken as it is, when the
    command line names no other format, record or fix. Anything else is imported as ``import``
    does (``--format``, ``--record``), the chosen fixes made (:func:`fixes_of`), and its report
    written on standard error. ``given`` (the parameters of the command line) goes over the
    file's own. With ``limits``, a conversation still over the request's limits raises
    :class:`ProblemError` naming the flags that fix it (or each pending fix, then ``fix_hint``,
    for a command with flags of its own); without, it is returned as it is (a command that does
    not send a memory-compact request, such as ``summarize``). ``raw``: FILE's bytes, when the
    command has read them already (standard input can be read once).

    Raises :class:`ProblemError` for a file that cannot be read, is not a conversation, holds
    many without ``--record``, or needs fixes not chosen.
    """
    given = given or {}
    fixes = fixes_of(args)
    format, record = getattr(args, "format", None), getattr(args, "record", None)
    document = read_document(read_bytes(args.file) if raw is None else raw, format)
    plain = format in (None, "request") and record is None and not fixes.chosen
    if plain and document.data is not None and as_sent(document.data, args):
        return Input({**document.data, **given})
    try:
        conversion = fixes.apply(convert_document(document, format, record))
    except ManyConversations as error:
        raise FormatError(many_problems(error)) from None
    if budget_given(args):  # the budget the import chose is not the one used
        kept = tuple(c for c in conversion.changes if c.kind != "budget-chosen")
        conversion = replace(conversion, changes=kept)
    if not limits:  # the request's limits are not this command's: nothing to fix
        kept = tuple(c for c in conversion.changes if c.kind not in PENDING)
        conversion = replace(conversion, changes=kept)
    report(conversion, detected=format is None, verbose=getattr(args, "verbose", False))
    if conversion.needs_fixes and fix_hint is not None:
        pending = [c.message for c in conversion.changes if c.kind in PENDING]
        raise ProblemError(Problem(line) for line in [*pending, fix_hint])
    if conversion.needs_fixes:
        raise ProblemError(Problem(line) for line in needed_fixes(conversion))
    return Input({**conversion.request, **given}, conversion)


def _files(args: argparse.Namespace) -> list[tuple[str | None, str]]:
    """``(name in the folder, path)`` of each file to read; the name is None for FILE itself.
    What a folder holds that cannot be read (a link loop, a device) is said on standard error."""
    if args.file == "-" or not Path(args.file).is_dir():
        return [(None, args.file)]
    found = files_of(args.file)
    write_lines(f"skipped {line}" for line in found.skipped)
    return [(name, str(path)) for name, path in found.files]


def _records(name: str | None, document: Any) -> Iterator[tuple[Any, Any, int | None]]:
    """``(record label, id, record number)`` for each conversation of a read file."""
    collection = document.collection
    if collection is None:
        yield (name if name is not None else 0), None, None
        return
    for i, record in enumerate(collection.records):
        yield (f"{name}#{i}" if name is not None else i), record.id, i


def import_all(args: argparse.Namespace) -> int:
    """Every record of FILE (or of every file in the folder FILE) as one JSON line each."""
    files = _files(args)
    if not files:
        return fail([f"{args.file}: the folder holds no .json or .jsonl file"])
    failed = 0
    for name, path in files:
        where = f"{name}: " if name is not None else ""
        try:
            document = read_document(read_bytes(path), args.format)
        except UnreadableJSON as error:
            failed += 1
            write_lines(f"{where}{problem}" for problem in error.problems)
            continue
        for label, record_id, number in _records(name, document):
            prefix = f"record {label}: "
            try:
                conversion = fixed(convert_document(document, args.format, number), args)
            except FormatError as error:
                failed += 1
                write_lines(f"{prefix}{problem}" for problem in error.problems)
                continue
            report(conversion, detected=args.format is None, prefix=prefix, verbose=args.verbose)
            if conversion.needs_fixes:
                failed += 1
                write_lines(f"{prefix}{line}" for line in needed_fixes(conversion))
                continue
            line = {"record": label, "id": record_id, "request": conversion.request}
            sys.stdout.buffer.write(dumps(line, None).encode("utf-8") + b"\n")
    sys.stdout.buffer.flush()
    if failed:
        write_lines([f"{failed:,} of the records or files could not be converted (see above)"])
    return 2 if failed else 0
