"""Cached engine calls: the text analysis once per conversation, one run per parameter set, and
the analyses read from that run (sweeps, walkthrough, strategies, facts, pairing).

A slider move changes only the parameters, so it reuses the conversation's analysis (words,
topic terms, pairwise similarity) and runs just the four cheap stages; going back to a setting
seen before costs nothing. Keys are the conversation's fingerprint and the parameters' JSON, so
the large contents are never hashed on a rerun.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from compactor import CompactionResult, InvalidRequest, TextAnalysis, analyse, run, validate
from compactor.analyses import (
    ABComparison,
    BudgetSweep,
    Graded,
    PairFix,
    PairingReport,
    ThresholdSweep,
    TokenReport,
    TrimSweep,
    Walkthrough,
    WatchedFact,
    budget_sweep,
    check_pairing,
    compare_results,
    grade,
    message_counts,
    pair_fix,
    semantic_pairs,
    threshold_sweep,
    token_report,
    trim_sweep,
    walkthrough,
    watch,
)
from compactor.analyses.anchors import AnchorReport, anchor_report, find_anchors
from compactor.contract import AUTO_LIMITS
from compactor.engine import build_response
from compactor.errors import Problem
from compactor.strategies import StrategyComparison, compare_strategies
from compactor.text import semantic_similarity
from explorer.session.conversation import Conversation


@dataclass(frozen=True)
class Compaction:
    """One compaction of the current request: the engine's result and response, or the
    request's schema errors (nothing compacted)."""

    request: dict[str, Any]
    result: CompactionResult | None = None
    response: dict[str, Any] | None = None
    errors: tuple[Problem, ...] = field(default_factory=tuple)


@st.cache_resource(max_entries=8, show_spinner=False)
def _analysis(key: str, _contents: tuple[str, ...], _roles: tuple[str, ...]) -> TextAnalysis:
    return analyse(_contents, _roles)


@st.cache_resource(max_entries=64, show_spinner=False)
def _compaction(key: str, params_key: str, _request: dict[str, Any]) -> Compaction:
    try:
        request = validate(_request, limits=AUTO_LIMITS)  # a whole session: the agent mode
    except InvalidRequest as error:
        return Compaction(_request, errors=error.problems)
    result = run(request, analysis=_analysis(key, request.contents, request.roles))
    return Compaction(_request, result, build_response(result))


def params_key(params: Mapping[str, Any]) -> str:
    """The parameters as canonical JSON (``1`` and ``1.0`` stay apart: the response echoes them)."""
    return json.dumps(dict(params), sort_keys=True)


def compaction(conversation: Conversation, params: Mapping[str, Any]) -> Compaction:
    """The engine's compaction of ``conversation`` with ``params`` (shared: never mutate it)."""
    return _compaction(conversation.key, params_key(params), conversation.request(params))


def run_key(conversation: Conversation, result: CompactionResult) -> str:
    """The cache key of one run: the conversation's fingerprint and the run's parameters."""
    return f"{conversation.key}:{params_key(result.request.params.to_dict())}"


@st.cache_resource(max_entries=32, show_spinner=False)
def _budget(key: str, _result: CompactionResult) -> BudgetSweep:
    return budget_sweep(_result)


@st.cache_resource(max_entries=16, show_spinner=False)
def _threshold(key: str, _result: CompactionResult) -> ThresholdSweep:
    return threshold_sweep(_result)


@st.cache_resource(max_entries=16, show_spinner=False)
def _trim(key: str, _result: CompactionResult) -> TrimSweep:
    return trim_sweep(_result)


@st.cache_resource(max_entries=16, show_spinner=False)
def _walkthrough(key: str, _result: CompactionResult) -> Walkthrough:
    return walkthrough(_result)


@st.cache_resource(max_entries=16, show_spinner="Running the strategies...")
def _strategies(
    key: str,
    keep_last_messages: int | None,
    drop_tool_parts: bool,
    semantic_threshold: float | None,
    trim_encoding: str | None,
    params: str,
    _result: CompactionResult,
) -> StrategyComparison:
    return compare_strategies(
        _result.request,
        keep_last_messages=keep_last_messages,
        drop_tool_parts=drop_tool_parts,
        analysis=_result.analysis,
        semantic_threshold=semantic_threshold,
        trim_encoding=trim_encoding,
        params=json.loads(params),
    )


@st.cache_resource(max_entries=32, show_spinner=False)
def _facts(
    key: str, phrases: tuple[str, ...], _result: CompactionResult
) -> tuple[WatchedFact, ...]:
    return watch(_result, phrases, _budget(key, _result))


def budget(conversation: Conversation, result: CompactionResult) -> BudgetSweep:
    """:func:`compactor.analyses._sweeps.budget_sweep` of ``result`` (shared: never mutate it)."""
    return _budget(run_key(conversation, result), result)


def threshold(conversation: Conversation, result: CompactionResult) -> ThresholdSweep:
    """:func:`compactor.analyses._sweeps.threshold_sweep` of ``result``."""
    return _threshold(run_key(conversation, result), result)


def trim(conversation: Conversation, result: CompactionResult) -> TrimSweep:
    """:func:`compactor.analyses._sweeps.trim_sweep` of ``result``."""
    return _trim(run_key(conversation, result), result)


def steps(conversation: Conversation, result: CompactionResult) -> Walkthrough:
    """:func:`compactor.analyses._walkthrough.walkthrough` of ``result``."""
    return _walkthrough(run_key(conversation, result), result)


def strategies(
    conversation: Conversation,
    result: CompactionResult,
    keep_last_messages: int | None = None,
    drop_tool_parts: bool = False,
    semantic_threshold: float | None = None,
    trim_encoding: str | None = None,
    params: Mapping[str, Mapping[str, Any]] | None = None,
) -> StrategyComparison:
    """Every strategy on ``result``'s history at its budget (memory-compact with its parameters;
    with ``semantic_threshold`` also with semantic dedupe; ``trim_encoding`` counts the seed-003
    trim's tokens with that tokenizer; ``params`` are strategies' own parameters by name)."""
    return _strategies(
        run_key(conversation, result),
        keep_last_messages,
        drop_tool_parts,
        semantic_threshold,
        trim_encoding,
        json.dumps(dict(params or {}), sort_keys=True),
        result,
    )


def facts(
    conversation: Conversation, result: CompactionResult, phrases: Sequence[str]
) -> tuple[WatchedFact, ...]:
    """:func:`~compactor.analyses._facts.watch` of ``phrases`` in ``result``, with its sweep."""
    return _facts(run_key(conversation, result), tuple(phrases), result)


@dataclass(frozen=True)
class ABOutcome:
    """Both sides of an A/B comparison; ``comparison`` is None when a side has schema errors."""

    a: Compaction
    b: Compaction
    comparison: ABComparison | None


def ab(
    conversation: Conversation, params_a: Mapping[str, Any], params_b: Mapping[str, Any]
) -> ABOutcome:
    """The conversation compacted with ``params_a`` and with ``params_b`` (both runs cached)."""
    a = compaction(conversation, params_a)
    b = compaction(conversation, params_b)
    if a.result is None or b.result is None:
        return ABOutcome(a, b, None)
    return ABOutcome(a, b, compare_results(a.result, b.result))


@dataclass(frozen=True)
class Pairing:
    """The tool pairing check, and a note when the import's links could not be used."""

    report: PairingReport
    links: int  # links from the import used (0 when none, or when they were unusable)
    note: str | None = None


def pairing(conversation: Conversation, result: CompactionResult) -> Pairing:
    """:func:`compactor.analyses._pairing.check_pairing` with the conversation's tool links.

    Links the history no longer fits (say, from an import later changed) are set aside with a
    note, and every result is paired by position instead: the check itself never fails a page.
    """
    links = [tuple(link) for link in conversation.tool_links]
    try:
        removed = conversation.removed_results
        return Pairing(check_pairing(result, links, removed), len(links))
    except ValueError as error:
        note = f"The imported tool links do not fit this history ({error}); paired by position."
        return Pairing(check_pairing(result, None, conversation.removed_results), 0, note)


@st.cache_resource(max_entries=16, show_spinner="Checking a fix for each split pair...")
def _pair_fixes(key: str, _result: CompactionResult, _issues: tuple):
    return tuple(pair_fix(_result, issue) for issue in _issues)


def pair_fixes(
    conversation: Conversation,
    result: CompactionResult,
    report: PairingReport,
    shown: slice | None = None,
) -> tuple[PairFix | None, ...]:
    """A checked fix for each pair the run split (one run of the engine per fix tried); with
    ``shown``, for those split pairs only (a page of them: a whole session can have hundreds)."""
    issues = tuple(report.issues[shown] if shown is not None else report.issues)
    pairs = ",".join(f"{p.call}-{p.result}" for p in report.pairs)
    where = "" if shown is None else f":{shown.start}-{shown.stop}"
    return _pair_fixes(f"{run_key(conversation, result)}:{pairs}{where}", result, issues)


@st.cache_resource(max_entries=8, show_spinner=False)
def _found_anchors(key: str, watched: tuple[str, ...], _contents: tuple[str, ...]):
    return find_anchors(_contents, watched)


@st.cache_resource(max_entries=32, show_spinner=False)
def _anchors(key: str, watched: tuple[str, ...], _result: CompactionResult, _found, _sweep):
    return anchor_report(_result, watched, anchors=_found, sweep=_sweep)


def anchors(
    conversation: Conversation, result: CompactionResult, watched: Sequence[str] = ()
) -> AnchorReport:
    """The anchors of the conversation (found once per conversation and watched phrases) under
    this run: kept or not, lost at which stage, and from which budget they survive."""
    phrases = tuple(watched)
    found = _found_anchors(conversation.key, phrases, result.request.contents)
    sweep = budget(conversation, result)
    return _anchors(run_key(conversation, result), phrases, result, found, sweep)


@st.cache_resource(max_entries=8, show_spinner="Embedding the messages...")
def _semantic(key: str, _contents: tuple[str, ...], _roles: tuple[str, ...]):
    return semantic_similarity(_contents, _roles)


@st.cache_resource(max_entries=16, show_spinner=False)
def _semantic_pairs(key: str, overlap: float, threshold: float, _result, _similarity):
    return semantic_pairs(_result, threshold, semantic=_similarity)


def semantic(conversation: Conversation, result: CompactionResult, threshold: float):
    """Same-role pairs close in meaning but under the word-overlap threshold (the semantic
    extra; raises ``SemanticUnavailable`` saying how to install it). Embedded once per
    conversation; the pairs once per duplicate_threshold and meaning threshold (they do not
    depend on the budget, so a budget move reuses them)."""
    similarity = _semantic(conversation.key, result.request.contents, result.request.roles)
    overlap = float(result.request.params.duplicate_threshold)
    return _semantic_pairs(conversation.key, overlap, float(threshold), result, similarity)


@st.cache_resource(max_entries=16, show_spinner="Counting tokens...")
def _tokens(key: str, encoding: str, _result: CompactionResult) -> TokenReport:
    return token_report(_result, encoding)


def tokens(conversation: Conversation, result: CompactionResult, encoding: str) -> TokenReport:
    """:func:`compactor.analyses.tokens.token_report` of ``result`` in ``encoding`` (the tokens
    extra; raises ``TokenizerUnavailable`` saying how to install it)."""
    return _tokens(run_key(conversation, result), encoding, result)


@st.cache_resource(max_entries=8, show_spinner="Counting tokens...")
def _content_tokens(key: str, encoding: str, _contents: tuple[str, ...]):
    return message_counts(_contents, encoding)


def content_tokens(conversation: Conversation, encoding: str) -> tuple[tuple[int, int, int], ...]:
    """``(chars, tokens, estimate)`` of each message of the conversation (no run needed)."""
    contents = tuple(str(m.get("content", "")) for m in conversation.messages)
    return _content_tokens(conversation.key, encoding, contents)


@st.cache_resource(max_entries=8, show_spinner=False)
def _graded(key: str, params_key: str, _result: CompactionResult, _compactions: tuple) -> Graded:
    return grade(_result.request, _compactions)


def graded(conversation: Conversation, result: CompactionResult) -> Graded:
    """The compactions the conversation's log recorded, graded with the sidebar's parameters
    (each strategy held to the size of the summary, whatever the budget)."""
    params = result.request.params.to_dict()
    params.pop("budget_chars")
    marks = [(c.boundary, len(c.summary)) for c in conversation.compactions]
    key = json.dumps([params, marks], sort_keys=True)
    return _graded(conversation.key, key, result, tuple(conversation.compactions))
