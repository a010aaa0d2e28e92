"""``python -m compactor import FILE``: a conversation in another format as a request."""

from __future__ import annotations

import argparse
import sys

from compactor.cli.io import (
    add_indent_argument,
    add_input_argument,
    emit,
    fail,
    indent_of,
    read_bytes,
)
from compactor.contract import LIMITS
from compactor.errors import FormatError, UnreadableJSON
from compactor.formats import FORMATS, Conversion, apply_fixes, convert_text

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
    add_indent_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        conversion = convert_text(read_bytes(args.file), args.format)
    except (UnreadableJSON, FormatError) as error:
        return fail(error.problems)
    if args.keep_last or args.cut_long:
        conversion = apply_fixes(conversion, keep_last=args.keep_last, cut_long=args.cut_long)
    report(conversion, detected=args.format is None)
    if conversion.needs_fixes:
        return fail(needed_fixes(conversion))
    return emit(conversion.request, indent_of(args))


def report(conversion: Conversion, detected: bool) -> None:
    """The conversion report on standard error: how the file was read, then one line per change."""
    lossy = sum(c.lossy for c in conversion.changes)
    lines = [
        f"read as {conversion.format}{' (detected)' if detected else ''}: "
        f"{len(conversion.request['messages']):,} messages, {len(conversion.changes):,} changes "
        f"({lossy:,} lossy)"
    ]
    lines += [f"{'lossy' if c.lossy else 'note'} {c.kind}: {c.message}" for c in conversion.changes]
    sys.stderr.buffer.write("".join(f"{line}\n" for line in lines).encode("utf-8", "replace"))
    sys.stderr.buffer.flush()


def needed_fixes(conversion: Conversion) -> list[str]:
    """What still needs fixing, and the flag that fixes it."""
    kinds = [c.kind for c in conversion.changes]
    lines = []
    if "too-many-messages" in kinds:
        lines.append(
            f"not converted: {len(conversion.request['messages']):,} messages are more than "
            f"{LIMITS['max_messages']}; add --keep-last to keep the last {LIMITS['max_messages']}"
        )
    long = kinds.count("content-too-long")
    if long:
        lines.append(
            f"not converted: {long:,} {'content is' if long == 1 else 'contents are'} over "
            f"{LIMITS['max_content_chars']:,} characters; add --cut-long to cut "
            + ("it" if long == 1 else "them")
        )
    return lines
