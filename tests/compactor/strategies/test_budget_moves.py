"""The lineup after a budget move over one history: what the strategies keep per history (what
the budget does not change) gives the results a run with nothing kept gives, and no caller can
change what is kept."""

import dataclasses

import numpy as np
import pytest

from compactor import validate
from compactor.samples import load_sample
from compactor.strategies import _anchor_keep, _focus, _langchain_trim, _prune_messages, _returned
from compactor.strategies._lineup import compare_strategies
from compactor.strategies._spans import protected_because
from compactor.text import _relevance

#: Every memo the lineup's strategies keep per history.
MEMOS = (
    _returned._shared_records,
    _focus._prepared,
    _anchor_keep._prepared,
    _anchor_keep._gains,
    _anchor_keep._by_message,
    _prune_messages._pruned,
    _langchain_trim._messages,
    _relevance._cover_words,
)

#: Each strategy's own parameters beside the lineup's: focus without a query (the rare words'
#: cover), focus and anchor-keep with a focus, other protections and part sizes.
PARAMS = (
    None,
    {
        "focus": {"focus": "ok", "recent_share": 0.3},
        "anchor-keep": {"focus": "the failing test", "unit_chars": 60, "keep_last_n": 1},
    },
    {
        "focus": {"focus": "which test fails", "part_chars": 120, "spread": 1},
        "anchor-keep": {"fill_recent": False, "keep_roles": ["user"]},
    },
)


def forget():
    for memo in MEMOS:
        memo.cache_clear()


@pytest.mark.parametrize("sample", ["coding-agent", "pins-and-ids", "multilingual"])
def test_the_lineup_after_budget_moves_is_the_lineup_with_nothing_kept(sample):
    data = load_sample(sample).request
    chars = sum(len(m["content"]) for m in data["messages"])
    budgets = [max(100, chars * share // 100) for share in (40, 10, 70)]
    forget()
    # one history, its budget and the strategies' parameters moved in turn, memos shared
    cases = [(budget, params) for params in PARAMS for budget in budgets]
    moved = [
        compare_strategies(validate({**data, "budget_chars": budget}), params=params)
        for budget, params in cases
    ]
    # the moves did reach what was kept (the test is not of a cold run against itself)
    assert _focus._prepared.cache_info().hits and _anchor_keep._gains.cache_info().hits
    assert _returned._shared_records.cache_info().hits and _relevance._cover_words.cache_info().hits
    for (budget, params), after in zip(cases, moved, strict=True):
        forget()
        fresh = compare_strategies(validate({**data, "budget_chars": budget}), params=params)
        assert after == fresh and repr(after) == repr(fresh)


def test_the_focus_account_after_a_move_is_the_account_with_nothing_kept():
    # the account the Strategies page shows (reasons, matched terms) is not the lineup's: its
    # own path through what focus keeps per history
    request = validate(load_sample("coding-agent").request)
    forget()
    _focus.apply(request, 900)
    moved = _focus.apply(request, 400, {"spread": 1})
    forget()
    assert moved == _focus.apply(request, 400, {"spread": 1})


def test_what_is_kept_per_history_cannot_be_changed_by_a_caller():
    request = validate(load_sample("coding-agent").request)
    forget()
    first = compare_strategies(request, 600)
    # the records the strategies share (a message returned whole, or removed) are frozen
    shared = [
        m
        for m in first.result("keep-last").messages
        if m in first.result("memory-compact").messages
    ]
    assert shared
    with pytest.raises(dataclasses.FrozenInstanceError):
        shared[0].content = "changed"
    with pytest.raises(TypeError):
        first.result("keep-last").messages[0] = None  # type: ignore[index]
    # focus's parts and scores: tuples and arrays that cannot be written
    options = _focus._options(request, None)
    because = tuple(protected_because(m, len(request.messages), options) for m in request.messages)
    focus = _focus._query(request, options)
    pieces, found, by_message, order = _focus._prepared(
        request.contents, because, options["part_chars"], focus.terms, focus.turns
    )
    assert isinstance(pieces, tuple) and isinstance(by_message, tuple)
    for array in (found.scores, found._texts, found._terms, found._scores):
        with pytest.raises(ValueError):
            array[...] = 0
    assert np.any(found.scores > 0)
    # the words focus covers when the pending turn says nothing: arrays and a mapping that
    # cannot be written
    words, vocab, idf, gains = _relevance._cover_words(("tea and cake", "Oslo, Bergen"))
    for array in (*words, idf):
        with pytest.raises(ValueError):
            array[...] = 0
    with pytest.raises(TypeError):
        vocab[0] = "changed"  # type: ignore[index]
    assert isinstance(gains, tuple)
    # vercel-prune's pruning: a read-only mapping, copied for each run
    pruned = _prune_messages._pruned(
        request.roles, request.contents, request.ids, "before-last-2-messages", None, "remove"
    )
    with pytest.raises(TypeError):
        pruned[0] = "changed"  # type: ignore[index]
    assert compare_strategies(request, 600) == first


def test_histories_with_the_same_texts_keep_their_own_roles_ids_and_pins():
    # what is kept is keyed on every column a record or a choice reads, not on the texts alone
    data = load_sample("pins-and-ids").request
    plain = {
        **data,
        "messages": [{"role": m["role"], "content": m["content"]} for m in data["messages"]],
    }
    forget()
    ided, bare = validate(data), validate(plain)
    for _ in range(2):  # the second pass reads what the first kept
        with_ids = compare_strategies(ided, 1500)
        without = compare_strategies(bare, 1500)
        assert [m.id for m in with_ids.result("keep-last").messages] == list(ided.ids)
        assert all(m.id is None for r in without.results for m in r.messages)
    forget()
    assert compare_strategies(bare, 1500) == without
    assert compare_strategies(ided, 1500) == with_ids
