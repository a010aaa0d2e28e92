"""Message text made safe to show: HTML with highlights in which every character of the content
is escaped, and Markdown literals.

Contents are untrusted: a message may hold ``<script>``, ``<img onerror=...>``, Markdown links or
LaTeX. Only these helpers build HTML from contents, and they pass every piece of content through
``html.escape`` (quotes included); the only markup is the explorer's own ``<span>`` and ``<mark>``
with fixed styles. ``st.html`` also sanitises with DOMPurify and runs no JavaScript, but the
escaping alone must make the text inert: the tests check it without a browser.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Collection, Iterator

from compactor.text import word_spans
from explorer.theme import CUT_TEXT_BACKGROUND, SHARED_WORD_BACKGROUND

_BOX = (
    "white-space: pre-wrap; overflow-wrap: anywhere; font-family: inherit; line-height: 1.55; "
    "padding: 0.6rem 0.8rem; border: 1px solid rgba(49, 51, 63, 0.2); border-radius: 0.5rem; "
    "max-height: {height}px; overflow-y: auto; margin: 0;"
)
_MARK = f"background: {SHARED_WORD_BACKGROUND}; color: inherit; padding: 0 1px; border-radius: 2px;"
_CUT = (
    f"background: {CUT_TEXT_BACKGROUND}; color: #6b6b6b; text-decoration: line-through; "
    "text-decoration-color: rgba(0, 0, 0, 0.35);"
)
_REMOVED = "opacity: 0.5;"
_SCISSORS = "font-weight: 600; color: #8a5a00; padding: 0 0.25rem; white-space: nowrap;"


def segments(text: str, marked: Collection[str]) -> list[tuple[str, bool]]:
    """``text`` split into pieces, each flagged when it is a word in ``marked``.

    Words are the engine's (``compactor.text.word_spans``, lower-cased for the comparison); the
    pieces join back to ``text`` exactly.
    """
    out: list[tuple[str, bool]] = []
    position = 0
    for start, end, word in word_spans(text):
        if word not in marked:
            continue
        if start > position:
            out.append((text[position:start], False))
        out.append((text[start:end], True))
        position = end
    if position < len(text):
        out.append((text[position:], False))
    return _merge(out)


def _merge(pieces: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    merged: list[tuple[str, bool]] = []
    for text, flag in pieces:
        if merged and merged[-1][1] == flag and not flag:
            merged[-1] = (merged[-1][0] + text, flag)
        else:
            merged.append((text, flag))
    return merged


def escape(text: str) -> str:
    return html.escape(text, quote=True)


def box(inner: str, height: int = 320) -> str:
    """A scrolling, wrapping text box around already-escaped HTML."""
    return f'<div style="{_BOX.format(height=height)}">{inner}</div>'


def highlighted_html(text: str, marked: Collection[str], height: int = 320) -> str:
    """``text`` with the words in ``marked`` highlighted; everything else escaped text."""
    inner = "".join(
        f'<mark style="{_MARK}">{escape(piece)}</mark>' if flag else escape(piece)
        for piece, flag in segments(text, marked)
    )
    return box(inner, height)


def trimmed_html(content: str, keep: int, kind: str, height: int = 320) -> str:
    """A trimmed message: the kept prefix as is, a scissors mark, the cut-off rest struck out."""
    kept, cut = content[:keep], content[keep:]
    label = "sentence cut" if kind == "sentence" else "hard cut"
    marker = (
        f'<span style="{_SCISSORS}" title="{escape(label)}">✂ {escape(label)} at {keep:,}</span>'
    )
    return box(f'{escape(kept)}{marker}<span style="{_CUT}">{escape(cut)}</span>', height)


def removed_html(content: str, height: int = 320) -> str:
    """A removed message: all of it greyed out (faded, so it reads on either theme)."""
    return box(f'<span style="{_REMOVED}">{escape(content)}</span>', height)


_LINE_BREAKS = re.compile(r"\s*[\r\n\v\f\x1c-\x1e\x85\u2028\u2029]+\s*")
_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def markdown_literal(text: str) -> str:
    """``text`` for a place that renders Markdown (``st.table`` cells): every ASCII punctuation
    character backslash-escaped (CommonMark's escapes), line breaks as spaces, so the explorer's
    own words read as written ("1. pin" stays a label, not a list).

    Not a way to show message content: GitHub Markdown still links a bare URL. Content goes
    through ``st.dataframe``, ``st.text``, ``st.code`` or the HTML helpers above.
    """
    flat = _LINE_BREAKS.sub(" ", text)
    return "".join("\\" + c if c in _PUNCTUATION else c for c in flat)


#: The most terms :func:`terms_html` marks (a focus may have thousands).
MARKED_TERMS = 200


def term_segments(text: str, terms: Collection[str]) -> list[tuple[str, bool]]:
    """``text`` split into pieces, each flagged when it is an occurrence of one of ``terms``
    (case-insensitive): a term of word characters as a whole word, a term of a script without
    spaces (a Chinese or Japanese character pair, as focus's relevance reads it) wherever it
    occurs. The pieces join back to ``text`` exactly."""
    matcher = _matcher(tuple(terms)) if text else None
    if matcher is None:
        return [(text, False)] if text else []
    out: list[tuple[str, bool]] = []
    position = 0
    for found in _occurrences(*matcher, text):
        if found.start() > position:
            out.append((text[position : found.start()], False))
        out.append((found.group(), True))
        position = found.end()
    if position < len(text):
        out.append((text[position:], False))
    return out


@functools.lru_cache(maxsize=16)
def _matcher(terms: tuple[str, ...]) -> tuple[re.Pattern[str], set[str] | None, bool] | None:
    """For :func:`term_segments`, once per set of terms (a page marks many texts with one): the
    pattern of the :data:`MARKED_TERMS` longest terms (a term of word characters as a whole
    word, one of a script without spaces anywhere), case-insensitive; the terms in lower case
    when all are ASCII; whether all are words (word characters, none of a script without
    spaces). None when there is no term."""
    wanted = sorted({t.lower() for t in terms if t}, key=lambda t: (-len(t), t))[:MARKED_TERMS]
    if not wanted:
        return None
    pattern = "|".join(
        re.escape(t) if _UNSPACED.search(t) else rf"(?<!\w){re.escape(t)}(?!\w)" for t in wanted
    )
    words = not any(_UNSPACED.search(t) or not _WORD_RUN.fullmatch(t) for t in wanted)
    lowered = set(wanted) if all(t.isascii() for t in wanted) else None
    return re.compile(pattern, re.IGNORECASE), lowered, words


def _occurrences(
    compiled: re.Pattern[str], lowered: set[str] | None, words: bool, text: str
) -> Iterator[re.Match[str]]:
    """The matches of ``compiled`` (the terms, case-insensitive) in ``text``, left to right.

    When every term is a word, an occurrence is a whole run of word characters (a character
    that matches a word character case-insensitively is one), so each run is looked up instead
    of trying two hundred terms at every position: an ASCII run among ASCII terms by its lower
    case, any other by the pattern itself on that run. The same matches, one step per word.
    """
    if not words:
        yield from compiled.finditer(text)
        return
    for run in _WORD_RUN.finditer(text):
        word = run.group()
        if lowered is not None and word.isascii():
            if word.lower() in lowered:
                yield run
        else:
            found = compiled.fullmatch(text, run.start(), run.end())
            if found is not None:
                yield found


_WORD_RUN = re.compile(r"\w+")
_UNSPACED = re.compile(
    "[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]"
)


def terms_html(text: str, terms: Collection[str], height: int = 320) -> str:
    """``text`` with the occurrences of ``terms`` highlighted (:func:`term_segments`);
    everything else escaped text."""
    inner = "".join(
        f'<mark style="{_MARK}">{escape(piece)}</mark>' if flag else escape(piece)
        for piece, flag in term_segments(text, terms)
    )
    return box(inner, height)
