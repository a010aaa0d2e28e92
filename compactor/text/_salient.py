"""Units and salient terms of a text: the pieces a span-keeping strategy chooses among, and the
strings in them a later turn may need verbatim.

A text is cut into *units*: its lines (each with its line break), and a line longer than
``unit_chars`` further at sentence ends and then between words, so that every unit but a single
overlong word fits. The units cover the text without gap or overlap, in order.

A *salient term* is a whitespace-delimited token, stripped of surrounding quotes, brackets and
punctuation, that looks like something one copies rather than rephrases: it holds a digit (an
id, an amount, a time, a date), or it is code-like (``snake_case``, ``camelCase``,
``dotted.name``, a path, a URL, an e-mail address). This is a cheap stand-in for the anchor
finder of the analyses (which sit above the strategies and judge them): close to it, never
read from it, so that no strategy keeps exactly what its judge counts (docs/layout.md, "Each
rule in one place").
"""

from __future__ import annotations

import functools
import re

from compactor.contract import SENTENCE_ENDS

#: Units longer than this are cut at sentence ends, then between words.
UNIT_CHARS = 160

_LINE = re.compile(r"[^\n]*\n|[^\n]+")
_WORD = re.compile(r"\S+\s*|\s+")
_TOKEN = re.compile(r"[^\s\"'`()\[\]{}<>,;|=]+")
_STRIP = ".:!?*#"
_CAMEL = re.compile(r"[a-z][A-Z]")
_DOTTED = re.compile(r"[A-Za-z_]\.[A-Za-z_]")
# The tokens that may be salient: those holding a digit, ``_ / \ @``, a camel or dotted join,
# or any character beyond ASCII (a digit ``isdigit`` knows and ``\d`` does not). Most tokens
# are plain words; the regex skips them without a Python step each, and :func:`_is_salient`
# decides on the few left, so the terms are those of every token checked.
_CHARS = r"[^\s\"'`()\[\]{}<>,;|=]"
_MAYBE = re.compile(
    rf"(?<!{_CHARS}){_CHARS}*?(?:\d|[_/\\@]|[A-Za-z_]\.[A-Za-z_]|[a-z][A-Z]|[^\x00-\x7f]){_CHARS}*"
)


#: How many texts (and text, unit size pairs) the memos below keep: a tuner runs a strategy on
#: the same conversations trial after trial, and these are pure functions of their arguments.
MEMO_SIZE = 1 << 16


def units(text: str, unit_chars: int = UNIT_CHARS) -> list[tuple[int, int]]:
    """``(start, end)`` of each unit of ``text``, in order, covering it exactly (remembered
    for the last :data:`MEMO_SIZE` texts and unit sizes).

    >>> units("One. Two.\\nThree")
    [(0, 10), (10, 15)]
    """
    return list(_units(text, unit_chars))


@functools.lru_cache(maxsize=MEMO_SIZE)
def _units(text: str, unit_chars: int) -> tuple[tuple[int, int], ...]:
    out: list[tuple[int, int]] = []
    for line in _LINE.finditer(text):
        if line.end() - line.start() <= unit_chars:
            out.append(line.span())
        else:
            out.extend(_pieces(text, line.start(), line.end(), unit_chars))
    return tuple(out)


def _pieces(text: str, start: int, end: int, unit_chars: int) -> list[tuple[int, int]]:
    """A long line cut between words: a piece closes at a sentence end, or before the word that
    would take it past ``unit_chars``."""
    out: list[tuple[int, int]] = []
    open_at = start
    for word in _WORD.finditer(text, start, end):
        if word.start() > open_at and word.end() - open_at > unit_chars:
            out.append((open_at, word.start()))
            open_at = word.start()
        token = word.group().rstrip()
        if token and token[-1] in SENTENCE_ENDS and word.end() - open_at >= unit_chars // 4:
            out.append((open_at, word.end()))
            open_at = word.end()
    if open_at < end:
        out.append((open_at, end))
    return out


def salient_terms(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, term)`` of each salient term of ``text``, in order (remembered for the
    last :data:`MEMO_SIZE` texts).

    >>> [t for _, _, t in salient_terms("Ticket DE-4471 in src/app.py, ask ann_lee at 03:10.")]
    ['DE-4471', 'src/app.py', 'ann_lee', '03:10']
    """
    return list(_salient_terms(text))


@functools.lru_cache(maxsize=MEMO_SIZE)
def _salient_terms(text: str) -> tuple[tuple[int, int, str], ...]:
    out = []
    for match in _MAYBE.finditer(text):
        token = match.group()
        lead = len(token) - len(token.lstrip(_STRIP))
        token = token.strip(_STRIP)
        if token and _is_salient(token):
            start = match.start() + lead
            out.append((start, start + len(token), token))
    return tuple(out)


def _is_salient(token: str) -> bool:
    if any(c.isdigit() for c in token):
        return len(token) >= 2
    if len(token) < 4 or not any(c.isalpha() for c in token):
        return False
    return (
        "_" in token.strip("_")
        or "/" in token
        or "\\" in token
        or "@" in token
        or _CAMEL.search(token) is not None
        or _DOTTED.search(token) is not None
    )
