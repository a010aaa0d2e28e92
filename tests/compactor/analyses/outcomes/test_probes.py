"""Probes: refs by id and by index, bad refs with their paths, and recall by its definition."""

from __future__ import annotations

import pytest

from compactor import run, validate
from compactor.analyses.outcomes import InvalidProbes, parse_probes, probe_outcomes
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

DATA = {
    "messages": [
        {"role": "system", "content": "You are a dispatcher.", "id": "sys"},
        {"role": "user", "content": "Order DE-4471 left Lyon. " * 12, "id": "u1"},
        {"role": "assistant", "content": "It arrives Thursday at 14:00.", "id": "a1"},
        {"role": "user", "content": "Refund 139 USD please. " * 10},
        {"role": "assistant", "content": "Refund of 139 USD sent."},
    ],
    "budget_chars": 300,
    "keep_last_n": 1,
    "max_message_chars": 120,
}


def test_refs_by_id_and_by_index_name_the_same_messages():
    request = validate(DATA)
    probes = parse_probes(
        {"probes": [{"id": "p", "evidence": ["u1", 2, 3], "answer": "Lyon"}]}, request.messages
    )
    assert probes[0].evidence == (1, 2, 3) and probes[0].answer == "Lyon"
    assert parse_probes([{"id": 7, "evidence": ["a1"]}], request.messages)[0].id == "7"


def test_a_ref_naming_no_message_is_an_error_with_its_path():
    request = validate(DATA)
    bad = {
        "probes": [
            {"id": "ok", "evidence": [0]},
            {"id": "x", "evidence": [1]},
            {"id": "y", "evidence": ["nope", 5, True]},
            {"id": "z"},
        ]
    }
    with pytest.raises(InvalidProbes) as raised:
        parse_probes(bad, request.messages)
    where = {p.path for p in raised.value.problems}
    assert {
        "$.probes[2].evidence[0]",
        "$.probes[2].evidence[1]",
        "$.probes[2].evidence[2]",
    } <= where
    assert "$.probes[3].evidence" in where
    with pytest.raises(InvalidProbes):
        parse_probes({"probs": []}, request.messages)


def plain_probe_recall(probes, contents, returned: dict[int, str]):
    strict = sum(all(returned.get(i) == contents[i] for i in p.evidence) for p in probes)
    partial = sum(all(i in returned for i in p.evidence) for p in probes)
    answerable = [
        p for p in probes if p.answer and any(p.answer in contents[i] for i in p.evidence)
    ]
    answered = sum(any(p.answer in returned.get(i, "") for i in p.evidence) for p in answerable)
    n = len(probes)
    return (strict / n, partial / n, answered / len(answerable) if answerable else None)


CORPUS = corpus_requests()[:16]


@pytest.mark.parametrize("name,data", [("dispatch", DATA), *CORPUS])
def test_probe_recall_equals_its_definition_for_the_setting_and_the_baselines(name, data):
    request = validate(data)
    n = len(request.contents)
    refs = [[i, (i + 1) % n] for i in range(0, n, 2)] + [[i] for i in range(n)]
    probes = parse_probes(
        [
            {"id": str(k), "evidence": ev, "answer": request.contents[ev[0]][:12].strip() or None}
            for k, ev in enumerate(refs)
        ],
        request.messages,
    )
    contents = request.contents
    found = probe_outcomes(probes, run(request), draws=20)
    returned = returned_by_compact(data)
    s = found.setting
    assert (s.strict, s.partial, s.answer) == pytest.approx(
        plain_probe_recall(probes, contents, returned)
    )
    budget = request.params.budget_chars
    lengths = list(map(len, contents))
    protection = plain_protection(data)
    every = found
    for form in ("protected", "bare"):
        found = every.in_form(form)
        assert found.baselines.form == form

        def plain(rule, *seed, form=form):
            if form == "bare":
                return rule(lengths, budget, *seed)
            return plain_protected(rule, lengths, budget, protection, *seed)

        kept = whole(contents, plain(plain_keep_last))
        k = found.keep_last
        assert (k.strict, k.partial, k.answer) == pytest.approx(
            plain_probe_recall(probes, contents, kept)
        )
        per_draw = [
            plain_probe_recall(probes, contents, whole(contents, plain(plain_random, seed)))
            for seed in range(20)
        ]
        for position, kind in enumerate(("strict", "partial")):
            values = [d[position] for d in per_draw]
            assert found.random[kind].mean == pytest.approx(sum(values) / 20)
            assert found.random[kind].high == pytest.approx(plain_percentile(values, 97.5))
        assert found.lift["strict"] == pytest.approx(s.strict - k.strict)
    assert every.to_dict()["bare"]["keep_last"] == every.in_form("bare").keep_last.to_dict()
    assert found.to_dict()["setting"]["probes"] == len(probes)
