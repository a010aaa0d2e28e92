"""The text helpers: words, similarity, sentence ends and grapheme-safe cuts."""

import re
import sys

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor.text._words import (
    WHITESPACE,
    cut,
    grapheme_floor,
    jaccard,
    last_sentence_end,
    word_characters,
    word_runs,
    word_spans,
    words,
)

SENTENCE_TEXT = st.text(alphabet=list("ab .!?…。！？\n\t\u3000é"), max_size=60)


def reference_words(text):
    return re.findall(r"[^\W_]+", text.lower())


def reference_sentence_end(text, limit):
    """The contract's definition, position by position."""
    best = None
    for p in range(1, min(limit, len(text)) + 1):
        before = text[p - 1]
        if before in ".!?…。！？" and (p == len(text) or text[p].isspace() or before in "。！？"):
            best = p
    return best


def reference_grapheme_floor(text, limit):
    end = 0
    for cluster in regex.finditer(r"\X", text):
        if cluster.end() > limit:
            break
        end = cluster.end()
    return min(end, len(text)) if limit < len(text) else len(text)


def test_words_follow_the_contract_examples():
    assert words("DE-4471") == ["de", "4471"]
    assert words("03:10") == ["03", "10"]
    assert words("snake_case über-Straße ÉCOLE") == ["snake", "case", "über", "straße", "école"]
    assert words("...") == []
    assert words("会议改到周四。") == ["会议改到周四"]


@settings(max_examples=500)
@given(st.text(max_size=80))
def test_words_equal_the_regular_expression_on_any_text(text):
    assert words(text) == reference_words(text)


@settings(max_examples=500)
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=80))
def test_the_ascii_shortcut_gives_the_same_words(text):
    assert words(text) == reference_words(text)


def runs_as_words(texts):
    """What :func:`word_runs` found, as ``words`` would list it per text."""
    runs = word_runs(texts)
    found = [[] for _ in texts]
    for start, end, row in zip(runs.starts, runs.ends, runs.rows, strict=True):
        found[row].append(runs.text[start:end].lower())
    return found, runs


# Every way the lookup can go: ASCII, Latin text narrowed to one byte, UTF-16, UTF-32, a code
# point beyond the table, the two letters that lower-case with context, NUL and surrogates.
AWKWARD = [
    "ab",
    "“",
    "É",
    "ǅ",
    "会议。",
    "😀",
    "𠀀",
    "\U000e0067",
    "\U0010fffd",
    "İ",
    "Σ",
    "σ",
    "ς",
    "\x00",
    "\ud800",
    "_",
    " ",
    "é",
    "ß",
    "ﬁ",
    "١٢",
    "Ⅻ",
    "²",
]
texts = st.lists(
    st.lists(st.sampled_from(AWKWARD), max_size=12).map("".join) | st.text(max_size=40),
    min_size=1,
    max_size=6,
)


@settings(max_examples=500, deadline=None)
@given(texts)
def test_word_runs_find_the_words_of_every_text(given_texts):
    found, runs = runs_as_words(given_texts)
    assert found == [reference_words(t) for t in given_texts]
    # the code points read for words are the lower-cased text's own
    lowered = runs.text.lower()
    for start, end in zip(runs.starts, runs.ends, strict=True):
        assert [int(p) for p in runs.points[start:end]] == [ord(c) for c in lowered[start:end]]


def test_word_runs_use_the_fewest_bytes_the_words_allow():
    assert runs_as_words(["plain ASCII"])[1].unit == 1
    assert runs_as_words(["“Déjà vu”, café"])[1].unit == 1  # the quotes become spaces
    assert runs_as_words(["会议改到周四"])[1].unit == 2
    assert runs_as_words(["emoji 😀 then 𠀀"])[1].unit == 4


def test_the_word_table_is_the_regular_expression():
    table = word_characters()
    expected = [re.fullmatch(r"[^\W_]", chr(c)) is not None for c in range(len(table))]
    assert table.tolist() == expected


def test_whitespace_is_exactly_what_python_calls_whitespace():
    expected = "".join(chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace())
    assert expected == WHITESPACE


def test_word_spans_point_into_the_original_text():
    text = "Where is DE-4471?"
    assert [(text[s:e], w) for s, e, w in word_spans(text)] == [
        ("Where", "where"),
        ("is", "is"),
        ("DE", "de"),
        ("4471", "4471"),
    ]


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("the cat sat", "the cat sat", 1.0),
        ("the cat sat", "the dog sat", 0.5),
        ("one two three four", "one two three four five", 0.8),
        ("???", "???", 1.0),  # both without words, identical
        ("???", "!!!", 0.0),  # both without words, different
        ("???", "a word", 0.0),
    ],
)
def test_jaccard(a, b, expected):
    assert jaccard(set(words(a)), set(words(b)), a, b) == expected


def test_sentence_end_rules():
    assert last_sentence_end("One. Two", 8) == 4  # whitespace after the full stop
    assert last_sentence_end("v1.2 ok", 7) is None  # no whitespace after the dot
    assert last_sentence_end("Ok! Then what?? Go", 18) == 15  # "??": only the last one counts
    assert last_sentence_end("Done.", 5) == 5  # the end of the text
    assert last_sentence_end("Done.x", 5) is None  # the window end is not the text end
    assert last_sentence_end("好。然后", 4) == 2  # full-width: no space needed
    assert last_sentence_end("Hi.。", 3) is None  # '。' would end at 4 > 3; '.' has no space
    assert last_sentence_end("Wait… what", 10) == 5
    assert last_sentence_end("A.\u3000B", 4) == 2  # ideographic space is whitespace


@settings(max_examples=500)
@given(SENTENCE_TEXT, st.integers(min_value=0, max_value=70))
def test_sentence_end_matches_the_definition(text, limit):
    assert last_sentence_end(text, limit) == reference_sentence_end(text, limit)


@settings(max_examples=500)
@given(SENTENCE_TEXT, st.integers(min_value=0, max_value=70), st.integers(0, 80))
def test_sentence_end_above_a_lowest_position(text, limit, lowest):
    best = reference_sentence_end(text, limit)
    expected = best if best is not None and best >= lowest else None
    assert last_sentence_end(text, limit, lowest) == expected


@pytest.mark.parametrize(
    ("text", "limit", "expected"),
    [
        ("x" * 10 + "👨‍👩‍👧‍👦" + "tail", 12, 10),  # ZWJ family
        ("x" * 10 + "e\u0301" + "tail", 11, 10),  # combining accent
        ("x" * 10 + "🇩🇪🇫🇷" + "tail", 11, 10),  # a flag is a pair
        ("x" * 10 + "🇩🇪🇫🇷" + "tail", 13, 12),  # between two flags is fine
        ("x" * 10 + "👍🏽" + "tail", 11, 10),  # skin tone
        ("x" * 10 + "\r\n" + "tail", 11, 10),  # CR LF is one cluster
        ("abc", 10, 3),
    ],
)
def test_grapheme_floor_never_splits_a_cluster(text, limit, expected):
    assert grapheme_floor(text, limit) == expected


CLUSTER_PIECES = [
    "a",
    " ",
    "e\u0301",
    "👨‍👩‍👧",
    "🇩🇪",
    "🇫",
    "👍🏽",
    "\r\n",
    "\r",
    "\u200d",
    "한",
    "\u0308",
    "ab",
]


@settings(max_examples=500)
@given(st.lists(st.sampled_from(CLUSTER_PIECES), max_size=40).map("".join), st.integers(0, 90))
def test_grapheme_floor_matches_a_walk_from_the_start(text, limit):
    assert grapheme_floor(text, limit) == reference_grapheme_floor(text, limit)


def test_grapheme_floor_on_long_text_without_ascii_pairs():
    text = "é" * 600 + "👍🏽" + "é" * 10  # precomposed é: every code point is a cluster
    assert grapheme_floor(text, 601) == 600


def test_cut_keeps_a_sentence_in_the_last_60_percent_of_the_limit():
    text = "Short one. " + "word " * 40  # sentence boundary at 10
    assert cut(text, 20) == (10, "sentence")
    assert cut(text, 25) == (10, "sentence")  # exactly 0.4 * 25 = 10: still a sentence cut
    assert cut(text, 26) == (26, "hard")  # 10 < 0.4 * 26
    assert cut("Hi. " + "word " * 40, 20) == (20, "hard")


def test_cut_without_any_boundary_is_hard():
    assert cut("a" * 100, 80) == (80, "hard")


def test_the_lowercase_table_lowers_each_code_point_as_python_does():
    from compactor.text._words import _lowercase_table

    table = _lowercase_table()
    for c in range(0x10000):
        if c not in (0x130, 0x3A3):  # the two the table is never asked about
            assert chr(table[c]) == chr(c).lower(), hex(c)
