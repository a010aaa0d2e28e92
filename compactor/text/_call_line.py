"""The import's call line, ``[tool call NAME id=ID] ARGUMENTS``: its one pattern, one writer.

The import writes each tool call as one line of the calling message's text (``compactor.formats``),
the export reads the lines back into structured calls (``compactor.formats``), the peers'
strategies clear and prune them (``compactor.strategies._tool_uses``), and the markup analysis
counts the words of their heads (``compactor.analyses._markup``). The line is defined here, below
all of them, so that they cannot drift apart.

>>> line = call_line("get_weather", "call_1", '{"city": "Porto"}')
>>> line
'[tool call get_weather id=call_1] {"city": "Porto"}'
>>> match = CALL_LINE.fullmatch(line)
>>> match["name"], match["id"], match["args"]
('get_weather', 'call_1', '{"city": "Porto"}')
"""

from __future__ import annotations

import re

# The head: the tool's name and the call's id, neither holding a space or a closing bracket.
_HEAD = r"\[tool call (?P<name>[^\s\]]+)(?: id=(?P<id>[^\s\]]+))?\]"
#: A whole call line (multi-line mode): the head, then a space and the arguments when there are
#: any (``args``: the rest of the line).
CALL_LINE = re.compile(rf"^{_HEAD}(?: (?P<args>[^\n]*))?$", re.MULTILINE)
#: A call's head wherever it stands, with ``name`` and ``id``: the markup's own words.
CALL_HEAD = re.compile(_HEAD)


def call_head(name: str, call_id: str | None = None) -> str:
    """``[tool call NAME id=ID]``, or ``[tool call NAME]`` without an id."""
    return f"[tool call {name}" + (f" id={call_id}" if call_id else "") + "]"


def call_line(name: str, call_id: str | None, arguments: str | None) -> str:
    """A call line: the head, then a space and ``arguments`` (one line of text) when given."""
    head = call_head(name, call_id)
    return head if arguments is None else f"{head} {arguments}"
