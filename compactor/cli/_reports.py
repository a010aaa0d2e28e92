"""What the commands that import say on standard error: the conversion report, the fixes still
needed, and how to pick a record from a file that holds many conversations."""

from __future__ import annotations

import sys
from collections import Counter
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


#: The changes said on their own line even without ``--verbose``: the window a user chose says
#: exactly which messages were left out (one line at most per conversion).
ALWAYS_LISTED = frozenset({"kept-last", "kept-window"})


def summary(conversion: Conversion, detected: bool) -> str:
    """One line: how the file was read, its changes counted, the lossy ones by kind (most
    first), and how to list them (issue 40: a real session made 217 lines of notes)."""
    changes = conversion.changes
    head = (
        f"read as {conversion.format}{' (detected)' if detected else ''}: "
        f"{len(conversion.request['messages']):,} messages"
    )
    if not changes:
        return f"{head}, no changes"
    lossy = Counter(c.kind for c in changes if c.lossy)
    said = f"{head}, {len(changes):,} change{'s' if len(changes) != 1 else ''}"
    if lossy:
        kinds = ", ".join(f"{kind} {count:,}" for kind, count in lossy.most_common())
        said += f", {lossy.total():,} of them lossy ({kinds})"
    else:
        said += ", none lossy"
    return f"{said}; --verbose lists them"


def report(conversion: Conversion, detected: bool, prefix: str = "", verbose: bool = False) -> None:
    """The conversion report on standard error: one summary line, then the window a user chose
    (:data:`ALWAYS_LISTED`); with ``verbose``, one line per change."""
    lines = [summary(conversion, detected)]
    listed = [c for c in conversion.changes if verbose or c.kind in ALWAYS_LISTED]
    lines += [f"{'lossy' if c.lossy else 'note'} {c.kind}: {c.message}" for c in listed]
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
