"""Every golden case in ../shared/golden reproduced exactly, as its README says."""

import json

import pytest

from compactor import compact
from tests.paths import GOLDEN

# Free text in the project's own words: compared only as "a string is there".
FREE_TEXT = {"note", "limits", "method", "cut_at", "order"}
CASES = sorted(p.name.removesuffix(".request.json") for p in GOLDEN.glob("*.request.json"))


def comparable(value):
    """The value with free-text strings blanked; dict key order kept for the order check."""
    if isinstance(value, dict):
        return [
            (k, "<text>" if k in FREE_TEXT and isinstance(v, str) else comparable(v))
            for k, v in value.items()
        ]
    if isinstance(value, list):
        return [comparable(v) for v in value]
    return value


def test_the_golden_set_is_there():
    assert len(CASES) >= 7, f"expected the golden cases in {GOLDEN}"


@pytest.mark.parametrize("case", CASES)
def test_golden_case_reproduced(case):
    request = json.loads((GOLDEN / f"{case}.request.json").read_text("utf-8"))
    expected = json.loads((GOLDEN / f"{case}.response.json").read_text("utf-8"))
    assert comparable(compact(request)) == comparable(expected)


@pytest.mark.parametrize("case", CASES)
def test_golden_free_text_is_present(case):
    request = json.loads((GOLDEN / f"{case}.request.json").read_text("utf-8"))
    response = compact(request)
    assert response["limits"] and response["scoring"]["note"]
    for stage, key in zip(response["stages"], [None, "method", "cut_at", "order"], strict=True):
        if key:
            assert isinstance(stage["rule"][key], str) and stage["rule"][key]
