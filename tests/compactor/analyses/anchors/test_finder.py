"""The anchor finder's segment scan against its two references: the plain scan over all of the
text (the definition) and the previous finder (runs of trigger chunks, kept in
``previous_finder``), on random texts made of the shapes each shortcut decides, and on
every real conversation; and the arrays ``anchor_report`` reads straight from the finder."""

import re

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from compactor import run, validate
from compactor.analyses.anchors import _finder as anchor_finder
from compactor.analyses.anchors._report import anchor_report, find_anchors
from compactor.analyses.anchors._segments import open_tail
from tests.compactor.analyses.anchors import previous_finder as previous
from tests.compactor.analyses.anchors.test_report import PIECES, REAL

EXAMPLES = settings(max_examples=300, deadline=None)

#: What each shortcut decides, and its near misses (a field out of range, one more character).
SHAPES = [
    "2025-03-14T07:32:49Z",
    "2025-13-14T07:32:49Z",
    "2025-03-14T24:32:49Z",
    "2025-03-14T07:32:49+01:00",
    "2024-05-17",
    "14:00",
    "9:30",
    "24:00",
    "12:61",
    "03:10:59",
    "Monday",
    "Sunday",
    "Mondays",
    "May",
    "Sept",
    "Jan",
    "USD",
    "EUR",
    "request_id",
    "latency_ms",
    "camelCase",
    "PixelRepresentation",
    "4f9a2b",
    "0aff6caf2024",
    "809123920f05",
    "EZ-8093",
    "JG7FMM",
    "v1.2.3",
    "e.g",
    "U.S.A",
    "a.b_c",
    "x_",
    "1_2",
    "_init_",
    "www.example.com",
    "http://x.io/a",
    "C:\\data\\x.csv",
    "a/b/c.py",
    "ana@example.com",
    "5",
    "12",
    "615",
    "1990",
    "3.5",
    "1,250",
    "5k",
    "5s",
    "21st",
    "17th",
    "10am",
    "5GB",
    "9f2a",
    "12a",
    "2024-",
    "seconds",
    "ms",
    "mS",
    "msg",
    "errors",
    "per",
    "cent",
    "percent",
    "thousand",
    "thousands",
    "million",
    "euros",
    "am",
    "pm",
    "a.m.",
    "p",
    "a",
    "microseconds",
    "%",
    "°C",
    "$",
    "US$",
    "€",
]
JOINTS = [
    " ",
    " ",
    " ",
    "  ",
    "\n",
    "\t",
    "\u00a0",
    ".",
    ",",
    ":",
    ")",
    "(",
    "=",
    ";",
    "!",
    "?",
    "/",
    "-",
    "_",
    "#",
    "&",
    "'",
    '"',
    "é",
    "订",
    "",
    # Escape sequences as JSON-encoded text writes them (see test_escapes.py).
    "\\n",
    "\\t",
    '\\"',
    "\\\\",
    "\\\\n",
    "\\u00e9",
    "\\x1b",
    "\\u12",
]
shaped = st.lists(
    st.sampled_from(SHAPES) | st.sampled_from(JOINTS) | st.sampled_from(PIECES),
    max_size=40,
).map("".join)


def fast(text):
    return anchor_finder.find_matches(text, plain_below=0)


@EXAMPLES
@given(st.lists(shaped, min_size=1, max_size=4))
def test_segment_scan_is_the_plain_scan_on_every_shortcut_and_its_near_misses(contents):
    text, _ = anchor_finder.joined(contents)
    assert fast(text) == anchor_finder.find_matches_plainly(text)


@pytest.mark.slow
@EXAMPLES
@given(st.lists(shaped | st.text(max_size=6), min_size=1, max_size=4))
def test_segment_scan_is_the_previous_finder(contents):
    text, _ = anchor_finder.joined(contents)
    assume(not _PREVIOUS_MISSES.search(text))
    assert fast(text) == previous.find_matches(text)


#: A url ``www.`` with no other trigger (``www.%``): the previous finder never looked there.
_PREVIOUS_MISSES = re.compile(r"www\.(?![A-Za-z_])")


@pytest.mark.parametrize("name", sorted(REAL))
def test_segment_scan_is_the_previous_finder_on_real_conversations(name):
    text, _ = anchor_finder.joined([m["content"] for m in REAL[name]["messages"]])
    assert fast(text) == previous.find_matches(text) == previous.find_matches(text, 2)


def test_a_quantity_over_four_chunks_is_found_as_the_plain_scan_finds_it():
    # The previous finder shipped looking two chunks on and missed these.
    for words in ["it is 5 thousand per cent now", "paid 5 million per cent"]:
        text, _ = anchor_finder.joined([words])
        plain = anchor_finder.find_matches_plainly(text)
        assert [text[s:e] for s, e, _ in plain] in (["5 thousand per cent"], ["5 million per cent"])
        assert fast(text) == plain == previous.find_matches(text)
        assert previous.find_matches(text, previous.SHIPPED_REACH) == []


def test_a_bare_www_url_is_found_as_the_plain_scan_finds_it():
    text, _ = anchor_finder.joined(["see www.%e and www.+x"])
    plain = anchor_finder.find_matches_plainly(text)
    assert [text[s:e] for s, e, _ in plain] == ["www.%e", "www.+x"]
    assert fast(text) == plain
    assert previous.find_matches(text) == []  # the previous finder's gap


@pytest.mark.parametrize(
    ("segment", "is_open"),
    [
        ("139", True),
        ("US$", True),
        ("5k", True),
        ("17th", True),
        ("May", True),
        ("Sept.", True),
        ("USD", True),
        ("EZ-8093", True),  # conservatively: it ends in a digit
        ("Monday", False),
        ("EZ-8093.", False),
        ("request_id", False),
        ("plan,", False),
        ("(see", False),
    ],
)
def test_open_segments_are_those_a_match_may_leave_by_a_space(segment, is_open):
    assert open_tail(segment) is is_open


def test_short_texts_take_the_plain_scan_and_long_ones_the_segments():
    text, _ = anchor_finder.joined(["Order DE-4471 ships Thursday 14:00."] * 1000)
    assert len(text) > anchor_finder.PLAIN_BELOW
    assert anchor_finder.find_matches(text) == anchor_finder.find_matches_plainly(text)


@pytest.mark.parametrize("name", sorted(REAL))
def test_the_report_reads_the_same_from_the_finder_as_from_given_anchors(name):
    result = run(validate({**REAL[name], "max_message_chars": 300, "keep_last_n": 2}))
    found = anchor_report(result)
    given_anchors = anchor_report(result, anchors=find_anchors(result.request.contents))
    assert found.anchors == given_anchors.anchors
    for array in ("_anchor", "_message", "_lost", "_from_budget"):
        assert np.array_equal(getattr(found, array), getattr(given_anchors, array))
