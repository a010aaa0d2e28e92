"""The span judge against its plain definition: a need is met when one of its past sources
lies whole inside a span its message kept."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor import validate
from compactor.analyses.outcomes import find_needs, judge_lengths, judge_spans, past_request
from compactor.strategies import _anchor_keep as anchor_keep
from tests.compactor.analyses.outcomes.brute import corpus_requests, plain_needs

CORPUS = corpus_requests()[:16]
WORDS = ["DE-4471", "call_9f2a", "03:10", "src/app.py", "order", "the", " ", "\n", ". "]


def plain_span_recall(needs, spans, past):
    """``(judged, met)`` lists of ``(user, anchor)``, every source checked against every span."""
    judged, met = [], []
    for user, anchor, _role, sources in needs:
        in_past = [o for o in sources if o[0] < past]
        if user < past or not in_past:
            continue
        judged.append((user, anchor))
        if any(a <= s and e <= b for i, s, e in in_past for a, b in spans[i] or ()):
            met.append((user, anchor))
    return judged, met


def random_spans(rng: random.Random, contents) -> list[tuple[tuple[int, int], ...] | None]:
    out = []
    for text in contents:
        if rng.random() < 0.25:
            out.append(None)
            continue
        cuts = sorted(rng.sample(range(len(text) + 1), min(len(text) + 1, rng.randint(2, 8))))
        pairs = list(zip(cuts[::2], cuts[1::2], strict=False))
        out.append(tuple((a, b) for a, b in pairs if a < b))
    return out


def check(contents, roles, spans, past):
    needs = find_needs(contents, roles)
    judged = judge_spans(needs, spans)
    expected, met = plain_span_recall(plain_needs(contents, roles), spans, past)
    assert (judged.needs, judged.met) == (len(expected), len(met))
    unmet = [(u.user, u.anchor) for u in judged.unmet]
    assert unmet == [need for need in expected if need not in met]
    for u in judged.unmet:
        for source in u.sources:
            assert source.lost_at == ("cut" if spans[source.index] else "removed")


@pytest.mark.parametrize("name,data", CORPUS, ids=[n for n, _ in CORPUS])
def test_random_spans_are_judged_as_the_plain_loop_judges_them(name, data):
    request = validate(data)
    rng = random.Random(name)
    for past in sorted({max(1, len(request.contents) - k) for k in (1, 3, 5)}):
        spans = random_spans(rng, request.contents[:past])
        check(request.contents, request.roles, spans, past)


@pytest.mark.parametrize("name,data", CORPUS, ids=[n for n, _ in CORPUS])
def test_anchor_keeps_spans_are_judged_as_the_plain_loop_judges_them(name, data):
    request = validate(data)
    future = min(5, len(request.contents) - 2)
    past = past_request(request, future)
    for share in (0.1, 0.3):
        budget = max(1, int(share * sum(map(len, past.contents))))
        result = anchor_keep.apply(past, budget, {"keep_roles": [], "keep_last_n": 1})
        spans = [m.spans for m in result.messages]
        check(request.contents, request.roles, spans, len(spans))


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.lists(st.sampled_from(WORDS), min_size=1, max_size=20).map("".join),
        min_size=2,
        max_size=8,
    ),
    st.integers(0, 10**6),
)
def test_prefix_spans_are_judged_as_returned_lengths(contents, seed):
    roles = ["user", "assistant"] * len(contents)
    roles = roles[: len(contents)]
    rng = random.Random(seed)
    past = rng.randint(1, len(contents))
    lengths = [None if rng.random() < 0.3 else rng.randint(1, len(t)) for t in contents[:past]]
    spans = [None if n is None else ((0, n),) for n in lengths]
    needs = find_needs(contents, roles)
    by_spans, by_lengths = judge_spans(needs, spans), judge_lengths(needs, lengths)
    assert (by_spans.needs, by_spans.met) == (by_lengths.needs, by_lengths.met)
    assert by_spans.unmet == by_lengths.unmet
    check(contents, roles, random_spans(rng, contents[:past]), past)
