"""The hostile corpus through the engine: parse_json, then compact or the trim, in this process.

What a refusal costs in time is a figure of bench/hostile.py; here, what bounds it: at most
100 problems listed and the rest counted, each short, the whole well under 64 KiB.
"""

import json

import pytest

from compactor import compact
from compactor.errors import MAX_PROBLEMS, InvalidRequest, UnreadableJSON
from compactor.input._jsonio import parse_json
from compactor.strategies._context_trim import trim_context
from harness.hostile_cases import BY_NAME, CASES, COMPACT, LIMIT, MAX_ERROR_BYTES

ENGINES = {COMPACT: compact}


def engine_of(case):
    return ENGINES.get(case.route, trim_context)


def outcome(case):
    """(status, problems) as the engine answers the case's body."""
    try:
        value = parse_json(case.body())
    except UnreadableJSON as error:
        return 400, error.problems
    try:
        result = engine_of(case)(value)
    except InvalidRequest as error:
        return 422, error.problems
    json.dumps(result, ensure_ascii=False, allow_nan=False).encode("utf-8")
    return 200, ()


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_every_hostile_body_gets_a_bounded_refusal_that_says_where(case):
    assert len(case.body()) <= LIMIT  # each would reach the engine through the service
    status, problems = outcome(case)
    assert status == case.status
    if status == 200:
        return
    assert problems[0].where == case.where
    assert all(p.where for p in problems)  # every problem says where ($ for the whole input)
    assert len(problems) <= MAX_PROBLEMS + 1
    assert all(len(p.message) <= 300 and len(p.where) <= 1000 for p in problems)
    assert len(json.dumps([p.to_dict() for p in problems]).encode()) < MAX_ERROR_BYTES


def test_the_amplification_body_lists_100_problems_and_says_how_many_more():
    status, problems = outcome(BY_NAME["amplification"])
    assert status == 422
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


# How many problems each bulk body has, counted from how it is built.
IN_ALL = {
    # each message is not an object; keep_roles has too many items, each not a string and
    # not a role; messages has too many items
    "amplification": 3 * 1_040_000 + 2,
    "amplification-1mb": 3 * 300_000 + 2,
    "amplification-pasteable": 2 * 20_000 + 1,
    "700000-nans": 700_000,
    "340000-unknown-keys": 340_000 + 2,  # and messages, budget_chars missing
    "1300000-empty-messages": 2 * 1_300_000 + 1,  # no role, no content; too many messages
    "420000-distinct-roles": 420_000 + 3,  # not roles; too many; no messages, no budget_chars
    "trim-2000000-numbers": 2_000_000,
    "trim-1300000-empty-messages": 2 * 1_300_000,
}


@pytest.mark.parametrize(("name", "in_all"), IN_ALL.items())
def test_a_body_with_more_than_100_problems_lists_100_and_counts_the_rest(name, in_all):
    _, problems = outcome(BY_NAME[name])
    assert len(problems) == MAX_PROBLEMS + 1
    assert problems[-1].to_dict() == {
        "path": "$",
        "message": f"and {in_all - MAX_PROBLEMS:,} more problems not listed (at most 100 are); "
        "fix these first",
    }
