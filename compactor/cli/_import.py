"""``python -m compactor import FILE``: a conversation in another format as a request."""

from __future__ import annotations

import argparse
from pathlib import Path

from compactor.cli._commands import help_of
from compactor.cli._io import (
    add_indent_argument,
    add_input_argument,
    emit,
    fail,
    indent_of,
    reports_bad_input,
)
from compactor.cli._records import add_fix_arguments, add_source_arguments, import_all, read_input
from compactor.contract import LIMITS
from compactor.formats import FORMATS

FORMAT_LIST = "\n".join(f"  {name:<11} {entry.label}" for name, entry in FORMATS.items())
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
beyond that is not fixed silently: unless you choose the fixes, nothing is printed on standard
output, the report lists what needs fixing and which flag fixes it, and the exit code is 2.
--keep-last keeps the last 200 messages; --keep-first N keeps the first N too (a session's
instructions and task) and the last 200 - N; --keep-first N --keep-last M the first N and the
last M; --range A:B messages #A to #B. The report names the messages left out (#10 to #503) and
their characters. --cut-long cuts contents over the length limit. --agent prints the whole
conversation instead, a request of the agent mode (`compact --agent` takes it; the fixes become
options): any number of messages, contents of any length.

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
        help=help_of("import"),
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_input_argument(parser)
    add_source_arguments(parser, every=True)
    add_fix_arguments(parser)
    parser.add_argument(
        "--agent",
        action="store_true",
        help="print the whole conversation, a request of the agent mode: no window or cut needed",
    )
    add_indent_argument(parser)
    parser.set_defaults(run=run)


def _never(data: object, args: argparse.Namespace) -> bool:
    return False  # a request is imported too: its changes are reported


@reports_bad_input
def run(args: argparse.Namespace) -> int:
    if args.all:
        return import_all(args)
    if Path(args.file).is_dir():
        return fail([f"{args.file} is a folder: add --all to convert every file in it"])
    return emit(read_input(args, as_sent=_never, limits=not args.agent).request, indent_of(args))
