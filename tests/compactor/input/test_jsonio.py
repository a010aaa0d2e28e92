"""Reading JSON with errors that say where."""

import pytest

from compactor.errors import UnreadableJSON
from compactor.input._jsonio import _walked_enough, dumps, parse_json
from compactor.input._schema_check import Report


def problems(source):
    with pytest.raises(UnreadableJSON) as caught:
        parse_json(source)
    return [str(p) for p in caught.value.problems]


def test_a_syntax_error_names_line_and_column():
    assert problems('{\n  "a": 1,\n  "b" 2\n}') == ["line 3, column 7: Expecting ':' delimiter"]


def test_empty_and_blank_input():
    assert problems("") == ["line 1, column 1: the input is empty; expected a JSON document"]
    assert problems(b"  \n") == ["line 1, column 1: the input is empty; expected a JSON document"]


def test_a_byte_order_mark_is_accepted():
    assert parse_json(b'\xef\xbb\xbf{"a": "\xc3\xa9"}') == {"a": "é"}
    assert parse_json("\ufeff[1]") == [1]


def test_bytes_that_are_not_utf8():
    assert problems(b'{"a":\n "\xff"}') == [
        "line 2, column 3: not UTF-8 text (byte 0xff); save the file as UTF-8"
    ]


def test_unpaired_surrogates_are_refused_with_their_path():
    assert problems('{"messages": [{"content": "ok \\ud800"}]}') == [
        "messages[0].content: contains an unpaired surrogate (U+D800), which is not Unicode text"
    ]
    assert parse_json('"\\ud83d\\ude00"') == "😀"  # a proper pair is fine


def test_deep_nesting_is_an_error_not_a_crash():
    # Issue 11: the error names the path where the nesting passes the limit, at any depth.
    too_deep = "[0][0][0][0][0][0][0][0][0][0]" * 10 + ": is nested more than 100 levels deep"
    assert problems("[" * 100_000 + "]" * 100_000) == [too_deep]


def test_dumps_writes_unicode_unescaped():
    assert dumps({"a": "é😀"}, indent=None) == '{"a": "é😀"}'


def test_nan_and_infinity_are_not_json():
    assert problems('{"duplicate_threshold": NaN, "x": [1, -Infinity]}') == [
        "duplicate_threshold: NaN is not a JSON number; use a finite number",
        "x[1]: -Infinity is not a JSON number; use a finite number",
    ]


def test_a_number_too_long_to_convert_names_where_it_is():
    assert problems('{\n  "budget_chars": ' + "9" * 5000 + "}") == [
        "line 2, column 19: a number has more than 4,300 digits; no field takes that many"
    ]


def test_the_walk_for_what_the_parser_met_stops_when_all_are_found_or_the_report_is_full():
    report = Report(limit=1)
    assert not _walked_enough(report, None, 5)  # looking for surrogates: walk everything
    assert not _walked_enough(report, 2, 1)
    assert _walked_enough(report, 2, 2)
    report.add(("a",), "a problem")
    assert _walked_enough(report, 2, 1)


def test_a_key_given_three_times_and_one_twice_are_each_reported_once():
    with pytest.raises(UnreadableJSON) as error:
        parse_json('{"a": 1, "a": 2, "b": 1, "a": 3, "b": 2}')
    assert [(p.path, p.message) for p in error.value.problems] == [
        ("a", "is given 3 times in one object; give each key once"),
        ("b", "is given 2 times in one object; give each key once"),
    ]
