"""Probe recall over every budget and under every strategy of the lineup, against the plain
definitions: ``compact`` at each budget and the returned text searched, the baselines by
removing messages one by one, each strategy's returned messages read as text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor import run, validate
from compactor.analyses._sweeps import BUDGET_RANGE
from compactor.analyses.outcomes import (
    DEFAULT_DRAWS,
    parse_probes,
    probe_curve,
    probe_outcomes,
    probe_recall_outcome,
)
from compactor.strategies import _registry as registry
from compactor.strategies import compare_strategies
from compactor.strategies._returned import REMOVED
from tests.compactor.analyses.outcomes.brute import (
    corpus_requests,
    plain_keep_last,
    plain_percentile,
    plain_protected,
    plain_protection,
    plain_random,
    returned_by_compact,
    whole,
)
from tests.compactor.analyses.outcomes.test_judge_outcome import returned_spans
from tests.compactor.analyses.outcomes.test_probes import plain_probe_recall
from tests.generate import requests

KINDS = ("strict", "partial", "answer")
CORPUS = corpus_requests()[:12]
NAMES = [n for n in registry.names() if n != "semantic-dedupe"]


def some_probes(request):
    """Pairs, single messages, an answer from each first evidence message's text, and one
    answer no message holds (not answerable)."""
    n = len(request.contents)
    refs = [[i, (i + 1) % n] for i in range(0, n, 2)] + [[i] for i in range(n)]
    items = [
        {"id": str(k), "evidence": ev, "answer": request.contents[ev[0]][-12:].strip() or None}
        for k, ev in enumerate(refs)
    ]
    items.append({"id": "nowhere", "evidence": [0], "answer": "\u2603 no such text \u2603"})
    return parse_probes({"probes": items}, request.messages)


def plain_at(data, probes, budget, form="protected"):
    """Per kind: the setting's, keep-last's and each draw's recall at ``budget``, by compacting
    at that budget and by removing messages one at a time (the baselines in ``form``)."""
    request = validate(data)
    contents = request.contents
    lengths = list(map(len, contents))
    protection = plain_protection(data)

    def plain(rule, *seed):
        if form == "bare":
            return rule(lengths, budget, *seed)
        return plain_protected(rule, lengths, budget, protection, *seed)

    setting = plain_probe_recall(
        probes, contents, returned_by_compact({**data, "budget_chars": budget})
    )
    keep_last = plain_probe_recall(probes, contents, whole(contents, plain(plain_keep_last)))
    drawn = [
        plain_probe_recall(probes, contents, whole(contents, plain(plain_random, s)))
        for s in range(DEFAULT_DRAWS)
    ]
    return setting, keep_last, drawn


def assert_curve_is_plain(data, budgets):
    for form in ("protected", "bare"):
        assert_form_is_plain(data, budgets, form)


def assert_form_is_plain(data, budgets, form):
    request = validate(data)
    probes = some_probes(request)
    result = run(request)
    curves = {kind: probe_curve(probes, result, kind, form=form) for kind in KINDS}
    for curve in curves.values():  # ascending, covering the whole range without gaps
        assert curve[0].from_budget == BUDGET_RANGE[0] and curve[-1].to_budget == BUDGET_RANGE[1]
        for before, after in zip(curve, curve[1:], strict=False):
            assert after.from_budget == before.to_budget + 1
    for budget in budgets:
        setting, keep_last, drawn = plain_at(data, probes, budget, form)
        for position, kind in enumerate(KINDS):
            step = next(s for s in curves[kind] if s.from_budget <= budget <= s.to_budget)
            assert step.setting == pytest.approx(setting[position]), (kind, budget)
            assert step.keep_last == pytest.approx(keep_last[position]), (kind, budget)
            values = [d[position] for d in drawn]
            if values[0] is None:
                assert step.random.mean is None
                continue
            assert step.random.mean == pytest.approx(sum(values) / len(values)), (kind, budget)
            assert step.random.low == pytest.approx(plain_percentile(values, 2.5))
            assert step.random.high == pytest.approx(plain_percentile(values, 97.5))


def budgets_of(data):
    total = sum(len(m["content"]) for m in data["messages"])
    wanted = {100, 101, total // 10, total // 4, total // 2, total - 1, total, total + 1}
    return sorted(b for b in wanted if BUDGET_RANGE[0] <= b <= BUDGET_RANGE[1])


def test_a_small_case_by_hand():
    data = {
        "messages": [
            {"role": "system", "content": "You dispatch."},
            {"role": "user", "content": "Order DE-4471 left Lyon on Monday morning, with parts."},
            {"role": "assistant", "content": "Noted: DE-4471 is on its way to Paris by the A6."},
            {"role": "user", "content": "When does it arrive at the Paris depot, roughly?"},
        ],
        "budget_chars": 400,
        "keep_last_n": 1,
    }
    request = validate(data)
    lengths = [len(c) for c in request.contents]
    probes = parse_probes(
        {"probes": [{"id": "p", "evidence": [1], "answer": "Lyon"}]}, request.messages
    )
    protected = probe_curve(probes, run(request), "strict")
    # the protected keep-last keeps the system prompt first, then #1 once #1, #2 and #3 fit
    assert [s.from_budget for s in protected if s.keep_last == 1.0][0] == sum(lengths)
    curve = probe_curve(probes, run(request), "strict", form="bare")
    # the bare keep-last returns #1 once #1, #2 and #3 fit; before that, never
    from_keep_last = sum(lengths[1:])
    assert [(s.from_budget, s.keep_last) for s in curve if s.keep_last == 1.0][0][0] == (
        from_keep_last
    )
    assert all(s.keep_last == 0.0 for s in curve if s.to_budget < from_keep_last)
    # every draw keeps everything once everything fits
    assert curve[-1].random.mean == 1.0 and curve[-1].setting == 1.0
    assert_curve_is_plain(data, range(100, sum(lengths) + 2))


@pytest.mark.parametrize("name,data", CORPUS, ids=[n for n, _ in CORPUS])
def test_the_probe_curve_equals_compacting_at_each_budget(name, data):
    assert_curve_is_plain(data, budgets_of(data))


@settings(max_examples=40, deadline=None)
@given(requests(min_size=2, max_size=9))
def test_the_probe_curve_equals_compacting_at_each_budget_on_generated_requests(data):
    assert_curve_is_plain(data, budgets_of(data))


@settings(max_examples=20, deadline=None)
@given(requests(min_size=2, max_size=9), st.sampled_from(KINDS))
def test_the_curve_at_the_budget_is_probe_outcomes(data, kind):
    request = validate(data)
    probes = some_probes(request)
    result = run(request)
    found = probe_outcomes(probes, result)
    budget = request.params.budget_chars
    step = [s for s in probe_curve(probes, result, kind) if s.from_budget <= budget][-1]
    assert step.setting == getattr(found.setting, kind)
    assert step.keep_last == getattr(found.keep_last, kind)
    assert step.random.mean == pytest.approx(found.random[kind].mean)


def plain_outcome_recall(probes, contents, outcome):
    """Probe recall read from the returned messages' text: strict when the content returned is
    the input, partial when some input text is in it verbatim, answer when the answer is."""
    returned = {m.index: m for m in outcome.messages if m.kept != REMOVED}
    spans = {i: returned_spans(contents[i], m) for i, m in returned.items()}
    n = len(probes)
    strict = sum(
        all(i in returned and returned[i].content == contents[i] for i in p.evidence)
        for p in probes
    )
    partial = sum(all(spans.get(i) for i in p.evidence) for p in probes)
    answerable = [
        p for p in probes if p.answer and any(p.answer in contents[i] for i in p.evidence)
    ]
    answered = sum(
        any(i in returned and p.answer in returned[i].content for i in p.evidence)
        for p in answerable
    )
    return strict / n, partial / n, (answered / len(answerable) if answerable else None)


@pytest.mark.parametrize("name,data", CORPUS, ids=[n for n, _ in CORPUS])
def test_every_strategy_of_the_lineup_is_judged_by_what_it_returns(name, data):
    request = validate(data)
    probes = some_probes(request)
    for share in (0.2, 0.5):
        budget = min(BUDGET_RANGE[1], max(100, int(share * sum(map(len, request.contents)))))
        for strategy in NAMES:
            params = dict(registry.get(strategy).lineup)
            if "clear-tool" in strategy:  # clear from the first token, inputs too
                params |= {"trigger": 1, "clear_tool_inputs": True}
            outcome = registry.apply(strategy, request, budget_chars=budget, params=params)
            if not outcome.available:
                continue
            found = probe_recall_outcome(probes, request.contents, outcome)
            assert (found.strict, found.partial, found.answer) == pytest.approx(
                plain_outcome_recall(probes, request.contents, outcome)
            ), strategy


@pytest.mark.parametrize("name,data", CORPUS[:6], ids=[n for n, _ in CORPUS[:6]])
def test_memory_compact_and_keep_last_of_the_lineup_equal_the_setting_and_the_baseline(name, data):
    request = validate(data)
    probes = some_probes(request)
    comparison = compare_strategies(request)
    found = probe_outcomes(probes, run(request))
    bare = found.in_form("bare").keep_last  # the lineup's keep-last is the bare rule
    for key, expected in (("memory-compact", found.setting), ("keep-last", bare)):
        assert probe_recall_outcome(probes, request.contents, comparison.result(key)) == expected


def test_a_placeholder_is_returned_but_keeps_no_evidence():
    data = {
        "messages": [
            {"role": "user", "content": "Look up the booking."},
            {"role": "assistant", "content": "[tool call find id=c1] {}"},
            {"role": "tool", "content": "Booking DE-4471, seat 14C, confirmed.", "id": "c1"},
            {"role": "assistant", "content": "[tool call ls id=c2] {}"},
            {"role": "tool", "content": "nothing here", "id": "c2"},
            {"role": "user", "content": "So what about seat 14C?"},
        ],
        "budget_chars": 2000,
    }
    request = validate(data)
    probes = parse_probes(
        {"probes": [{"id": "seat", "evidence": ["c1"], "answer": "14C"}]}, request.messages
    )
    masked = registry.apply("observation-masking", request, budget_chars=2000, params={"n": 1})
    assert masked.messages[2].kept == "replaced"
    found = probe_recall_outcome(probes, request.contents, masked)
    assert (found.strict, found.partial, found.answer) == (0.0, 0.0, 0.0)


def test_an_unknown_kind_is_refused():
    request = validate({"messages": [{"role": "user", "content": "hi"}] * 2, "budget_chars": 100})
    with pytest.raises(ValueError, match="strict, partial, answer"):
        probe_curve((), run(request), "loose")
