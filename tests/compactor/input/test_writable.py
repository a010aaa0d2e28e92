"""Whether a Python value can be written back as JSON: one value or key at a time, then a whole
value with the report's paths and counts."""

import math

from compactor.input._schema_check import Report
from compactor.input._writable import _key_problem, _scalar_problem, json_value_problems


def test_a_scalar_that_json_can_write_has_no_problem():
    for value in ("text", True, None, 3, 2.5, 10**100):
        assert _scalar_problem(value) is None


def test_a_scalar_json_cannot_write_says_why():
    assert _scalar_problem("\ud800")().startswith("contains an unpaired surrogate (U+D800)")
    assert _scalar_problem(math.nan)() == "must be a finite number"
    assert _scalar_problem(-math.inf)() == "must be a finite number"
    assert _scalar_problem({1, 2})().startswith("must be a JSON value, not ")


def test_an_integer_too_long_to_write_is_a_problem_only_past_the_limit():
    assert "digits" in _scalar_problem(10**20_000)()


def test_a_key_must_be_text():
    assert _key_problem("name") is None
    assert "not a string" in _key_problem(3)()
    assert "surrogate" in _key_problem("\udc00")()


def test_problems_are_named_by_path_until_the_report_is_full_then_counted():
    report = Report(limit=2)
    json_value_problems({"a": [math.nan, "ok", {1: 2}], "b": math.inf}, report, ("x",))
    assert [path for path, _ in report.found] == [("x", "a", 0), ("x", "a", 2)]
    assert report.more == 1
