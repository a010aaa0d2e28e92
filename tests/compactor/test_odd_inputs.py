"""Odd inputs, a few hundred of each family (issue 34): odd conversations through ``shrink``,
odd ``compaction.toml`` files and setting dicts, odd parameters for every registered strategy.
Each call returns or raises one of the project's errors, never another exception (the families
and the rule: harness/odd_inputs.py; thousands of cases: ``python -m bench.fuzz_inputs``)."""

import pytest
from hypothesis import HealthCheck, given, settings

from compactor import validate
from harness.odd_inputs import CASES, FAMILIES, crashed, outcome

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("family", FAMILIES)
def test_odd_input_is_a_result_or_the_projects_error(family):
    @FUZZ
    @given(CASES[family]())
    def each(call):
        result = outcome(call)
        assert not crashed(result), result

    each()


def test_the_rule_tells_a_crash_from_the_projects_error():
    assert outcome(lambda: validate({})) == "InvalidRequest"
    assert outcome(lambda: None) == "ok"
    assert crashed(outcome(lambda: {}["missing"]))
