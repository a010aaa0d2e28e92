"""A budget in tokens is the largest character budget whose output fits it: held to brute force,
a compact (or a strategy run) at every budget."""

from __future__ import annotations

import pytest

from compactor import compact, shrink_with_report, validate
from compactor.analyses._sweeps import BUDGET_RANGE
from compactor.integrations import Setting
from compactor.strategies import apply_strategy
from compactor.text._tokens import count_tokens
from tests.compactor.integrations.conftest import SAMPLES

LOW, HIGH = BUDGET_RANGE
PARAMS = {"keep_last_n": 2, "max_message_chars": 200}


def total(request: dict) -> int:
    return sum(len(m["content"]) for m in request["messages"])


def largest_fitting(tokens_at: dict[int, int], limit: int) -> int | None:
    """The largest budget whose output fits; budgets past the conversation's characters give
    the same output as the last one tried, so they fit alike (up to the schema's maximum)."""
    fitting = [b for b, t in tokens_at.items() if t <= limit]
    if not fitting:
        return None
    best = max(fitting)
    return HIGH if best == max(tokens_at) else best


def tokens(contents, encoding: str) -> int:
    return sum(count_tokens(c, encoding) for c in contents)


@pytest.mark.parametrize(
    "slug",
    [
        "dispatcher",
        pytest.param("repeated-questions", marks=pytest.mark.slow),
        pytest.param("multilingual", marks=pytest.mark.slow),
    ],
)
def test_memory_compact_gets_the_largest_budget_that_fits(slug):
    request = {**SAMPLES[slug], **PARAMS}
    encoding = "cl100k_base" if slug == "multilingual" else "o200k_base"
    tokens_at = {
        b: tokens(
            [m["content"] for m in compact({**request, "budget_chars": b})["messages"]], encoding
        )
        for b in range(LOW, total(request) + 2)
    }
    for share in (0.0, 0.3, 0.6, 1.0):
        limit = round(
            min(tokens_at.values()) + share * (max(tokens_at.values()) - min(tokens_at.values()))
        )
        shrunk = shrink_with_report(
            request, Setting(budget_tokens=max(limit, 1), encoding=encoding, params=PARAMS)
        )
        report = shrunk.report
        expected = largest_fitting(tokens_at, max(limit, 1))
        assert report.budget_chars == (LOW if expected is None else expected), share
        assert report.output_tokens == tokens(
            [m["content"] for m in shrunk.messages["messages"]], encoding
        )
        assert report.budget_met == (
            expected is not None and report.output_chars <= report.budget_chars
        )


@pytest.mark.parametrize("strategy", ["keep-last", "drop-oldest"])
def test_other_strategies_get_the_largest_budget_by_bisection(strategy):
    request = SAMPLES["dispatcher"]
    typed = validate(request)
    tokens_at = {
        b: tokens(
            [m["content"] for m in apply_strategy(strategy, typed, budget_chars=b).returned()],
            "o200k_base",
        )
        for b in range(LOW, total(request) + 2)
    }
    for limit in sorted(set(tokens_at.values()))[1:-1]:
        report = shrink_with_report(request, Setting(strategy=strategy, budget_tokens=limit)).report
        assert report.budget_chars == largest_fitting(tokens_at, limit)
        assert report.output_tokens == tokens_at[min(report.budget_chars, max(tokens_at))]


def test_a_token_budget_nothing_fits_is_reported_not_met():
    request = SAMPLES["dispatcher"]  # its system message is protected
    report = shrink_with_report(request, Setting(budget_tokens=1, params=PARAMS)).report
    assert (report.budget_chars, report.budget_met) == (LOW, False)
    assert "budget not met" in report.summary()


def test_a_token_budget_without_the_tokens_extra_names_the_command(monkeypatch):
    import sys

    from compactor.text._tokens import tokenizer

    tokenizer.cache_clear()
    monkeypatch.setitem(sys.modules, "bpe_openai", None)
    try:
        with pytest.raises(ImportError, match=r'\.venv/bin/pip install -e "\.\[tokens\]"'):
            shrink_with_report(SAMPLES["dispatcher"], Setting(budget_tokens=100))
    finally:
        tokenizer.cache_clear()  # loaded again, from the real package, by the next count
