"""The Check pages' data frames: watched facts are the engine's facts.watch, and a fact is in the
output from the budget the table gives; tool pairs are compactor.analyses._pairing.check_pairing."""

from dataclasses import replace

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor import run, validate
from compactor.analyses._facts import WatchedFact, find_phrase, watch
from compactor.analyses._pairing import check_pairing
from compactor.analyses._sweeps import BUDGET_RANGE
from compactor.formats import convert_text
from explorer.frames import checks
from tests.explorer.requests import rich_request
from tests.generate import VOCABULARY, requests
from tests.paths import CORPUS

EXAMPLES = settings(max_examples=40, deadline=None)


def values(series):
    """A column as Python values, None for a missing one (Int64 columns hold pd.NA)."""
    return [None if pd.isna(v) else v for v in series]


def rerun(result, **params):
    """The pipeline on the same messages with some parameters changed."""
    request = replace(result.request, params=replace(result.request.params, **params))
    return run(request, analysis=result.analysis)


@pytest.fixture(scope="module")
def rich():
    return run(validate(rich_request()))


# --- watched facts --------------------------------------------------------------------------


def test_fact_frames_are_what_watch_says(rich):
    phrases = ["AC-1234", "ac-9876", "Porto", "nowhere to be found", "Friday evening"]
    facts = watch(rich, phrases)
    frame = checks.facts_frame(facts, BUDGET_RANGE)
    assert list(frame["phrase"]) == [f.phrase for f in facts]
    assert list(frame["status"]) == [f.status for f in facts]
    assert list(frame["survives"]) == [f.survives for f in facts]
    assert list(frame["messages"]) == [len(f.messages) for f in facts]
    assert values(frame["survives_from_budget"]) == [f.survives_from_budget for f in facts]
    by_phrase = frame.set_index("phrase")
    assert by_phrase.loc["nowhere to be found", "smallest_budget"] == "not in the history"
    found = checks.fact_messages_frame(facts)
    assert len(found) == sum(len(f.messages) for f in facts)
    for row, m in zip(found.itertuples(), [m for f in facts for m in f.messages], strict=True):
        assert (row.index, row.status, row.occurrences, row.kept_chars) == (
            m.index,
            m.status,
            m.occurrences,
            m.kept_chars,
        )


@EXAMPLES
@given(requests(), st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=4))
def test_a_fact_is_in_the_output_from_the_budget_the_table_gives(request, phrases):
    result = run(validate(request))
    frame = checks.facts_frame(watch(result, phrases), BUDGET_RANGE)
    for row in frame.itertuples():
        if pd.isna(row.survives_from_budget):
            assert not row.smallest_budget.startswith("from")
            continue
        budget = int(row.survives_from_budget)
        at = rerun(result, budget_chars=budget)
        assert any(find_phrase(row.phrase, t.output) for t in at.survivors)
        assert row.survives == (budget <= result.request.params.budget_chars)


def test_fact_budget_labels(rich):
    facts = {f.phrase: f for f in watch(rich, ["AC-1234", "Porto", "zzz-not-there"])}
    label = checks.fact_budget_label
    assert label(facts["AC-1234"], BUDGET_RANGE) == "at every budget (from 100 characters)"
    assert label(facts["Porto"], BUDGET_RANGE) == "from 343 characters"
    assert label(facts["zzz-not-there"], BUDGET_RANGE) == "not in the history"
    cut_away = WatchedFact("late words", (), "cut away", False, None)
    assert label(cut_away, BUDGET_RANGE) == (
        "at no budget in range (cut away by a trim or removed by dedupe)"
    )


# --- tool pairs -----------------------------------------------------------------------------

TOOL_HISTORY = {
    "messages": [
        {"role": "system", "content": "You look up orders."},
        {"role": "user", "content": "Where is order 77?"},
        {"role": "assistant", "content": "Calling lookup_order(77)."},
        {"role": "tool", "content": '{"order": 77, "status": "shipped", "eta": "Friday"}'},
        {"role": "user", "content": "And order 78?"},
        {"role": "assistant", "content": "Order 77 ships Friday. Let me check 78."},
    ],
    "budget_chars": 100,
    "keep_last_n": 1,
    "keep_roles": ["system", "tool"],
}


def test_pairs_frame_and_summary_name_the_split_pair():
    result = run(validate(TOOL_HISTORY))
    report = check_pairing(result)
    frame = checks.pairs_frame(report, result)
    assert frame.to_dict("records") == [
        {
            "call": "#2",
            "result": "#3",
            "paired_by": "position",
            "call_fate": "dropped",
            "result_fate": "protected",
            "call_kept": False,
            "result_kept": True,
            "problem": "result without call",
        }
    ]
    assert checks.pairing_summary(report).startswith(
        "Compaction split 1 of the 1 tool call/result pair: #3 is kept without its partner."
    )
    whole = check_pairing(run(validate({**TOOL_HISTORY, "budget_chars": 400_000})))
    assert checks.pairing_summary(whole) == (
        "Every one of the 1 tool call/result pair is kept whole or removed whole."
    )
    linked = checks.pairs_frame(check_pairing(result, [(2, 3)]), result)
    assert list(linked["paired_by"]) == ["tool-call id"]


def test_the_calls_whose_empty_results_the_import_removed_are_named():
    conversion = convert_text((CORPUS / "tau_airline_tool_heavy.json").read_bytes())
    result = run(validate(conversion.request))
    assert checks.removed_by_import_note(check_pairing(result)) is None
    report = check_pairing(result, conversion.tool_links, conversion.removed_results)
    calls = sorted({index for index, _ in conversion.removed_results})
    assert len(calls) == 2
    note = checks.removed_by_import_note(report)
    assert note.startswith(
        f"The import removed the empty results of the tool calls in assistant messages "
        f"#{calls[0]} and #{calls[1]}, so they have no pair here."
    )
    assert all(pair.call not in calls for pair in report.pairs)
