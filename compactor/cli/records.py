"""Reading FILE as conversations: one (``--record N`` picks a record of a collection) or every
record of a file or folder (``--all``, one JSON line each, as ``../shared/SPEC.md`` part C says)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from compactor.cli.io import fail, read_bytes
from compactor.cli.reports import many_problems, needed_fixes, report, write_lines
from compactor.errors import FormatError, UnreadableJSON
from compactor.formats import (
    Conversion,
    ManyConversations,
    apply_fixes,
    convert_document,
    read_document,
)
from compactor.formats.folders import files_of
from compactor.input.jsonio import dumps


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


def fixed(conversion: Conversion, args: argparse.Namespace) -> Conversion:
    if args.keep_last or args.cut_long:
        return apply_fixes(conversion, keep_last=args.keep_last, cut_long=args.cut_long)
    return conversion


def read_conversion(
    args: argparse.Namespace, reader: Callable[[str], bytes] = read_bytes
) -> Conversion | int:
    """The conversation FILE holds (or its ``--record``), fixes applied; else the exit code
    after the problems were written (a file of many conversations says how to pick one)."""
    try:
        document = read_document(reader(args.file), args.format)
        conversion = convert_document(document, args.format, args.record)
    except ManyConversations as error:
        return fail(many_problems(error))
    except (UnreadableJSON, FormatError) as error:
        return fail(error.problems)
    return fixed(conversion, args)


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
            report(conversion, detected=args.format is None, prefix=prefix)
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
