"""The pipeline: pin, dedupe, trim and drop composed into one run."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from compactor.collector import collector_paused
from compactor.contract import CONTRACT_LIMITS
from compactor.engine import _stages as stages
from compactor.engine._response import respond
from compactor.engine._result import (
    CharTotals,
    CompactionResult,
    Deduplication,
    Dropping,
    Fate,
    MessageTrace,
    Protection,
    Trimming,
)
from compactor.input import validate
from compactor.model import Request, writer
from compactor.text import TextAnalysis, analyse

_trace = writer(MessageTrace)  # one per message of a whole session


@dataclass(frozen=True)
class _Decisions:
    """What the four stages decided, before it is explained message by message."""

    protection: Protection
    deduplication: Deduplication
    trimming: Trimming
    dropping: Dropping
    state: stages.State
    totals: CharTotals


def _decide(request: Request, analysis: TextAnalysis) -> _Decisions:
    # the request's columns, not its messages (made when read: a whole session has thousands)
    params, contents, roles = request.params, request.contents, request.roles
    protection = stages.pin(request.pins, roles, params)
    protected = protection.protected
    state = stages.State((True,) * len(contents), tuple(map(len, contents)))
    input_chars = state.total
    state, deduplication = stages.dedupe(
        state, contents, protected, analysis.pairs, params.duplicate_threshold
    )
    after_dedupe = state.total
    state, trimming = stages.trim(state, contents, protected, params.max_message_chars)
    after_trim = state.total
    state, dropping = stages.drop(state, roles, protected, analysis, params.budget_chars)
    totals = CharTotals(input_chars, after_dedupe, after_trim, state.total)
    return _Decisions(protection, deduplication, trimming, dropping, state, totals)


def outputs(request: Request, analysis: TextAnalysis | None = None) -> tuple[str | None, ...]:
    """Per message, the content :func:`run` returns for it (None when it is removed).

    The same decisions as ``run``, without explaining them: for loops that compact many times
    and only carry the output on (a replay).
    """
    if analysis is None:
        analysis = analyse(request.contents, request.roles)
    state = _decide(request, analysis).state
    return tuple(
        content[:chars] if here else None
        for content, here, chars in zip(request.contents, state.present, state.chars, strict=True)
    )


def run(request: Request, *, analysis: TextAnalysis | None = None) -> CompactionResult:
    """Run the four stages on a valid request and explain every decision.

    Args:
        request: a valid request, as :func:`validate` returns it.
        analysis: the parameter-free text analysis of the same messages (:func:`analyse`);
            pass it to reuse it across runs that change only the parameters (computed when
            omitted).

    Returns:
        The typed result: each message's fate and why, every stage's report, the totals.

    Example:
        >>> from compactor import run, validate
        >>> result = run(validate({"messages": [{"role": "user", "content": "Hi. " * 50},
        ...     {"role": "user", "content": "Thanks!"}], "budget_chars": 100, "keep_last_n": 1}))
        >>> [trace.fate.value for trace in result.messages]
        ['dropped', 'protected']
    """
    messages = request.messages
    if analysis is None:
        analysis = analyse(request.contents, request.roles)
    decided = _decide(request, analysis)
    protection, state = decided.protection, decided.state
    protected = protection.protected

    duplicates = {r.index for r in decided.deduplication.removed}
    cuts = {c.index: c for c in decided.trimming.cuts}
    drops = {d.index: d for d in decided.dropping.dropped}
    # read once, not per message (a whole session has thousands)
    because, nearby, scores = (
        protection.because,
        decided.deduplication.nearest,
        decided.dropping.scores,
    )
    present, chars = state.present, state.chars
    traces = []
    trace = _trace
    for m in messages:
        i = m.index
        if protected[i]:
            fate = Fate.PROTECTED
        elif i in duplicates:
            fate = Fate.DUPLICATE
        elif i in drops:
            fate = Fate.DROPPED
        else:
            fate = Fate.TRIMMED if i in cuts else Fate.VERBATIM
        traces.append(
            trace(
                m,  # message, fate, protected_because, nearby, cut, score, drop, output
                fate,
                because[i],
                nearby,
                cuts.get(i),
                scores.get(i),
                drops.get(i),
                m.content[: chars[i]] if present[i] else None,
            )
        )
    return CompactionResult(
        request=request,
        analysis=analysis,
        protection=protection,
        deduplication=decided.deduplication,
        trimming=decided.trimming,
        dropping=decided.dropping,
        messages=tuple(traces),
        totals=decided.totals,
    )


def compact(request: dict[str, Any], *, limits: str = CONTRACT_LIMITS) -> dict[str, Any]:
    """Compact a conversation to a character budget, and account for every character.

    Four stages run in order: pin (protect), dedupe (drop later near-duplicates), trim (cut long
    unprotected messages at a sentence end), drop (remove the lowest-scored until the budget
    holds). Same request, same response.

    Args:
        request: a memory-compact request (the catalog's input schema): ``messages`` (2..200 of
            ``role`` and ``content``, optional ``id`` and ``pin``), ``budget_chars`` and
            optional ``keep_last_n``, ``keep_roles``, ``duplicate_threshold``,
            ``max_message_chars``.
        limits: ``"contract"`` (the default) validates the catalog's schema exactly;
            ``"agent"`` takes a whole agent session (any number of messages, contents of any
            length, a budget up to 2,000,000 characters) and runs the same four stages with the
            same response. On a request both accept, both answer the same.

    Returns:
        The contract's JSON response as a dict: each message's fate, the stages' reports, the
        budget and the loss.

    Raises:
        InvalidRequest: the request breaks the schema; its problems list every violation, each
            with its JSON path.

    Example:
        >>> from compactor import compact
    >>> out = compact({"messages": [
    ...     {"role": "system", "content": "You are terse."},
    ...     {"role": "user", "content": "Hi there. " * 30},
    ...     {"role": "user", "content": "Thanks!"}],
    ...     "budget_chars": 100, "keep_last_n": 1, "max_message_chars": 80})
    >>> [(m["index"], m["kept"], m["chars"]) for m in out["messages"]]
    [(0, 'verbatim', 14), (1, 'trimmed', 79), (2, 'verbatim', 7)]
    >>> out["budget"]["budget_met"], out["loss"]["truncated_chars"]
    (True, 221)
    """
    # a whole session's compact makes tens of thousands of acyclic objects (columns, records,
    # the response's rows): no collection is set off while it runs
    with collector_paused():
        typed = validate(request, limits=limits)
        analysis = analyse(typed.contents, typed.roles)
        decided = _decide(typed, analysis)
        state = decided.state
        # what build_response(run(typed)) answers, without a trace per message
        return respond(
            typed,
            analysis,
            decided.protection,
            decided.deduplication,
            decided.trimming,
            decided.dropping,
            decided.totals,
            state.present,
            state.chars,
        )
