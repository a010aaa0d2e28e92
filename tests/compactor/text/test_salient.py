"""Salient terms: the regex that skips plain words finds what checking every token finds."""

from hypothesis import given, settings
from hypothesis import strategies as st

from compactor.text._salient import _STRIP, _TOKEN, _is_salient, salient_terms


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
