"""Highlighted text: pieces join back to the text, and contents can never become markup."""

import html
import re
import string

from hypothesis import given, settings
from hypothesis import strategies as st

from compactor.text._words import words
from explorer.frames import safe_text as textviews
from tests.explorer.requests import HOSTILE

_TAG = re.compile(r"<[^>]*>")


def visible_text(markup: str) -> str:
    """What a browser shows of our markup: tags removed, entities decoded."""
    return html.unescape(_TAG.sub("", markup))


def test_pieces_join_back_and_flag_exactly_the_marked_words():
    text = "Where is DE-4471? Where, where!"
    pieces = textviews.segments(text, {"where", "4471"})
    assert "".join(p for p, _ in pieces) == text
    assert [p for p, marked in pieces if marked] == ["Where", "4471", "Where", "where"]


@given(st.text(max_size=200), st.sets(st.text(alphabet="abcé1", min_size=1, max_size=3)))
def test_any_text_splits_losslessly_and_marks_only_words_in_the_set(text, marked):
    pieces = textviews.segments(text, marked)
    assert "".join(p for p, _ in pieces) == text
    for piece, flag in pieces:
        if flag:
            assert words(piece) == [piece.lower()] and piece.lower() in marked


@given(st.text(max_size=300), st.sets(st.sampled_from(["script", "img", "x", "alert", "a"])))
def test_highlighted_html_shows_the_text_and_nothing_else(text, marked):
    markup = textviews.highlighted_html(text, marked)
    assert visible_text(markup) == text
    # the only tags are the explorer's own
    assert set(re.findall(r"<(/?\w+)", markup)) <= {"div", "/div", "mark", "/mark"}


def test_hostile_contents_are_escaped_in_every_builder():
    for content in HOSTILE:
        for markup in (
            textviews.highlighted_html(content, set(words(content))),
            textviews.trimmed_html(content, len(content) // 2, "hard"),
            textviews.removed_html(content),
        ):
            assert "<script" not in markup and "<img" not in markup and "<b>" not in markup
            assert visible_text(markup).replace("✂ hard cut at", "").count(content[:5]) >= 1
    markup = textviews.highlighted_html(HOSTILE[1], {"img"})
    assert "&lt;<mark" in markup and "onerror=alert(1)&gt;" in markup


def test_a_trim_shows_kept_text_the_mark_and_the_cut_off_rest_apart():
    content = "Keep this part. Cut <this> part."
    markup = textviews.trimmed_html(content, 15, "sentence")
    kept, rest = markup.split("✂ sentence cut at 15</span>")
    assert visible_text(kept).endswith("Keep this part.")
    assert "line-through" in rest
    assert visible_text(rest) == " Cut <this> part."
    assert "&lt;this&gt;" in rest


@given(st.text(min_size=1, max_size=100), st.data())
def test_a_trim_loses_no_character(content, data):
    keep = data.draw(st.integers(0, len(content)))
    markup = textviews.trimmed_html(content, keep, "hard")
    assert visible_text(markup) == content[:keep] + f"✂ hard cut at {keep:,}" + content[keep:]


@given(st.text(max_size=300))
def test_a_removed_message_shows_its_text_and_nothing_else(content):
    markup = textviews.removed_html(content)
    assert visible_text(markup) == content
    assert set(re.findall(r"<(/?\w+)", markup)) <= {"div", "/div", "span", "/span"}


def test_a_markdown_literal_escapes_every_markdown_character():
    assert textviews.markdown_literal("1. pin") == "1\\. pin"
    assert textviews.markdown_literal("#3 ≈ #1 (1.000)") == "\\#3 ≈ \\#1 \\(1\\.000\\)"
    assert textviews.markdown_literal("**b** [l](x)\n- i") == "\\*\\*b\\*\\* \\[l\\]\\(x\\) \\- i"
    assert textviews.markdown_literal("#19\u00a0≈\u00a0#3") == "\\#19\u00a0≈\u00a0\\#3"  # kept


@given(st.text(max_size=120))
def test_a_markdown_literal_leaves_no_bare_punctuation_and_reads_back(text):
    literal = textviews.markdown_literal(text)
    read, k = [], 0
    while k < len(literal):
        if literal[k] == "\\":  # an escape: the next character is punctuation, taken as is
            assert literal[k + 1] in string.punctuation
            read.append(literal[k + 1])
            k += 2
        else:
            assert literal[k] not in string.punctuation, literal
            read.append(literal[k])
            k += 1
    assert "".join(read) == re.sub(r"\s*[\r\n\v\f\x1c-\x1e\x85\u2028\u2029]+\s*", " ", text)
    assert len(literal.splitlines()) <= 1  # one line: a break would end a Markdown table cell


def test_focus_terms_are_marked_as_whole_words_and_cjk_pairs_and_the_rest_escaped():
    from explorer.frames.safe_text import term_segments, terms_html

    text = "Retry <b>budget</b> in settings; 婚礼在波尔图 RETRY."
    pieces = term_segments(text, ["retry", "set", "婚礼", "budget"])
    assert "".join(p for p, _ in pieces) == text
    assert [p for p, hit in pieces if hit] == ["Retry", "budget", "婚礼", "RETRY"]
    html = terms_html(text, ["budget", "retry"])
    assert "&lt;b&gt;" in html and "<b>" not in html
    assert html.count("<mark") == 3
    assert term_segments("", ["x"]) == [] and term_segments("abc", []) == [("abc", False)]


def every_position(text, terms):
    """term_segments' rule, the terms' pattern tried at every position (the reference)."""
    import re

    from explorer.frames.safe_text import _UNSPACED, MARKED_TERMS

    wanted = sorted({t.lower() for t in terms if t}, key=lambda t: (-len(t), t))[:MARKED_TERMS]
    if not wanted or not text:
        return [(text, False)] if text else []
    pattern = "|".join(
        re.escape(t) if _UNSPACED.search(t) else rf"(?<!\w){re.escape(t)}(?!\w)" for t in wanted
    )
    out, position = [], 0
    for found in re.finditer(pattern, text, flags=re.IGNORECASE):
        if found.start() > position:
            out.append((text[position : found.start()], False))
        out.append((found.group(), True))
        position = found.end()
    if position < len(text):
        out.append((text[position:], False))
    return out


# case-insensitive partners beyond ASCII (long s, Kelvin sign, dotless i, micro), CJK, digits
MARKABLE = list("abkisAKIS _-.\n1") + ["\u017f", "\u212a", "\u0131", "\u00b5", "\u03bc", "\u6f22"]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(MARKABLE), max_size=30).map("".join),
    st.lists(st.lists(st.sampled_from(MARKABLE), min_size=1, max_size=3).map("".join), max_size=5),
)
def test_term_segments_are_the_terms_pattern_tried_at_every_position(text, terms):
    from explorer.frames.safe_text import term_segments

    assert term_segments(text, terms) == every_position(text, terms)
