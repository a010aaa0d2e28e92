"""Replay with anchors on real conversations: per-turn figures against the plain loop, losses
against a plain search of the histories, each message's fate against its lengths turn by turn."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor import validate
from compactor.analyses.anchors._report import find_anchors
from compactor.analyses.replay._drift import REMOVAL, TRIM
from compactor.analyses.replay._fates import (
    GONE,
    KEPT,
    NEW,
    TRIMMED,
    cache_reuse,
    message_fates,
    recorded_of,
)
from compactor.analyses.replay._loop import ALWAYS, OVER_BUDGET
from compactor.analyses.replay._strategies import replay_request
from compactor.formats import apply_fixes, convert_text
from tests.compactor.analyses.replay.test_loop import (
    as_plain,
    compacted,
    kept_last,
    plain_loop,
    recorded_conversations,
)
from tests.generate import requests
from tests.paths import ROOT

REAL = ROOT / "tests" / "fixtures" / "real"


def real_fixtures():
    """Every conversation of tests/fixtures/real (each record of a collection), as requests."""
    found = []
    for path in sorted(REAL.glob("*.json*")):
        data = path.read_bytes()
        for record in range(4):
            try:
                conversion = apply_fixes(convert_text(data, record=record))
            except Exception:  # no such record (or one conversation only): the file is done
                break
            if len(conversion.request["messages"]) >= 2:
                found.append(pytest.param(conversion.request, id=f"{path.stem}#{record}"))
    return found


def anchor_facts(request):
    found = find_anchors(validate(request).contents)
    return [(a.text, a.occurrences) for a in found]


def plain_losses(result, request, facts):
    """Each loss found plainly: at the turn a fact joins ``lost``, the first of its occurrences
    whole in X_t (history before plus m_t), and whether its message left H_t or was cut."""
    messages = request["messages"]
    out, before = [], ()
    for turn in result.turns:
        t = turn.turn
        went_in = [*result.histories[t - 1]]
        for text in turn.lost:
            if text in before:
                continue
            occurrences = sorted(next(o for f, o in facts if f == text))
            for i, _, end in occurrences:
                whole_in = i == t and len(messages[t]["content"]) >= end
                whole_in = whole_in or any(m.origin == i and len(m.content) >= end for m in went_in)
                if i <= t and whole_in:
                    gone = all(m.origin != i for m in result.histories[t])
                    out.append((t, text, i, REMOVAL if gone else TRIM))
                    break
        before = turn.lost
    return out


def check(request, strategy, policy):
    facts = anchor_facts(request)
    result = replay_request(validate(request), strategy, policy=policy, facts=facts)
    shrink = compacted if strategy == "memory-compact" else kept_last
    assert as_plain(result) == plain_loop(request, shrink, policy, facts)
    losses = [(x.turn, x.fact, x.index, x.how) for x in result.losses]
    assert losses == plain_losses(result, request, facts)
    return result


@pytest.mark.parametrize("request_", real_fixtures() + recorded_conversations())
@pytest.mark.parametrize("policy", [ALWAYS, OVER_BUDGET])
@pytest.mark.parametrize("strategy", ["memory-compact", "keep-last"])
def test_anchor_drift_of_real_conversations_equals_the_plain_loop(request_, strategy, policy):
    check(request_, strategy, policy)


def test_the_real_fixtures_are_all_read():
    assert len(real_fixtures()) >= 10


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(requests(max_size=12), st.sampled_from([ALWAYS, OVER_BUDGET]))
def test_losses_of_random_conversations_equal_the_plain_search(request, policy):
    check(request, "memory-compact", policy)


@pytest.mark.parametrize("request_", recorded_conversations()[:3])
def test_each_messages_fate_follows_its_length_turn_by_turn(request_):
    typed = validate(request_)
    result = replay_request(typed, "memory-compact", facts=anchor_facts(request_))
    recorded = recorded_of(typed.messages)
    for turn in range(len(result.histories)):
        fates = message_fates(result, recorded, turn)
        sent = result.histories[turn]
        shown = sorted((f for f in fates if f.position is not None), key=lambda f: f.position)
        assert [(f.role, f.content) for f in shown] == [(m.role, m.content) for m in sent]
        for f in fates:
            if f.status == NEW:
                continue
            length = [
                next((len(m.content) for m in h if m.origin == f.index), None)
                for h in result.histories[: turn + 1]
            ]
            if f.status == GONE:
                assert length[-1] is None and (f.at == f.index or length[f.at - 1] is not None)
                assert length[f.at] is None
            elif f.status == TRIMMED:
                assert length[-1] == f.chars < f.original_chars
                before = f.original_chars if f.at == f.index else length[f.at - 1]
                assert length[f.at] < before
            else:
                assert f.status == KEPT and length[-1] == f.chars == f.original_chars


def test_cache_reuse_is_reused_over_sent_characters():
    request = recorded_conversations()[0].values[0]
    result = replay_request(validate(request), "memory-compact")
    sent = sum(t.chars_out for t in result.turns)
    assert cache_reuse(result) == sum(t.stable_prefix_chars for t in result.turns) / sent
    assert 0 < cache_reuse(result) < 1
