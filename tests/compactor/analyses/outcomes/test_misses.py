"""Replay misses against a plain loop over the replay's histories."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor import validate
from compactor.analyses.anchors import find_anchors
from compactor.analyses.outcomes import find_needs, replay_misses
from compactor.analyses.replay import replay_request
from tests.compactor.analyses.outcomes.brute import corpus_requests, plain_needs
from tests.generate import requests

CORPUS = [(n, d) for n, d in corpus_requests() if len(d["messages"]) <= 80]
STRATEGIES = ("memory-compact", "keep-last", "drop-oldest")


def held(history, source) -> bool:
    i, _, e = source
    return any(m.origin == i and len(m.content) >= e for m in history)


def assert_misses_are_plain(data: dict, strategy: str, policy: str) -> None:
    request = validate(data)
    facts = [(a.text, a.occurrences) for a in find_anchors(request.contents)]
    played = replay_request(request, strategy, policy=policy, facts=facts)
    found = replay_misses(played, find_needs(request.contents, request.roles))

    needs = plain_needs(request.contents, request.roles)
    missed = [
        (user, anchor, role)
        for user, anchor, role, sources in needs
        if not any(held(played.histories[user - 1], o) for o in sources)
    ]
    assert [(m.turn, m.anchor, m.role) for m in found.misses] == missed
    cumulative = 0
    for turn in found.turns:
        mine = [n for n in needs if n[0] == turn.turn]
        misses = sum(m[0] == turn.turn for m in missed)
        cumulative += misses
        assert (turn.needs, turn.misses, turn.cumulative_misses) == (len(mine), misses, cumulative)
    by_role = {r.role: (r.needs, r.needs - r.met) for r in found.by_role}
    for role in {n[2] for n in needs}:
        assert by_role[role] == (
            sum(n[2] == role for n in needs),
            sum(m[2] == role for m in missed),
        )
    if not missed:
        assert found.first_miss is None
        return
    first = found.first_miss
    assert (first.miss.turn, first.miss.anchor) == missed[0][:2]
    # The last source lost: none of the sources is held from lost_turn on, and the named one
    # was held at the turn before (or arrived then).
    user = first.miss.turn
    sources = next(n[3] for n in needs if n[:2] == missed[0][:2])
    for u in range(first.lost_turn, user):
        assert not any(held(played.histories[u], o) for o in sources)
    lost = [o for o in sources if o[0] == first.lost_index]
    assert lost
    assert first.lost_turn == first.lost_index or any(
        held(played.histories[first.lost_turn - 1], o) for o in lost
    )
    gone = not any(m.origin == first.lost_index for m in played.histories[first.lost_turn])
    assert first.lost_stage == ("removal" if gone else "trim")


@settings(max_examples=40, deadline=None)
@given(requests(min_size=2, max_size=12), st.sampled_from(STRATEGIES))
def test_replay_misses_equal_a_plain_loop_over_the_histories(data, strategy):
    assert_misses_are_plain(data, strategy, "always")


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("name,data", CORPUS, ids=[name for name, _ in CORPUS])
def test_replay_misses_on_the_corpus(name, data, strategy):
    budget = max(100, sum(len(m["content"]) for m in data["messages"]) // 5)
    assert_misses_are_plain({**data, "budget_chars": budget}, strategy, "over-budget")


def test_misses_per_turn_start_at_turn_one_and_serialise():
    data = {
        "messages": [
            {"role": "user", "content": "Ticket DE-4471 is about Lyon. " * 20},
            {"role": "assistant", "content": "Noted."},
            {"role": "user", "content": "Filler " * 40},
            {"role": "assistant", "content": "Which was DE-4471 again?"},
        ],
        "budget_chars": 100,
        "keep_last_n": 1,
    }
    request = validate(data)
    played = replay_request(request, "keep-last")
    found = replay_misses(played, find_needs(request.contents, request.roles))
    assert [t.turn for t in found.turns] == [1, 2, 3]
    out = found.to_dict()
    assert out["misses"] == 1 and out["first_miss"]["anchor"] == "DE-4471"
    assert out["first_miss"]["lost_stage"] == "removal"
