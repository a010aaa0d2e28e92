"""``python -m compactor import FILE``: a conversation in another format as a request."""

from __future__ import annotations

import argparse
from pathlib import Path

from compactor.cli.io import (
    add_indent_argument,
    add_input_argument,
    emit,
    fail,
    indent_of,
    read_bytes,
)
from compactor.cli.records import add_record_arguments, import_all, read_conversion
from compactor.cli.reports import needed_fixes, report
from compactor.contract import LIMITS
from compactor.formats import FORMATS

FORMAT_LIST = "\n".join(f"  {name:<10} {text}" for name, text in FORMATS.items())
DESCRIPTION = f"""\
Convert a conversation to a memory-compact request. FILE is JSON, or JSONL with one message
per line; the format is detected unless --format names it:
{FORMAT_LIST}

The request JSON goes to standard output. The conversion report goes to standard error: a first
line saying how the file was read, then one line per change, 'note KIND: what and where' or
'lossy KIND: ...' when content was lost (an image removed, say). Tool calls become text in the
calling message ('[tool call NAME id=ID] ARGUMENTS'), tool results become tool messages.

A request holds at most {LIMITS["max_messages"]} messages of at most \
{LIMITS["max_content_chars"]:,} characters. A conversation
beyond that is not fixed silently: unless you choose the fixes with --keep-last and --cut-long,
nothing is printed on standard output, the report lists what needs fixing and which flag fixes
it, and the exit code is 2.

A file that holds many conversations (a JSON list of ShareGPT or evaluation records with
messages, conversations or traj, as tau-bench's trajectories; JSONL with one conversation a
line) converts one record: --record N (0-based), or --all prints one JSON line per record,
{{"record": N, "id": ID or null, "request": {{...}}}}. FILE may then be a folder: every .json and
.jsonl file in it, "record" being "PATH" (a file of one conversation) or "PATH#N", PATH relative
to the folder. With --all the report lines start with the record.

Exit codes: 0 converted; 2 when FILE is unreadable, not JSON or JSONL (with line and column), not
a conversation in a known format (with the JSON path of each problem), or needs a fix not chosen.
Without budget_chars in the input, it is set to half the conversation's characters (reported)."""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "import",
        help="convert a conversation (OpenAI, Anthropic, Vercel, ShareGPT, JSONL) to a request",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_input_argument(parser)
    parser.add_argument(
        "--format",
        choices=list(FORMATS),
        metavar="NAME",
        help=f"read FILE as this format instead of detecting it: {', '.join(FORMATS)}",
    )
    parser.add_argument(
        "--keep-last",
        action="store_true",
        help=f"when there are more than {LIMITS['max_messages']} messages, keep the last "
        f"{LIMITS['max_messages']} (the earlier ones are lost)",
    )
    parser.add_argument(
        "--cut-long",
        action="store_true",
        help=f"cut every content over {LIMITS['max_content_chars']:,} characters to its first "
        f"{LIMITS['max_content_chars']:,} (never inside a character; the rest is lost)",
    )
    add_record_arguments(parser, every=True)
    add_indent_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.all:
        return import_all(args)
    if Path(args.file).is_dir():
        return fail([f"{args.file} is a folder: add --all to convert every file in it"])
    conversion = read_conversion(args, read_bytes)
    if isinstance(conversion, int):
        return conversion
    report(conversion, detected=args.format is None)
    if conversion.needs_fixes:
        return fail(needed_fixes(conversion))
    return emit(conversion.request, indent_of(args))
