"""Escape sequences are not words: JSON-encoded tool arguments write a newline as a backslash and
an ``n`` (``\\nThe``), and neither the ``n`` nor any other escape's letters glue onto the word
after them or make an anchor of their own."""

import re

import pytest

from compactor.analyses.anchors import _finder as anchor_finder
from compactor.analyses.anchors import find_anchors
from compactor.formats import convert_text
from tests.paths import ROOT

REAL = ROOT / "tests" / "fixtures" / "real"
#: An escape sequence, with the backslashes before it.
_ESCAPE = re.compile(r'\\+(?:[ntr"]|u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2})')


def found(text: str) -> list[tuple[str, str]]:
    return [(a.text, a.kind) for a in find_anchors([text])]


def test_a_word_after_an_escape_starts_after_it():
    text = (
        r'{"command": "git commit -m \"Fix\nThe parser\nSpecifically camelCase\n'
        r'\nfoo_bar and \tDE-4471 and \r\n2024-05-17 \u00e9request_id \x1bfetchData\""}'
    )
    assert found(text) == [
        ("camelCase", "code"),
        ("foo_bar", "code"),
        ("DE-4471", "identifier"),
        ("2024-05-17", "date"),
        ("request_id", "code"),
        ("fetchData", "code"),
    ]


def test_escaped_backslashes_and_doubly_encoded_escapes_are_escapes_too():
    # JSON inside JSON doubles the backslashes; a backslash run before no escape is a boundary.
    assert found(r"a \\nThe and \\\nFor then \\data_dir and \\\\x_y") == [
        ("data_dir", "code"),
        ("x_y", "code"),
    ]


def test_a_backslash_that_starts_no_escape_is_still_a_boundary():
    assert found(r"see a\q_z and \u12_ab and C:\data\x.csv") == [
        ("q_z", "code"),
        ("u12_ab", "identifier"),
        ("C:\\data\\x.csv", "path"),
    ]


def test_the_fast_scan_reads_escapes_as_the_plain_scan_does():
    text, _ = anchor_finder.joined([r"\nThe \nfoo_bar \\nFor \u00e9x_1 \x1bDE-4471" * 2_000])
    assert len(text) > anchor_finder.PLAIN_BELOW
    plain = anchor_finder.find_matches_plainly(text)
    assert anchor_finder.find_matches(text) == plain
    assert {text[a:b] for a, b, _ in plain} == {"foo_bar", "x_1", "DE-4471"}


@pytest.mark.parametrize(
    ("name", "gone"),
    [
        # Tool arguments written as JSON: ``\nAdd``, ``\n__pycache__``, ``\n.coverage``.
        ("claude_code_coverage_fix.jsonl", {"nAdd", "nEOF", "n__pycache__", "n.coverage"}),
        # A terminal escape in a tool result: ``\r\n\x1b[31m``.
        ("claude_code_spotter_tool_heavy.jsonl", {"x1b"}),
    ],
)
def test_no_anchor_of_a_real_claude_code_session_starts_inside_an_escape(name, gone):
    contents = [m["content"] for m in convert_text((REAL / name).read_bytes()).request["messages"]]
    escapes = [[m.span() for m in _ESCAPE.finditer(c)] for c in contents]
    assert sum(map(len, escapes)) >= 6
    glued = {text for text in gone if any(f"\\{text}" in c for c in contents)}
    assert glued == gone  # each was an escape glued onto a word, in the session itself
    anchors = find_anchors(contents)
    inside = [
        (a.text, contents[i][start:end])
        for a in anchors
        for i, s, _ in a.occurrences
        for start, end in escapes[i]
        if start < s < end
    ]
    assert inside == []
    assert not gone & {a.text for a in anchors}
    # The words after the escapes are still read (``\n__pycache__`` gives ``__pycache__``).
    if name == "claude_code_coverage_fix.jsonl":
        assert "__pycache__" in {a.text for a in anchors}
