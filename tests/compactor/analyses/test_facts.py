"""Watched facts: the matching rule, where each fact ends up, and from which budget it survives."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor import run, validate
from compactor.analyses._facts import FactInMessage, WatchedFact, find_phrase, parse_phrases, watch
from compactor.analyses._sweeps import BUDGET_RANGE, budget_sweep
from compactor.samples import load_sample
from tests.generate import VOCABULARY, requests


def dispatcher(**params):
    return run(validate(load_sample("dispatcher").request | params))


# --- matching rule ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("phrase", "text", "spans"),
    [
        ("de-4471", "Where is DE-4471? de-4471.", [(9, 16), (18, 25)]),
        ("4471", "DE-4471", [(3, 7)]),  # substrings count
        ("STRASSE", "Die Straße", [(4, 10)]),  # full case folding
        ("straße", "DIE STRASSE", [(4, 11)]),
        ("ΣΊΣΥΦΟΣ", "ο σίσυφος", [(2, 9)]),  # final sigma
        ("order  DE-4471", "order\nDE-4471", [(0, 13)]),  # whitespace runs match any whitespace
        ("  Lyon ", "to Lyon", [(3, 7)]),  # the phrase's own edges are ignored
        ("cafe", "café", []),  # accents count
        ("a.b", "axb a.b", [(4, 7)]),  # no regular-expression syntax
        ("会议", "会议改到周四", [(0, 2)]),
    ],
)
def test_matching_rule(phrase, text, spans):
    assert find_phrase(phrase, text) == spans


def test_a_blank_phrase_is_an_error_and_is_skipped_when_watching():
    with pytest.raises(ValueError, match="whitespace"):
        find_phrase("  ", "text")
    assert watch(dispatcher(), ["", "  "]) == ()


def test_parse_phrases_one_per_line():
    assert parse_phrases(" DE-4471 \n\n de-4471\nLyon\r\nThursday 14:00\n") == (
        "DE-4471",
        "Lyon",
        "Thursday 14:00",
    )


# --- where facts end up ----------------------------------------------------------------------


def test_dispatcher_facts_at_the_catalog_setting():
    result = dispatcher()
    order_id, scan, nowhere = watch(result, ["de-4471", "03:10", "Paris"])
    # 1 and 2 survive from 264 and 371 characters (see test_sweeps), 3 is the duplicate, 4 is
    # protected.
    assert order_id == WatchedFact(
        "de-4471",
        (
            FactInMessage(1, "user", "verbatim", 1, 18, 25, 95, "verbatim", 264),
            FactInMessage(2, "assistant", "verbatim", 1, 0, 7, 107, "verbatim", 371),
            FactInMessage(3, "user", "duplicate", 1, 18, 25, 95, "removed", None),
            FactInMessage(4, "assistant", "protected", 1, 0, 7, 59, "verbatim", 100),
        ),
        "verbatim",
        True,
        100,
    )
    assert (scan.status, scan.survives_from_budget, [m.index for m in scan.messages]) == (
        "verbatim",
        371,
        [2],
    )
    assert nowhere == WatchedFact("Paris", (), "not found", False, None)


def test_a_fact_beyond_the_trimmed_prefix_is_cut_away_at_every_budget():
    # At 80 characters message 2 is cut after "03:10." (62 characters): the arrival time is gone.
    result = dispatcher(max_message_chars=80)
    arrival, hub = watch(result, ["Thursday 14:00", "Strasbourg hub"])
    assert [
        (m.index, m.kept_chars, m.status, m.survives_from_budget) for m in arrival.messages
    ] == [(2, 62, "cut away", None)]
    assert (arrival.status, arrival.survives, arrival.survives_from_budget) == (
        "cut away",
        False,
        None,
    )
    assert (hub.status, hub.survives) == ("verbatim", True)


def test_a_dropped_message_takes_its_fact_with_it():
    result = dispatcher(budget_chars=300)  # message 2 is dropped
    (scan,) = watch(result, ["03:10"])
    assert (scan.status, scan.survives, scan.survives_from_budget) == ("removed", False, 371)


FILLER = ["Fine. ", "We checked the route again. ", "x" * 40, " ", "Later that day! ", "no end "]


@st.composite
def fact_requests(draw):
    """Long messages with an order id somewhere in them, often past where a trim cuts."""

    def content():
        before = "".join(draw(st.lists(st.sampled_from(FILLER), max_size=10)))
        fact = draw(st.sampled_from(["", "order DE-4471. ", "ORDER de-4471 "]))
        return before + fact + "".join(draw(st.lists(st.sampled_from(FILLER), max_size=4))) + "."

    count = draw(st.integers(2, 8))
    roles = draw(st.lists(st.sampled_from(["user", "assistant"]), min_size=count, max_size=count))
    return {
        "messages": [{"role": role, "content": content()} for role in roles],
        "budget_chars": draw(st.integers(100, 1500)),
        "keep_last_n": draw(st.integers(0, 2)),
        "keep_roles": [],
        "max_message_chars": draw(st.integers(80, 200)),
    }


phrases = st.lists(
    st.sampled_from(VOCABULARY + ["order DE-4471", "x" * 10, "later that day"]),
    min_size=1,
    max_size=4,
)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(requests() | fact_requests(), phrases)
def test_facts_match_the_output_at_every_budget(request, watched):
    result = run(validate(request))
    sweep = budget_sweep(result)
    facts = watch(result, watched, sweep)
    assert [f.phrase for f in facts] == [p.strip() for p in watched]

    def returned(r, phrase):
        return any(find_phrase(phrase, t.output) for t in r.survivors)

    budgets = {s.survives_from_budget for s in sweep.survival} - {None}
    budgets = {b + d for b in budgets for d in (-1, 0)} | set(BUDGET_RANGE)
    for budget in sorted(b for b in budgets if BUDGET_RANGE[0] <= b <= BUDGET_RANGE[1]):
        # The text analysis is parameter-free: the same messages at another budget reuse it.
        at = run(
            replace(result.request, params=replace(result.request.params, budget_chars=budget)),
            analysis=result.analysis,
        )
        for fact in facts:
            expected = fact.survives_from_budget is not None and fact.survives_from_budget <= budget
            assert returned(at, fact.phrase) == expected, (fact.phrase, budget)
    for fact in facts:
        assert fact.survives == returned(result, fact.phrase)
        contains = [t.index for t in result.messages if find_phrase(fact.phrase, t.message.content)]
        assert [m.index for m in fact.messages] == contains
