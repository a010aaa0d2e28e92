"""The three sweeps against brute force: the pipeline run at each budget, threshold and limit."""

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor import run, validate
from compactor.analyses._sweeps import (
    BUDGET_RANGE,
    MAX_CHARS_RANGE,
    THRESHOLD_RANGE,
    BudgetStep,
    Survival,
    budget_sweep,
    survival_budgets,
    threshold_sweep,
    trim_sweep,
)
from compactor.samples import load_sample
from compactor.text._words import cut, cut_lengths
from tests.generate import PIECES, requests

EXAMPLES = settings(max_examples=150, deadline=None)


def rerun(result, **params):
    """The pipeline on the same messages with some parameters changed (analysis reused)."""
    request = replace(result.request, params=replace(result.request.params, **params))
    return run(request, analysis=result.analysis)


# --- budget ----------------------------------------------------------------------------------


def test_dispatcher_survival_budgets():
    # After dedupe (message 3) and trim (nothing over 120 characters), 371 characters are
    # present: 73 + 95 + 107 + 59 + 37. Drop would remove 2 (assistant, lower score) first,
    # then 1, so 2 needs the whole 371 and 1 needs 371 - 107 = 264.
    result = run(validate(load_sample("dispatcher").request))
    assert survival_budgets(result) == (
        Survival(0, "system", "protected", 100, "protected", 73),
        Survival(1, "user", "verbatim", 264, "drop order", 95),
        Survival(2, "assistant", "verbatim", 371, "drop order", 107),
        Survival(3, "user", "duplicate", None, "duplicate", 95),
        Survival(4, "assistant", "protected", 100, "protected", 59),
        Survival(5, "user", "protected", 100, "protected", 37),
    )
    # 73 + 59 + 37 = 169 protected characters: the budget is met from there on.
    assert budget_sweep(result).steps == (
        BudgetStep(100, 168, 169, 3, 2, False),
        BudgetStep(169, 263, 169, 3, 2, True),
        BudgetStep(264, 370, 264, 4, 1, True),
        BudgetStep(371, 400_000, 371, 5, 0, True),
    )


def budgets_to_try(sweep, draw_budget):
    low, high = BUDGET_RANGE
    edges = {s.survives_from_budget for s in sweep.survival} | {
        b for step in sweep.steps for b in (step.from_budget, step.to_budget)
    }
    near = {b + d for b in edges if b is not None for d in (-1, 0, 1)}
    return sorted({b for b in near | {low, high, draw_budget} if low <= b <= high})


@EXAMPLES
@given(requests(), st.integers(*BUDGET_RANGE))
def test_survival_budgets_match_running_compact_at_every_edge(request, other_budget):
    result = run(validate(request))
    sweep = budget_sweep(result)
    assert [s.index for s in sweep.survival] == list(range(len(request["messages"])))
    for budget in budgets_to_try(sweep, other_budget):
        at = rerun(result, budget_chars=budget)
        kept = {t.index for t in at.survivors}
        expected = {
            s.index
            for s in sweep.survival
            if s.survives_from_budget is not None and s.survives_from_budget <= budget
        }
        assert kept == expected, budget
        step = sweep.at(budget)
        assert step.from_budget <= budget <= step.to_budget
        assert (
            step.output_chars,
            step.output_messages,
            step.dropped_messages,
            step.budget_met,
        ) == (
            at.totals.output,
            len(at.survivors),
            len(at.dropping.dropped),
            at.budget_met,
        )


@EXAMPLES
@given(requests())
def test_budget_steps_cover_the_range_and_mark_the_current_budget(request):
    result = run(validate(request))
    sweep = budget_sweep(result)
    low, high = BUDGET_RANGE
    assert sweep.steps[0].from_budget == low and sweep.steps[-1].to_budget == high
    for before, after in zip(sweep.steps, sweep.steps[1:], strict=False):
        assert after.from_budget == before.to_budget + 1
        assert (after.output_messages, after.budget_met) != (
            before.output_messages,
            before.budget_met,
        )
    assert sweep.current_budget == request["budget_chars"]
    assert sweep.current.output_chars == result.totals.output
    for s, trace in zip(sweep.survival, result.messages, strict=True):
        assert s.fate == trace.fate
        if trace.survived:
            assert s.chars == trace.chars


def test_a_message_no_budget_in_range_keeps():
    # 110 unprotected messages cut to 4,000 characters each: 440,000 characters, more than the
    # largest budget, so the first ten in drop order are dropped whatever the budget.
    messages = [{"role": "user", "content": f"Message {i} ".ljust(8000, "x")} for i in range(110)]
    request = {
        "messages": messages,
        "budget_chars": 400_000,
        "keep_last_n": 0,
        "keep_roles": [],
        "max_message_chars": 4000,
    }
    result = run(validate(request))
    assert result.totals.after_trim == 440_000
    sweep = budget_sweep(result)
    never = [s.index for s in sweep.survival if s.survives_from_budget is None]
    assert never == list(result.dropping.order[:10])
    assert never == [d.index for d in result.dropping.dropped]
    assert {s.rule for s in sweep.survival if s.index in never} == {"beyond range"}
    assert sweep.steps[-1] == BudgetStep(400_000, 400_000, 400_000, 100, 10, True)


def test_protected_alone_over_the_budget():
    # keep_last_n 50 protects all six messages, the repeated question too: 466 characters.
    request = load_sample("dispatcher").request | {"keep_last_n": 50}
    sweep = budget_sweep(run(validate(request)))
    assert [s.survives_from_budget for s in sweep.survival] == [100] * 6
    assert sweep.steps == (
        BudgetStep(100, 465, 466, 6, 0, False),
        BudgetStep(466, 400_000, 466, 6, 0, True),
    )


# --- duplicate threshold ---------------------------------------------------------------------


WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"]


@st.composite
def overlapping_requests(draw):
    """Messages made of a few shared words: many similarity values between 0.5 and 1."""
    messages = draw(
        st.lists(
            st.tuples(
                st.sampled_from(["user", "assistant"]),
                st.lists(st.sampled_from(WORDS), min_size=1, max_size=8),
            ),
            min_size=2,
            max_size=14,
        )
    )
    return {
        "messages": [{"role": role, "content": " ".join(words)} for role, words in messages],
        "budget_chars": 100,
        "keep_last_n": draw(st.integers(0, 3)),
        "keep_roles": [],
        "duplicate_threshold": draw(st.floats(*THRESHOLD_RANGE)),
    }


def removed_at(result, threshold):
    return tuple(
        r.index for r in rerun(result, duplicate_threshold=threshold).deduplication.removed
    )


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(requests() | overlapping_requests(), st.floats(*THRESHOLD_RANGE))
def test_threshold_steps_match_running_dedupe_at_every_point(request, other):
    result = run(validate(request))
    sweep = threshold_sweep(result)
    low, high = THRESHOLD_RANGE
    assert sweep.steps[0].low == low and sweep.steps[0].includes_low
    assert sweep.steps[-1].high == high
    for before, after in zip(sweep.steps, sweep.steps[1:], strict=False):
        assert after.low == before.high and not after.includes_low
        assert after.removed != before.removed
    for step in sweep.steps:
        assert removed_at(result, step.high) == step.removed
        assert removed_at(result, (step.low + step.high) / 2) == step.removed
        if step.includes_low:
            assert removed_at(result, step.low) == step.removed
        chars = sum(len(request["messages"][i]["content"]) for i in step.removed)
        assert (step.removed_messages, step.removed_chars) == (len(step.removed), chars)
    assert sweep.at(other).removed == removed_at(result, other)
    assert sweep.current.removed == tuple(r.index for r in result.deduplication.removed)


def test_a_chain_of_duplicates_changes_with_the_threshold():
    # 1 is 0.75 like 0 and 2 is 0.8 like 1 but 0.6 like 0: at 0.75 message 1 goes, and 2 is
    # then compared with 0 only (0.6 < 0.75), so it stays; above 0.75, 1 stays and 2 goes.
    request = {
        "messages": [
            {"role": "user", "content": "a b c"},
            {"role": "user", "content": "a b c d"},
            {"role": "user", "content": "a b c d e"},
            {"role": "user", "content": "z"},
        ],
        "budget_chars": 100,
        "keep_last_n": 1,
    }
    sweep = threshold_sweep(run(validate(request)))
    assert [(s.low, s.high, s.includes_low, s.removed) for s in sweep.steps] == [
        (0.5, 0.6, True, (1, 2)),
        (0.6, 0.75, False, (1,)),
        (0.75, 0.8, False, (2,)),
        (0.8, 1.0, False, ()),
    ]
    assert sweep.current_threshold == 0.9 and sweep.current.removed == ()
    assert sweep.at(0.7).removed_chars == len("a b c d")


# --- max_message_chars -----------------------------------------------------------------------

# Text with every kind of sentence end and grapheme cluster the contract names, CR LF included.
TRICKY = PIECES + ["\r\n", "\r", "！", "？", ". ", "...", "a.b", "\u0301", "\u200d", "🏽", "🇫🇷"]
texts = st.lists(st.sampled_from(TRICKY) | st.text(max_size=3), min_size=1, max_size=40).map(
    "".join
)


@settings(max_examples=300, deadline=None)
@given(texts)
def test_cut_lengths_agree_with_the_trim_stage_at_every_limit(text):
    limits = np.arange(1, len(text) + 3)
    lengths, sentence = cut_lengths(text, limits[::-1])
    for limit, length, at_sentence in zip(limits[::-1], lengths, sentence, strict=True):
        if limit >= len(text):
            assert (length, at_sentence) == (len(text), False)
        else:
            assert (int(length), "sentence" if at_sentence else "hard") == cut(text, int(limit))


def trim_report(result):
    cuts = result.trimming.cuts
    return (
        sum(c.original_chars - c.chars for c in cuts),
        len(cuts),
        sum(c.kind == "sentence" for c in cuts),
        sum(c.kind == "hard" for c in cuts),
        result.totals.after_trim,
    )


@pytest.mark.slow
@EXAMPLES
@given(requests(), st.integers(*MAX_CHARS_RANGE))
def test_trim_sweep_matches_running_the_pipeline(request, other):
    result = run(validate(request))
    sweep = trim_sweep(result)
    low, high = MAX_CHARS_RANGE
    assert [p.max_message_chars for p in sweep.points] == list(range(low, high + 1))
    longest = max(len(m["content"]) for m in request["messages"])
    for limit in {low, high, other, longest - 1, longest, (low + longest) // 2}:
        if low <= limit <= high:
            point = sweep.at(limit)
            assert point.max_message_chars == limit
            assert (
                point.cut_chars,
                point.trimmed_messages,
                point.sentence_cuts,
                point.hard_cuts,
                point.after_trim_chars,
            ) == trim_report(rerun(result, max_message_chars=limit))
    assert sweep.current.cut_chars == trim_report(result)[0]


def test_trim_sweep_on_a_sample_at_every_limit():
    # Exhaustive where the messages are long enough to be cut: every limit up to the longest.
    request = load_sample("dispatcher").request | {"keep_last_n": 0, "keep_roles": []}
    result = run(validate(request))
    sweep = trim_sweep(result)
    for limit in range(80, 130):
        point = sweep.at(limit)
        assert (
            point.cut_chars,
            point.trimmed_messages,
            point.sentence_cuts,
            point.hard_cuts,
            point.after_trim_chars,
        ) == trim_report(rerun(result, max_message_chars=limit))
    assert sweep.at(4000).cut_chars == 0 and sweep.at(80).cut_chars > 0
