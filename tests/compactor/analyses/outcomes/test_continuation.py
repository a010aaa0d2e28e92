"""The continuation check against its plain definition: compact the past with ``compact``, look
for every past source in what it returned; the baselines by removing messages one by one."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor import validate
from compactor.analyses.anchors import find_anchors
from compactor.analyses.outcomes import (
    DEFAULT_DRAWS,
    continuation_check,
    find_needs,
)
from tests.compactor.analyses.outcomes.brute import (
    corpus_requests,
    kept_source,
    past_dict,
    plain_keep_last,
    plain_needs,
    plain_percentile,
    plain_protected,
    plain_protection,
    plain_random,
    plain_recall,
    returned_by_compact,
    whole,
)
from tests.generate import requests

CORPUS = corpus_requests()


def assert_check_is_plain(data: dict, future: int, draws: int = DEFAULT_DRAWS) -> None:
    request = validate(data)
    check = continuation_check(request, future=future, draws=draws)
    contents, roles = request.contents, request.roles
    past = len(contents) - future
    needs = plain_needs(contents, roles)
    returned = returned_by_compact(past_dict(data, future))
    judged, met = plain_recall(needs, contents, returned, past)

    setting = check.setting
    assert (setting.needs, setting.met) == (len(judged), len(met))
    assert setting.recall == (len(met) / len(judged) if judged else None)
    unmet = [(u.user, u.anchor) for u in setting.unmet]
    assert unmet == [need for need in judged if need not in met]
    for u in setting.unmet:  # every past source listed, none of them kept
        assert [(s.index, s.start, s.end) for s in u.sources] == [
            o
            for user, anchor, _, sources in needs
            if (user, anchor) == (u.user, u.anchor)
            for o in sources
            if o[0] < past
        ]
        assert all(
            not kept_source(returned, contents, (s.index, s.start, s.end)) for s in u.sources
        )
        assert all(s.lost_at in ("dedupe", "trim", "drop") for s in u.sources)
    by_role = {r.role: (r.needs, r.met) for r in setting.by_role}
    role_of = {(user, anchor): role for user, anchor, role, _ in needs}
    for role in {role_of[n] for n in judged}:
        assert by_role[role] == (
            sum(role_of[n] == role for n in judged),
            sum(role_of[n] == role for n in met),
        )

    budget = request.params.budget_chars
    lengths = [len(c) for c in contents[:past]]
    protection = plain_protection(data)[:past]
    assert check.baselines.form == "protected"
    every = check
    for form, check in (("protected", every), ("bare", every.in_form("bare"))):  # noqa: B020
        assert check.baselines.form == form

        def plain(rule, *seed, form=form):
            if form == "bare":
                return rule(lengths, budget, *seed)
            return plain_protected(rule, lengths, budget, protection, *seed)

        kept = whole(contents, plain(plain_keep_last))
        keep_judged, keep_met = plain_recall(needs, contents, kept, past)
        assert (check.keep_last.needs, check.keep_last.met) == (len(keep_judged), len(keep_met))
        shares = []
        for seed in range(draws):
            drawn = whole(contents, plain(plain_random, seed))
            shares.append(
                len(plain_recall(needs, contents, drawn, past)[1]) / len(judged) if judged else None
            )
        if judged:
            assert check.random.mean == pytest.approx(sum(shares) / draws)
            assert check.random.low == pytest.approx(plain_percentile(shares, 2.5))
            assert check.random.high == pytest.approx(plain_percentile(shares, 97.5))
            assert check.lift == pytest.approx(setting.recall - check.keep_last.recall)
        else:
            assert check.random.mean is None and check.lift is None
        anchors = find_anchors(contents[:past])
        retention = check.retention
        assert retention.anchors == len(anchors)
        for figure, kept_messages in ((retention.setting, returned), (retention.keep_last, kept)):
            expected = sum(
                any(kept_source(kept_messages, contents, o) for o in a.occurrences) for a in anchors
            )
            assert figure == (pytest.approx(expected / len(anchors)) if anchors else None)


@settings(max_examples=60, deadline=None)
@given(requests(min_size=3, max_size=12), st.integers(1, 10))
def test_continuation_check_equals_compacting_the_past_and_looking_for_sources(data, future):
    future = min(future, len(data["messages"]) - 2)
    assert_check_is_plain(data, future, draws=5)


@pytest.mark.parametrize("name,data", CORPUS, ids=[name for name, _ in CORPUS])
def test_continuation_check_on_the_corpus_fixtures_and_samples(name, data):
    future = min(5, len(data["messages"]) - 2)
    assert_check_is_plain(data, future)


@pytest.mark.parametrize("name,data", CORPUS[:16], ids=[name for name, _ in CORPUS[:16]])
@pytest.mark.parametrize("form", ["protected", "bare"])
def test_recall_curve_equals_compacting_the_past_at_each_budget(name, data, form):
    request = validate(data)
    future = min(5, len(data["messages"]) - 2)
    check = continuation_check(request, future=future).in_form(form)
    protection = plain_protection(data)[: len(data["messages"]) - future]

    def plain(rule, lengths, budget, *seed):
        if form == "bare":
            return rule(lengths, budget, *seed)
        return plain_protected(rule, lengths, budget, protection, *seed)

    contents = request.contents
    past = len(contents) - future
    needs = plain_needs(contents, request.roles)
    past_chars = sum(len(c) for c in contents[:past])
    budgets = sorted({100, 101, past_chars // 10, past_chars // 3, past_chars // 2, past_chars})
    for budget in [b for b in budgets if 100 <= b <= 400_000]:
        step = check.at(budget)
        returned = returned_by_compact(past_dict(data, future, budget))
        judged, met = plain_recall(needs, contents, returned, past)
        if not judged:
            assert step.setting is None
            continue
        assert step.setting == pytest.approx(len(met) / len(judged)), budget
        lengths = [len(c) for c in contents[:past]]
        kept = whole(contents, plain(plain_keep_last, lengths, budget))
        assert step.keep_last == pytest.approx(
            len(plain_recall(needs, contents, kept, past)[1]) / len(judged)
        )
        shares = [
            len(
                plain_recall(
                    needs, contents, whole(contents, plain(plain_random, lengths, budget, s)), past
                )[1]
            )
            / len(judged)
            for s in range(DEFAULT_DRAWS)
        ]
        assert step.random.mean == pytest.approx(sum(shares) / len(shares))
        assert step.random.low == pytest.approx(plain_percentile(shares, 2.5))


def test_the_curve_covers_the_budget_range_and_holds_the_setting_at_its_budget():
    name, data = next((n, d) for n, d in CORPUS if "tau_airline_tool_heavy" in n)
    check = continuation_check(validate(data))
    assert check.curve[0].from_budget == 100 and check.curve[-1].to_budget == 400_000
    for before, after in zip(check.curve, check.curve[1:], strict=False):
        assert after.from_budget == before.to_budget + 1
    assert check.at(check.budget_chars).setting == pytest.approx(check.recall)


def test_a_past_that_is_not_a_valid_request_gives_its_problems_and_no_figure():
    data = {
        "messages": [{"role": "user", "content": "Order DE-4471."}] * 3,
        "budget_chars": 500,
    }
    check = continuation_check(validate(data), future=2)
    assert not check.valid and check.setting is None and check.recall is None
    assert any(p.path == "messages" for p in check.problems)
    assert check.to_dict()["problems"]
    with pytest.raises(ValueError):
        continuation_check(validate(data), future=0)


def test_needs_are_found_once_per_conversation():
    data = CORPUS[0][1]
    request = validate(data)
    first = find_needs(request.contents, request.roles)
    again = find_needs(request.contents, request.roles)
    assert first is again


@settings(max_examples=60, deadline=None)
@given(requests(min_size=2, max_size=12))
def test_needs_equal_their_definition(data):
    request = validate(data)
    found = find_needs(request.contents, request.roles)
    assert [(n.user, n.anchor, n.role, n.sources) for n in found.needs] == plain_needs(
        request.contents, request.roles
    )


@pytest.mark.parametrize("name,data", CORPUS, ids=[name for name, _ in CORPUS])
def test_needs_equal_their_definition_on_the_corpus(name, data):
    request = validate(data)
    found = find_needs(request.contents, request.roles, ["refund"])
    expected = plain_needs(request.contents, request.roles, ["refund"])
    assert [(n.user, n.anchor, n.role, n.sources) for n in found.needs] == expected
