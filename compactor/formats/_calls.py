"""Reading the import's call lines back: ``[tool call NAME id=ID] ARGUMENTS`` in a message's text.

The import writes each tool call as one line of the calling message (``compactor.formats``;
the line is :mod:`compactor.text._call_line`'s): the message's own text first, a blank line,
then the calls one per line; text that came after a call follows it after a blank line.
:func:`split` finds the call lines and the text between them, so the text comes back exactly as
the import joined it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from compactor.errors import UnreadableJSON
from compactor.formats._builder import json_of
from compactor.text import CALL_LINE

#: Separators the import puts between pieces: a blank line, or a line break between two calls.
BLANK = "\n\n"


@dataclass(frozen=True)
class Call:
    """One tool call as the import wrote it."""

    name: str
    id: str | None
    arguments: Any  # the parsed JSON arguments (None when there were none)
    raw: str | None  # the arguments as written, when they were not JSON
    start: int  # where its line is in the message's content
    end: int

    @property
    def arguments_text(self) -> str:
        """The arguments as a string (OpenAI's ``function.arguments``)."""
        if self.raw is not None:
            return self.raw
        return "{}" if self.arguments is None else json.dumps(self.arguments, ensure_ascii=False)


@dataclass(frozen=True)
class Piece:
    """A run of the message's text, or one of its calls, in order."""

    text: str = ""
    call: Call | None = None


def calls_in(content: str) -> list[Call]:
    """Every call line in ``content``, in order."""
    out = []
    for match in CALL_LINE.finditer(content):
        args = match.group("args")
        arguments, raw = None, None
        if args is not None:
            try:  # strictly: NaN, say, is not JSON, and the arguments are written as written
                arguments = json_of(args)
            except UnreadableJSON:
                raw = args
        out.append(Call(match["name"], match["id"], arguments, raw, match.start(), match.end()))
    return out


def split(content: str, calls: list[Call]) -> list[Piece]:
    """``content`` as text pieces and the given ``calls`` (found in it), in order.

    Each call's line is taken out with the separator the import put before it (or after it,
    when the call comes first); the text pieces keep every other character.
    """
    pieces: list[Piece] = []
    position = 0
    previous_call = False
    for k, call in enumerate(calls):
        gap = content[position : call.start]
        if k == 0:
            gap = gap.removesuffix(BLANK)
        elif gap == "\n":
            gap = ""
        else:
            gap = gap.removeprefix(BLANK).removesuffix(BLANK)
        if gap:
            pieces.append(Piece(text=gap))
        pieces.append(Piece(call=call))
        position = call.end
        previous_call = True
    tail = content[position:]
    if previous_call:
        tail = tail.removeprefix(BLANK)
    if tail:
        pieces.append(Piece(text=tail))
    return pieces


def join(pieces: list[tuple[bool, str]]) -> str:
    """Text pieces joined as the import joined them: ``(is_call_line, text)`` in order."""
    out = ""
    for i, (is_call, text) in enumerate(pieces):
        if i:
            out += "\n" if is_call and pieces[i - 1][0] else BLANK
        out += text
    return out
