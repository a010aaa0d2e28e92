"""The shared judge: any strategy of the lineup is judged by what it returned of the past."""

from __future__ import annotations

import pytest

from compactor import run, validate
from compactor.analyses.outcomes import (
    continuation_check,
    find_needs,
    judge_outcome,
    past_request,
    role_balance,
)
from compactor.strategies import DROP_OLDEST, KEEP_LAST, MEMORY_COMPACT, compare_strategies
from tests.compactor.analyses.outcomes.brute import (
    corpus_requests,
    plain_needs,
    plain_recall,
)

CORPUS = corpus_requests()[:16]


@pytest.mark.parametrize("name,data", CORPUS, ids=[n for n, _ in CORPUS])
def test_every_strategy_of_the_lineup_is_judged_by_the_same_figure(name, data):
    request = validate(data)
    future = min(5, len(request.contents) - 2)
    past = past_request(request, future)
    lineup = compare_strategies(past)
    needs = find_needs(request.contents, request.roles)
    plain = plain_needs(request.contents, request.roles)
    check = continuation_check(request, future=future)
    for key in (MEMORY_COMPACT, KEEP_LAST, DROP_OLDEST):
        outcome = lineup.result(key)
        judged = judge_outcome(needs, outcome)
        returned = {
            m.index: request.contents[m.index][: m.chars]
            for m in outcome.messages
            if m.kept != "removed"
        }
        expected, met = plain_recall(plain, request.contents, returned, len(past.messages))
        assert (judged.needs, judged.met) == (len(expected), len(met))
    memory = judge_outcome(needs, lineup.result(MEMORY_COMPACT))
    assert (memory.needs, memory.met) == (check.setting.needs, check.setting.met)
    keep_last = judge_outcome(needs, lineup.result(KEEP_LAST))
    assert keep_last.met == check.in_form("bare").keep_last.met  # the strategy is the bare rule


@pytest.mark.parametrize("name,data", CORPUS, ids=[n for n, _ in CORPUS])
def test_role_balance_is_each_roles_share_of_input_and_output(name, data):
    result = run(validate(data))
    balance = role_balance(result)
    total_in = sum(len(t.message.content) for t in result.messages)
    total_out = sum(t.chars for t in result.messages)
    for share in balance.roles:
        mine = [t for t in result.messages if t.message.role == share.role]
        assert share.input_chars == sum(t.original_chars for t in mine)
        assert share.output_chars == sum(t.chars for t in mine)
        assert share.input_share == pytest.approx(share.input_chars / total_in)
        assert share.output_share == pytest.approx(share.output_chars / total_out)
    assert sum(s.input_share for s in balance.roles) == pytest.approx(1.0)
    assert {s.role for s in balance.roles} == {t.message.role for t in result.messages}
