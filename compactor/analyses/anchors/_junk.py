"""Matches of the anchor pattern that are not anchors (SPEC part C, issue 36): the pattern reads
them as code or paths, but no later turn needs them as facts of the conversation.

- **a tool call's argument keys**: on a call line ``[tool call NAME id=ID] {json}``, a match that
  is a JSON key (``"file_path":``, ``"old_string":``, ``"replace_all":``) is the shape of the
  call, not its content; its value (``"src/a.py"``) stays an anchor. Every ``Edit`` call of a
  Claude Code session repeats ``file_path``, ``old_string``, ``new_string``, so any strategy that
  kept one call met them all.
- **the call's id** in the head ``[tool call NAME id=ID]``: the product's own markup, pairing
  a call with its result (the tool's NAME stays: a later call of it uses what the tools list
  said).
- **markup tags**: a match that is the name of a tag, right after ``<`` and before ``>``
  (``</system-reminder>`` reads as the path ``/system-reminder``; ``<tool_use_error>`` as code):
  the tags a host injects around its own blocks.
- **escape-sequence remains**: a drive path whose part after ``X:`` is only escape sequences
  (``a:\\n`` in JSON-encoded text, read as the Windows path ``a:\\n``).

Dropping a match drops that occurrence only: ``file_path`` written in prose is still an anchor.

>>> from compactor.analyses.anchors._finder import find_anchors
>>> texts = ['[tool call Edit id=t1] {"file_path": "src/app/main.py", "replace_all": false}',
...          "<system-reminder>x</system-reminder> see src/app/main.py and a:\\\\n"]
>>> [a.text for a in find_anchors(texts)]
['src/app/main.py']
"""

from __future__ import annotations

import re

import numpy as np

from compactor.text import CALL_HEAD, CALL_LINE

_ESCAPES = re.compile(r'\\+(?:u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2}|[ntr"\\/bf])')
_DRIVE = re.compile(r"[A-Za-z]:\\")
_KEY_END = re.compile(r'"\s*:')
_TAG = re.compile(r"/?[A-Za-z][\w-]*")


def junk_matches(text: str, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Which of the matches ``text[start:end]`` (sorted by start) are not anchors."""
    junk = np.zeros(len(start), dtype=bool)
    if not len(start):
        return junk
    starts, ends = start.tolist(), end.tolist()
    codes = np.frombuffer((" " + text + "   ").encode("utf-32-le"), np.uint32)  # codes[i + 1]
    before, after = codes[start], codes[end + 1]
    lt, gt, slash = ord("<"), ord(">"), ord("/")
    tag = (before == lt) | ((before == slash) & (codes[np.maximum(start - 1, 0)] == lt))
    maybe = tag | ((codes[start + 2] == ord(":")) & (codes[start + 3] == ord("\\")))
    for k in np.flatnonzero(maybe).tolist():
        a, b = starts[k], ends[k]
        if tag[k] and (after[k] == gt or chr(after[k]).isspace()) and _TAG.fullmatch(text, a, b):
            junk[k] = True  # <tag ...>, </tag>, or the path /tag read from </tag>
        elif _DRIVE.match(text, a) and not re.search(r"\w", _ESCAPES.sub("", text[a + 2 : b])):
            junk[k] = True
    for head in CALL_HEAD.finditer(text):  # the call's id is the markup's (its name is a fact)
        if head["id"] is not None:
            first, last = np.searchsorted(start, (head.start("id"), head.end("id")))
            junk[first:last] = True
    for line in CALL_LINE.finditer(text):
        if line["args"] is None:
            continue
        lo, hi = line.start("args"), line.end("args")
        first, last = np.searchsorted(start, (lo, hi))
        for k in range(int(first), int(last)):
            a, b = starts[k], ends[k]
            if text[a - 1] == '"' and text[a - 2] != "\\" and _KEY_END.match(text, b):
                junk[k] = True
    return junk
