"""A replay of a strategy that keeps parts other than a prefix (anchor-keep), against the loop
written plainly: every carried character remembers its recorded offset, and an occurrence is
held when its characters are still there side by side."""

from __future__ import annotations

import pytest

from compactor import validate
from compactor.analyses.anchors import find_anchors
from compactor.analyses.outcomes import find_needs, replay_misses
from compactor.analyses.replay import replay_request
from compactor.analyses.replay._loop import compose_spans
from compactor.model import Message, Request
from compactor.strategies import _anchor_keep as anchor_keep
from compactor.strategies._anchor_keep import GONE
from tests.compactor.analyses.outcomes.brute import corpus_requests, plain_needs

MAX_MESSAGES = 40
CORPUS = [(n, d) for n, d in corpus_requests() if n != "sample/largest"]  # the slow plain search


def plain_replay(request: Request):
    """Per turn t: the history sent, as ``(role, content, origin, offsets)``."""
    recorded = [
        (m.role, m.content, m.id, m.pin, i, list(range(len(m.content))))
        for i, m in enumerate(request.messages)
    ]
    history = recorded[:1]
    histories = [history]
    for t in range(1, len(recorded)):
        sent = [*history, recorded[t]]
        shrunk = Request(
            tuple(Message(k, r, c, d, p) for k, (r, c, d, p, _, _) in enumerate(sent)),
            request.params,
        )
        result = anchor_keep.apply(shrunk, request.params.budget_chars)
        new = []
        for kept, (role, content, id_, pin, origin, offsets) in zip(
            result.messages, sent, strict=True
        ):
            if kept.kept == GONE:
                continue
            chars = [k for a, b in kept.spans for k in range(a, b)]
            text = "".join(content[k] for k in chars)
            new.append((role, text, id_, pin, origin, [offsets[k] for k in chars]))
        history = new
        histories.append(history)
    return histories


def plain_held(history, source) -> bool:
    i, s, e = source
    run = list(range(s, e))
    for *_, origin, offsets in history:
        if origin == i and any(
            offsets[j : j + len(run)] == run for j in range(len(offsets) - len(run) + 1)
        ):
            return True
    return False


def cases():
    out = []
    for name, data in CORPUS:
        messages = data["messages"][:MAX_MESSAGES]
        chars = sum(len(m["content"]) for m in messages)
        for share in (0.2, 0.4):
            budget = max(100, int(share * chars))
            out.append(
                pytest.param(
                    {**data, "messages": messages, "budget_chars": budget}, id=f"{name}@{share}"
                )
            )
    return out


@pytest.mark.parametrize("data", cases())
def test_an_anchor_keep_replay_holds_what_the_plain_loop_holds(data):
    request = validate(data)
    anchors = find_anchors(request.contents)
    facts = [(a.text, a.occurrences) for a in anchors]
    played = replay_request(request, "anchor-keep", facts=facts)
    plain = plain_replay(request)
    for t, (history, expected) in enumerate(zip(played.histories, plain, strict=True)):
        assert [m.content for m in history] == [text for _, text, *_ in expected]
        for m, (*_, origin, offsets) in zip(history, expected, strict=True):
            assert m.origin == origin
            if m.spans is not None:  # the spans are the offsets, run by run
                assert [k for a, b in m.spans for k in range(a, b)] == offsets
        if t == 0:
            continue
        lost = [
            text
            for text, occurrences in facts
            if (seen := [o for o in occurrences if o[0] <= t])
            and not any(plain_held(expected, o) for o in seen)
        ]
        assert list(played.turns[t - 1].lost) == lost, t
    found = replay_misses(played, find_needs(request.contents, request.roles))
    missed = [
        (user, anchor)
        for user, anchor, _role, sources in plain_needs(request.contents, request.roles)
        if not any(plain_held(plain[user - 1], o) for o in sources)
    ]
    assert [(m.turn, m.anchor) for m in found.misses] == missed


def test_spans_compose_through_an_earlier_cut():
    assert compose_spans([(0, 4), (10, 14)], [(0, 8)]) == ((0, 4), (10, 14))
    assert compose_spans([(0, 4), (10, 14)], [(3, 5)]) == ((3, 4), (10, 11))
    assert compose_spans([(5, 9)], [(0, 1), (3, 4)]) == ((5, 6), (8, 9))
    assert compose_spans([(0, 4), (4, 8)], [(2, 6)]) == ((2, 6),)
