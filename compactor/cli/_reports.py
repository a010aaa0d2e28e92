"""What the commands that import say on standard error: the conversion report, the fixes still
needed, and how to pick a record from a file that holds many conversations."""

from __future__ import annotations

import sys
from collections.abc import Iterable

from compactor.contract import LIMITS
from compactor.errors import Problem
from compactor.formats import Conversion, ManyConversations


def write_lines(lines: Iterable[str]) -> None:
    """Lines on standard error (UTF-8; anything unencodable replaced)."""
    sys.stderr.buffer.write("".join(f"{line}\n" for line in lines).encode("utf-8", "replace"))
    sys.stderr.buffer.flush()


def many_problems(error: ManyConversations) -> list[Problem]:
    """The problem of a file of many conversations, with both ways forward."""
    count = len(error.collection)
    return [
        Problem(
            f"{error.problems[0].message}: a request is one conversation, so pick one with "
            f"--record N (0 to {count - 1}), or convert every record with --all (one JSON line "
            "each)"
        )
    ]


def report(conversion: Conversion, detected: bool, prefix: str = "") -> None:
    """The conversion report on standard error: how the file was read, then one line per change."""
    lossy = sum(c.lossy for c in conversion.changes)
    lines = [
        f"read as {conversion.format}{' (detected)' if detected else ''}: "
        f"{len(conversion.request['messages']):,} messages, {len(conversion.changes):,} changes "
        f"({lossy:,} lossy)"
    ]
    lines += [f"{'lossy' if c.lossy else 'note'} {c.kind}: {c.message}" for c in conversion.changes]
    write_lines(f"{prefix}{line}" for line in lines)


def needed_fixes(conversion: Conversion) -> list[str]:
    """What still needs fixing, and the flag that fixes it."""
    kinds = [c.kind for c in conversion.changes]
    lines = []
    if "too-many-messages" in kinds:
        lines.append(
            f"not converted: {len(conversion.request['messages']):,} messages are more than "
            f"{LIMITS['max_messages']}; add --keep-last to keep the last {LIMITS['max_messages']}, "
            f"--keep-first N to keep the first N too (and the last {LIMITS['max_messages']} - N), "
            "or --range A:B to keep messages #A to #B"
        )
    long = kinds.count("content-too-long")
    if long:
        lines.append(
            f"not converted: {long:,} {'content is' if long == 1 else 'contents are'} over "
            f"{LIMITS['max_content_chars']:,} characters; add --cut-long to cut "
            + ("it" if long == 1 else "them")
        )
    return lines
