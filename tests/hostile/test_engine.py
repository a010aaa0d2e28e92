"""The hostile corpus through the engine: parse_json, then compact or the trim, in this process."""

import json
import time

import pytest

from compactor import compact
from compactor.errors import MAX_PROBLEMS, InvalidRequest, UnreadableJSON
from compactor.jsonio import parse_json
from compactor.strategies.context_trim import trim_context
from tests.hostile.cases import CASES, COMPACT, LIMIT, MAX_ERROR_BYTES

ENGINES = {COMPACT: compact}


def engine_of(case):
    return ENGINES.get(case.route, trim_context)


def outcome(case):
    """(status, problems, seconds of CPU) as the engine answers the case's body."""
    start = time.process_time()
    try:
        value = parse_json(case.body())
    except UnreadableJSON as error:
        return 400, error.problems, time.process_time() - start
    try:
        result = engine_of(case)(value)
    except InvalidRequest as error:
        return 422, error.problems, time.process_time() - start
    json.dumps(result, ensure_ascii=False, allow_nan=False).encode("utf-8")
    return 200, (), time.process_time() - start


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_every_hostile_body_gets_a_bounded_refusal_that_says_where(case):
    assert len(case.body()) <= LIMIT  # each would reach the engine through the service
    status, problems, seconds = outcome(case)
    assert status == case.status
    if status == 200:
        return
    assert problems[0].where == case.where
    assert all(p.where for p in problems)  # every problem says where ($ for the whole input)
    assert len(problems) <= MAX_PROBLEMS + 1
    assert all(len(p.message) <= 300 and len(p.where) <= 1000 for p in problems)
    assert len(json.dumps([p.to_dict() for p in problems]).encode()) < MAX_ERROR_BYTES
    # Bounded by the body, not the number of problems; far below the seconds of issue 11.
    assert seconds < 3.0


def test_the_amplification_body_costs_less_than_a_second_and_says_how_many_more():
    [case] = [c for c in CASES if c.name == "amplification"]
    status, problems, seconds = outcome(case)
    assert status == 422 and seconds < 1.0
    assert [p.to_dict() for p in problems[:3]] == [
        {"path": "keep_roles", "message": "must have at most 4 items; it has 1,040,000"},
        {"path": "keep_roles[0]", "message": "must be a string, not an integer"},
        {
            "path": "keep_roles[0]",
            "message": 'must be one of "system", "user", "assistant", "tool", not 1',
        },
    ]
    # 3,120,002 problems in all: 100 listed, then how many more.
    assert problems[-1].to_dict() == {
        "path": "$",
        "message": "and 3,119,902 more problems not listed (at most 100 are); fix these first",
    }
    assert len(problems) == MAX_PROBLEMS + 1
