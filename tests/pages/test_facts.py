"""Watched facts: the tables are the engine's facts.watch of the phrases typed, they follow the
parameters, the phrases are kept across pages, and a phrase is only ever shown as table text."""

import pandas as pd
import pytest

from compactor.analyses._facts import parse_phrases, watch
from compactor.samples import load_samples
from explorer.session.keys import PHRASES_KEY
from harness.apptest import (
    MOVES,
    assert_clean,
    engine,
    follows_the_engine,
    goto,
    on_page,
    set_param,
    start,
    table,
)
from tests.explorer.requests import rich_request

PAGE = "pages/facts.py"
PHRASES = "AC-1234\nporto\n\nFriday   evening\nAC-1234\nnowhere to be found\nroute"


def values(series):
    return [None if pd.isna(v) else int(v) for v in series]


def reported(at):
    facts = table(at, "smallest_budget")
    found = table(at, "occurrences")
    return {
        "facts": list(
            zip(
                facts["phrase"],
                facts["status"],
                facts["survives"],
                values(facts["survives_from_budget"]),
                strict=True,
            )
        ),
        "found": list(
            zip(
                found["phrase"],
                found["message"],
                found["status"],
                values(found["survives_from_budget"]),
                strict=True,
            )
        ),
    }


def expected(result, text=PHRASES):
    facts = watch(result, parse_phrases(text))
    return {
        "facts": [(f.phrase, f.status, f.survives, f.survives_from_budget) for f in facts],
        "found": [
            (f.phrase, f"#{m.index}", m.status, m.survives_from_budget)
            for f in facts
            for m in f.messages
        ],
    }


def watching(text=PHRASES, request=None):
    at = on_page(PAGE, request or rich_request())
    at.text_area(key=PHRASES_KEY).input(text).run()
    return at


def test_without_phrases_the_page_asks_for_one():
    at = on_page(PAGE, rich_request())
    assert_clean(at)
    assert any("Enter a phrase" in i.value for i in at.info)
    assert not at.dataframe


def test_the_tables_are_watch_of_the_phrases():
    at = watching()
    assert_clean(at)
    got = reported(at)
    assert got == expected(engine(at))
    assert [p for p, *_ in got["facts"]] == [
        "AC-1234", "porto", "Friday   evening", "nowhere to be found", "route",
    ]  # fmt: skip
    statuses = {p: s for p, s, *_ in got["facts"]}
    assert statuses["nowhere to be found"] == "not found"
    assert statuses["Friday   evening"] == "removed"  # its messages are dropped or duplicates


@pytest.mark.parametrize("move", MOVES, ids=lambda m: f"{m[0]}={m[1]}")
def test_the_facts_follow_the_parameters(move):
    follows_the_engine(None, None, reported, expected, move, at=watching())


def test_a_larger_budget_keeps_a_fact_from_the_budget_the_table_gives():
    at = watching("Friday evening")
    (fact,) = reported(at)["facts"]
    phrase, status, survives, budget = fact
    assert not survives and budget is not None
    set_param(at, "budget_chars", budget)
    (fact,) = reported(at)["facts"]
    assert fact[1] == "verbatim" and fact[2]
    set_param(at, "budget_chars", budget - 1)
    assert not reported(at)["facts"][0][2]


def test_the_phrases_are_kept_across_pages():
    at = watching()
    goto(at, "pages/overview.py")
    goto(at, PAGE)
    assert_clean(at)
    assert at.text_area(key=PHRASES_KEY).value == PHRASES
    assert reported(at) == expected(engine(at))


def test_a_hostile_phrase_is_shown_as_table_text_only():
    hostile = "<script>alert(1)</script>\n[x](javascript:alert(2))"
    at = watching(hostile)
    assert_clean(at)
    assert list(table(at, "smallest_budget")["phrase"]) == hostile.split("\n")
    for element in [*at.markdown, *at.caption, *at.info, *at.warning, *at.html]:
        assert "<script" not in element.value and "javascript:" not in element.value


@pytest.mark.parametrize("sample", load_samples(), ids=lambda s: s.slug)
def test_every_sample_watches_its_own_words(sample):
    words = sample.request["messages"][1]["content"].split()[:3]
    text = "\n".join([*words, "a phrase that is nowhere"])
    at = goto(start({"sample": sample.slug}), PAGE)
    at.text_area(key=PHRASES_KEY).input(text).run()
    assert_clean(at)
    assert reported(at) == expected(engine(at), text)
