"""Salient terms: the regex that skips plain words finds what checking every token finds, and
the pass over many texts finds what it finds in each; units: the cut by searches from each
piece's opening is the cut word by word."""

from hypothesis import given, settings
from hypothesis import strategies as st

from compactor.contract import SENTENCE_ENDS
from compactor.text._salient import (
    _LINE,
    _STRIP,
    _TOKEN,
    _WIDE_SPACES,
    _WORD,
    _is_salient,
    salient_terms,
    salient_terms_of,
    units,
)


def every_token_checked(text):
    out = []
    for match in _TOKEN.finditer(text):
        token = match.group()
        lead = len(token) - len(token.lstrip(_STRIP))
        token = token.strip(_STRIP)
        if token and _is_salient(token):
            out.append((match.start() + lead, match.start() + lead + len(token), token))
    return out


# digits \d misses (superscripts), camel and dotted joins, separators, stripped punctuation
CHARACTERS = list("ab_/\\@.:!?*#Aa1\u00b2\u0663 \n\"'()[]{}<>,;|=xYz-\u00e9\u6f22")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(CHARACTERS), max_size=40).map("".join))
def test_salient_terms_are_those_of_every_token(text):
    assert salient_terms(text) == every_token_checked(text)


def test_a_superscript_digit_makes_a_term():
    assert [t for _, _, t in salient_terms("x\u00b2 and plain words")] == ["x\u00b2"]


def test_a_superscript_digit_makes_a_term_among_many_texts():
    texts = ["x\u00b2 and plain words", "", "ok", "ticket DE-4471"]
    assert salient_terms_of(texts) == [salient_terms(t) for t in texts]


# beside the above: spaces beyond ASCII (the regex lets them join tokens), a lone surrogate
WIDER = CHARACTERS + ["\u00a0", "\u3000", "\u2028", "\ud800", "\t"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(WIDER), max_size=30).map("".join), max_size=6))
def test_salient_terms_of_many_texts_are_those_of_each(texts):
    assert salient_terms_of(texts) == [salient_terms(t) for t in texts]


def test_the_wide_spaces_are_those_the_regex_reads_as_spaces():
    import re

    assert [c for c in range(128, 0x3100) if re.match(r"\s", chr(c))] == _WIDE_SPACES.tolist()


def word_by_word(text, unit_chars):
    out = []
    for line in _LINE.finditer(text):
        start, end = line.span()
        if end - start <= unit_chars:
            out.append((start, end))
            continue
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


PARTS = [
    "a",
    "word",
    "x" * 30,
    " ",
    "  ",
    "\n",
    ". ",
    "!",
    "?\n",
    "\u3002",
    "\u2026 ",
    "\u00a0",
    "\t",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PARTS), max_size=60).map("".join), st.integers(1, 50))
def test_units_are_the_cut_word_by_word(text, unit_chars):
    assert units(text, unit_chars) == word_by_word(text, unit_chars)
