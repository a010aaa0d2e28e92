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
from collections.abc import Sequence

import numpy as np

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


# A word (``\S+\s*``, or a line's leading ``\s+``) that ends a sentence: its last non-space
# character is a sentence end; the match ends where the word does.
_SENTENCE_WORD = re.compile(f"[{re.escape(''.join(sorted(SENTENCE_ENDS)))}](?!\\S)\\s*")
# Read backwards from a character: the rest of the word that holds it (to the word's start).
_BACK_TO_WORD_START = re.compile(r"\s*\S*")
# Read forwards from a character: the rest of the word that holds it (to the word's end).
_ON_TO_WORD_END = re.compile(r"\S*\s*")


def _pieces(text: str, start: int, end: int, unit_chars: int) -> list[tuple[int, int]]:
    """A long line cut between words: a piece closes at a sentence end, or before the word that
    would take it past ``unit_chars``.

    Word by word, the first of these closes the open piece: the word that would take it past
    ``unit_chars`` (it starts the next piece, unless it is the piece's first word), or a word
    that ends a sentence once the piece is a quarter of ``unit_chars`` long (it ends the
    piece). Both are found by a search from where the piece opens, not by a step per word:
    the first is the word that holds the piece's character ``unit_chars`` (or the word after
    it, when that one opens the piece); the second is the first sentence end from there on.
    """
    out: list[tuple[int, int]] = []
    backwards = None  # the line read backwards, made when first needed
    open_at = start
    quarter = unit_chars // 4
    while open_at < end:
        ends_sentence = None
        at = open_at
        while (found := _SENTENCE_WORD.search(text, at, end)) is not None:
            if found.end() - open_at >= quarter:
                ends_sentence = found.end()
                break
            at = found.end()
        overflows = None
        past = open_at + unit_chars
        # A sentence end at or before ``past`` closes the piece: it is a word's start (its
        # spaces are part of it), so the word that holds ``past`` starts there or later, and
        # would not close the piece sooner.
        if past < end and (ends_sentence is None or ends_sentence > past):
            if backwards is None:
                backwards = text[start:end][::-1]
            word_start = end - _BACK_TO_WORD_START.match(backwards, end - 1 - past).end()
            if word_start > open_at:
                overflows = word_start
            else:  # the piece's first word is too long alone: the next word starts anew
                word_end = _ON_TO_WORD_END.match(text, past, end).end()
                overflows = word_end if word_end < end else None
        if overflows is not None and (ends_sentence is None or overflows < ends_sentence):
            out.append((open_at, overflows))
            open_at = overflows
        elif ends_sentence is not None:
            out.append((open_at, ends_sentence))
            open_at = ends_sentence
        else:
            break
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


def salient_terms_of(texts: Sequence[str]) -> list[list[tuple[int, int, str]]]:
    """:func:`salient_terms` of each of ``texts`` (the same lists), found in one pass over them
    all: the tokens that may be salient are told apart by arrays over the characters, not by a
    regex step per character, and :func:`_is_salient` decides on them as before.

    A token that may be salient is a run of token characters holding one of :data:`_MAYBE`'s
    marks (a digit, ``_ / \\ @``, a camel or dotted join, a character beyond ASCII). A text
    with a space beyond ASCII (no-break space, ...) is read by :data:`_MAYBE` itself, which
    lets such a space join the tokens beside it.

    >>> salient_terms_of(["ask ann_lee", "", "at 03:10."])
    [[(4, 11, 'ann_lee')], [], [(3, 8, '03:10')]]
    """
    out: list[list[tuple[int, int, str]]] = [[] for _ in texts]
    if not any(texts):
        return out
    joined = "\n".join(texts)  # a line break ends every token: no run crosses two texts
    starts = np.cumsum([0] + [len(t) + 1 for t in texts[:-1]])
    odd: set[int] = set()
    plain = joined.isascii()
    if plain:  # one byte per character, each its own flags' index
        flags = np.frombuffer(joined.encode("ascii").translate(_FLAG_BYTES), dtype=np.uint8)
    else:
        points = np.frombuffer(joined.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        flags = _FLAGS[np.minimum(points, 128)]
        wide = np.flatnonzero(points >= 128)
        spaces = wide[np.isin(points[wide], _WIDE_SPACES)]
        odd = set((np.searchsorted(starts, spaces, side="right") - 1).tolist())
    marked = (flags & _MARK) != 0
    lower, upper = (flags & _LOWER) != 0, (flags & _UPPER) != 0
    marked[:-1] |= lower[:-1] & upper[1:]
    joins = (flags & _JOINS) != 0
    marked[:-2] |= joins[:-2] & ((flags[1:-1] & _DOT) != 0) & joins[2:]
    # the runs of token characters: where the flag changes, a start and an end in turn
    token = np.zeros(len(flags) + 2, dtype=bool)
    token[1:-1] = (flags & _TOKEN_CHAR) != 0
    edges = np.flatnonzero(token[1:] != token[:-1])
    run_starts, run_ends = edges[0::2], edges[1::2]
    # a run that holds a mark: the largest flag over each run and each gap between runs, read
    # at once over the starts and ends in turn (one pass over the characters, not a search)
    keep = _any_within(marked, edges)
    run_starts, run_ends = run_starts[keep], run_ends[keep]
    if odd:  # those texts are read by _MAYBE itself, below
        kept = ~np.isin(np.searchsorted(starts, run_starts, side="right") - 1, list(odd))
        run_starts, run_ends = run_starts[kept], run_ends[kept]
    # each token stripped of the _STRIP characters at its ends: from its first to its last
    # token character that is not one of them (none: nothing is left of it). Inside a run every
    # character is a token character, so a stripped end is a run of _STRIP characters: its
    # other end is where the token begins (ends); the _STRIP runs are few, the tokens many.
    stripped = (flags & _STRIPPED) != 0
    strip_edges = np.flatnonzero(np.diff(stripped, prepend=False, append=False))
    strip_starts, strip_ends = strip_edges[0::2], strip_edges[1::2]
    begins, ends = run_starts.copy(), run_ends.copy()
    lead = np.flatnonzero(stripped[run_starts])
    if len(lead):
        run = np.searchsorted(strip_starts, run_starts[lead], side="right") - 1
        begins[lead] = np.minimum(strip_ends[run], run_ends[lead])
    trail = np.flatnonzero(stripped[run_ends - 1])
    if len(trail):
        run = np.searchsorted(strip_starts, run_ends[trail] - 1, side="right") - 1
        ends[trail] = np.maximum(strip_starts[run], run_starts[trail])
    left = begins < ends
    run_starts, run_ends, begins, ends = run_starts[left], run_ends[left], begins[left], ends[left]
    # a token with an ASCII digit is salient when two characters long at least (the first
    # rule of :func:`_is_salient`; stripping takes no digit): no need to ask it
    numbered = _any_within((flags & _DIGIT) != 0, np.stack([run_starts, run_ends], 1).ravel())
    salient = numbered & (ends - begins >= 2)
    # in ASCII text a run without an ASCII digit holds no digit at all
    asked = np.flatnonzero(~numbered)
    rule = _is_salient_word if plain else _is_salient
    answers = [
        rule(joined[a:b]) for a, b in zip(begins[asked].tolist(), ends[asked].tolist(), strict=True)
    ]
    salient[asked[np.array(answers, dtype=bool)]] = True
    begins, ends = begins[salient], ends[salient]
    owners = np.searchsorted(starts, begins, side="right") - 1
    offsets = starts[owners]
    # every term made at once, then each text's run of them sliced out (the terms are in order)
    words = [joined[a:b] for a, b in zip(begins.tolist(), ends.tolist(), strict=True)]
    made = list(zip((begins - offsets).tolist(), (ends - offsets).tolist(), words, strict=True))
    held = np.flatnonzero(np.diff(owners, prepend=-1, append=len(texts)))
    for first, stop in zip(held[:-1].tolist(), held[1:].tolist(), strict=True):
        out[int(owners[first])] = made[first:stop]
    for owner in odd:
        out[owner] = salient_terms(texts[owner])
    return out


# Each ASCII character's marks (index 128: every character beyond ASCII), for
# :func:`salient_terms_of`: a token character (not a space, not ``"'`()[]{}<>,;|=``), a mark on
# its own (a digit, ``_ / \\ @``, beyond ASCII), a lower or upper case letter (a camel join),
# a letter or ``_`` on either side of a dot (a dotted join), a dot, an ASCII digit, one of the
# characters a token is stripped of at its ends (``_STRIP``).
_TOKEN_CHAR, _MARK, _LOWER, _UPPER, _JOINS, _DOT, _DIGIT = 1, 2, 4, 8, 16, 32, 64
_STRIPPED = 128  # one of the _STRIP characters a token is stripped of


def _flags() -> np.ndarray:
    flags = np.zeros(129, dtype=np.uint8)
    for code in range(128):
        char = chr(code)
        flags[code] = (
            _TOKEN_CHAR * (_TOKEN.fullmatch(char) is not None)
            | _MARK * (char.isdigit() or char in "_/\\@")
            | _LOWER * ("a" <= char <= "z")
            | _UPPER * ("A" <= char <= "Z")
            | _JOINS * (char.isalpha() or char == "_")
            | _DOT * (char == ".")
            | _DIGIT * ("0" <= char <= "9")
            | _STRIPPED * (char in _STRIP)
        )
    flags[128] = _TOKEN_CHAR | _MARK
    return flags


_FLAGS = _flags()
#: Each ASCII byte's flags as a translation table (bytes.translate reads them at C speed).
_FLAG_BYTES = bytes(_FLAGS[:128].tolist()) + bytes(128)


def _any_within(mask: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    """Per ``[bounds[2j], bounds[2j + 1])`` (bounds increasing, none past ``len(mask)``), whether
    ``mask`` holds a true value there: ``np.maximum.reduceat`` over the bounds (each gap between
    two spans is reduced too, then left out)."""
    if not len(bounds):
        return np.zeros(0, dtype=bool)
    padded = np.zeros(len(mask) + 1, dtype=np.uint8)
    padded[:-1] = mask
    return np.maximum.reduceat(padded, bounds)[0::2].astype(bool)


#: The spaces beyond ASCII (``\\s`` and :meth:`str.isspace` agree on them; the last is U+3000).
_WIDE_SPACES = np.array([c for c in range(128, 0x3001) if chr(c).isspace()], dtype=np.uint32)


def _is_salient(token: str) -> bool:
    if any(c.isdigit() for c in token):
        return len(token) >= 2
    if len(token) < 4 or not any(c.isalpha() for c in token):
        return False
    return _code_like(token)


def _is_salient_word(token: str) -> bool:
    """:func:`_is_salient` of an ASCII token without a digit (a letter is then ``A-Za-z``)."""
    return len(token) >= 4 and _LETTER.search(token) is not None and _code_like(token)


_LETTER = re.compile("[A-Za-z]")


def _code_like(token: str) -> bool:
    return (
        "_" in token.strip("_")
        or "/" in token
        or "\\" in token
        or "@" in token
        or _CAMEL.search(token) is not None
        or _DOTTED.search(token) is not None
    )
