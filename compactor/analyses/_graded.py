"""Real compactions, graded: at each compaction an agent recorded (Claude Code, Codex), the
summary the tool wrote beside every strategy of the lineup at the same size, judged on what the
conversation needed afterwards.

For compaction k with boundary b (:class:`~compactor.formats._types.RecordedCompaction`):

- the *history* is what the tool had in front of it, whole: for the first compaction messages
  0..b-1; for a later one the previous compaction's summary (as the user message the tool put
  in place of the older history) and the messages from the previous boundary to b-1. Every
  strategy of the lineup (:func:`~compactor.strategies.compare_strategies`) compacts it as a
  request of the agent mode (no window, no cut: any number of messages, contents of any length)
  with the conversation's parameters and ``budget_chars`` = the summary's characters (within
  the agent mode's 100..2,000,000), so each is held to the size the tool chose; focus is given
  the last user message before the boundary (a recorded one, not the previous summary), never
  a later one. A strategy that ignores the budget (a clearing strategy returns what it did not
  clear) is compared only when it returned at most :data:`SIZE_TOLERANCE` (10%) more than
  that; otherwise it is flagged with its excess, and no verdict counts it;
- the *future* is the messages from b up to the next recorded compaction (or the end): the span
  in which the summary stood in for the history. Its needs (SPEC part D) with a source in the
  history are judged: for a strategy by :func:`~compactor.analyses.outcomes.judge_outcome` (a
  source is kept when a span the strategy returned verbatim holds it: a prefix at least
  ``end`` long, or one of the parts anchor-keep and focus keep), for the summary by
  :func:`~compactor.analyses.outcomes.judge_text` (its anchor's text occurs in the summary);
- *anchors kept*: the history's anchors (SPEC part C) kept by a strategy (one occurrence in a
  span it returned verbatim), or, for the summary, whose text occurs in it;
- *re-read recall* (:mod:`~compactor.analyses._rereads`): of the files the agent read again in
  the future after reading them in the history, those whose earlier result a strategy kept
  (half of its characters in the spans it returned verbatim) or the summary held (half of its
  lines); random (the mean of the SPEC's draws, whole messages) beside keep-last at the same
  budget.

The history is the recorded conversation as the tool had it, for the tool and the strategies
alike. Messages are counted as the importer makes them: an assistant turn with its tool calls is
one message, each tool result one. A compaction with fewer than two messages before it, or
whose log holds no summary, gets its problems and no figure.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from compactor.analyses._rereads import (
    CompactionRereads,
    RereadRecall,
    find_rereads,
    lengths_recall,
    spans_recall,
    summary_recall,
)
from compactor.analyses.anchors._finder import find_anchor_columns
from compactor.analyses.outcomes import (
    DEFAULT_DRAWS,
    NeededRecall,
    find_needs,
    judge_outcome,
    judge_text,
    random_lengths,
)
from compactor.contract import AGENT_LIMITS, budget_range
from compactor.errors import InvalidRequest, Problem
from compactor.formats import RecordedCompaction
from compactor.input import validate
from compactor.model import Request
from compactor.strategies import FOCUS, StrategyResult, compare_strategies

#: The row of the summary the tool wrote.
RECORDED = "recorded"
RECORDED_NAME = "the recorded summary"


#: "At the summary's size": a strategy's output may exceed the summary's characters by at most
#: this share (10%) to be compared with it; a larger one is flagged with its excess (issue 36).
SIZE_TOLERANCE = 0.10


@dataclass(frozen=True)
class GradedRow:
    """One way to replace the history: the recorded summary or a strategy of the lineup."""

    key: str
    name: str
    output_chars: int | None  # None when the strategy could not run
    recall: NeededRecall | None
    anchors_kept: int | None
    unavailable: str | None = None  # why a strategy could not run (an optional package)
    rereads: RereadRecall | None = None  # re-read recall (None: not judged)
    #: The contents it returned (the summary alone for the recorded row): what a next call
    #: sends, which pricing counts (docs/cost.md).
    returned: tuple[str, ...] = field(default=(), repr=False, compare=False)

    @property
    def available(self) -> bool:
        return self.unavailable is None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"key": self.key, "name": self.name, "available": self.available}
        if not self.available:
            out["unavailable"] = self.unavailable
            return out
        assert self.recall is not None
        out["output_chars"] = self.output_chars
        out["needed_later_recall"] = self.recall.to_dict()
        out["anchors_kept"] = self.anchors_kept
        if self.rereads is not None:
            out["reread_recall"] = self.rereads.to_dict()
        return out


@dataclass(frozen=True)
class GradedCompaction:
    """One recorded compaction: the history before it, its summary, every row judged."""

    number: int  # its place among the recorded compactions, from 0
    compaction: RecordedCompaction
    past_messages: int  # the history's messages (the previous summary counted as one)
    future_messages: int
    budget_chars: int  # the summary's characters, within the schema's range
    anchors: int  # anchors of the history
    problems: tuple[Problem, ...]  # why it has no figure; empty when it has
    rows: tuple[GradedRow, ...]  # the recorded summary first, then the lineup in its order
    #: The files read again after it (None: not looked for), and random's re-read recall at
    #: the summary's budget (None without a history to draw from).
    rereads: CompactionRereads | None = None
    random_rereads: RereadRecall | None = None
    #: The history's contents, as the tool (and every strategy) had them.
    history: tuple[str, ...] = field(default=(), repr=False, compare=False)

    @property
    def valid(self) -> bool:
        return not self.problems

    def row(self, key: str) -> GradedRow:
        return next(r for r in self.rows if r.key == key)

    @property
    def size_limit(self) -> int:
        """The most characters a row may return and still be *at the summary's size*: the
        summary's characters (``budget_chars``) and :data:`SIZE_TOLERANCE` more."""
        return self.budget_chars + int(self.budget_chars * SIZE_TOLERANCE)

    def over_size(self, row: GradedRow) -> int:
        """How many characters ``row`` returned beyond :attr:`size_limit` (0 when at size)."""
        return max(0, (row.output_chars or 0) - self.size_limit)

    def at_size(self, row: GradedRow) -> bool:
        """Whether ``row`` ran and returned at most :attr:`size_limit` characters: only such
        rows are compared with the summary (a row that kept more is flagged, never ranked)."""
        return row.available and row.output_chars is not None and not self.over_size(row)

    def to_dict(self) -> dict[str, Any]:
        c = self.compaction
        out: dict[str, Any] = {
            "compaction": self.number,
            "boundary": c.boundary,
            "trigger": c.trigger,
            "pre_tokens": c.pre_tokens,
            "post_tokens": c.post_tokens,
            "source": c.source,
            "summary_chars": len(c.summary),
            "past_messages": self.past_messages,
            "future_messages": self.future_messages,
            "budget_chars": self.budget_chars,
            "valid": self.valid,
        }
        if self.rereads is not None:
            out["rereads"] = self.rereads.to_dict()
            if self.random_rereads is not None:
                out["rereads"]["random"] = {
                    "draws": DEFAULT_DRAWS,
                    **self.random_rereads.to_dict(),
                }
        if not self.valid:
            out["problems"] = [p.to_dict() for p in self.problems]
            return out
        out["anchors"] = self.anchors
        out["size_limit"] = self.size_limit
        out["rows"] = [self._row_dict(r) for r in self.rows]
        return out

    def _row_dict(self, row: GradedRow) -> dict[str, Any]:
        out = row.to_dict()
        if row.available:
            out["budget_met"] = (row.output_chars or 0) <= self.budget_chars
            out["at_size"] = self.at_size(row)
            out["over_size_chars"] = self.over_size(row)
        return out


@dataclass(frozen=True)
class Graded:
    """Every recorded compaction of a conversation, graded (empty when it recorded none)."""

    compactions: tuple[GradedCompaction, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "recorded_compactions": len(self.compactions),
            "compactions": [g.to_dict() for g in self.compactions],
        }


def summary_budget(summary: str) -> int:
    """The budget a strategy is held to: the summary's characters, within the agent mode's
    range (100..2,000,000)."""
    low, high = budget_range(AGENT_LIMITS)
    return int(min(high, max(low, len(summary))))


def grade(
    request: Request,
    compactions: Sequence[RecordedCompaction],
    *,
    watched: Iterable[str] = (),
) -> Graded:
    """Grade every compaction of ``compactions`` (boundaries into ``request``'s messages)."""
    phrases = tuple(watched)
    n = len(request.messages)
    rereads = find_rereads(request, compactions)
    out = []
    for k, compaction in enumerate(compactions):
        end = compactions[k + 1].boundary if k + 1 < len(compactions) else n
        previous = compactions[k - 1] if k else None
        out.append(
            grade_compaction(
                request,
                compaction,
                max(end, compaction.boundary),
                k,
                phrases,
                previous=previous,
                rereads=rereads[k],
            )
        )
    return Graded(tuple(out))


def grade_compaction(
    request: Request,
    compaction: RecordedCompaction,
    end: int,
    number: int = 0,
    watched: Iterable[str] = (),
    *,
    previous: RecordedCompaction | None = None,
    rereads: CompactionRereads | None = None,
) -> GradedCompaction:
    """One compaction: its history (from the start, or from ``previous``'s summary and
    boundary) replaced by its summary or by each strategy at the summary's size, judged on the
    needs of messages ``boundary..end-1`` (and on ``rereads``, the files read again after it,
    when given)."""
    b, summary = compaction.boundary, compaction.summary
    budget = summary_budget(summary)
    start = min(previous.boundary, b) if previous is not None else 0
    lead = _lead(previous)
    head = (number, compaction, len(lead) + b - start, end - b, budget)
    past, problems = _history(request, compaction, start, lead)
    if past is None:
        return GradedCompaction(*head, 0, problems, (), rereads)
    said = summary_recall(rereads, request, summary) if rereads is not None else None
    phrases = tuple(watched)
    contents = (*past.contents, *request.contents[b:end])
    roles = (*past.roles, *request.roles[b:end])
    needs = find_needs(contents, roles, phrases)
    found = find_anchor_columns(past.contents, phrases)
    recorded = GradedRow(
        RECORDED,
        RECORDED_NAME,
        len(summary),
        judge_text(needs, len(past.messages), summary),
        sum(a.text in summary for a in found.anchors),
        rereads=said,
        returned=(summary,),
    )
    rows = [recorded]
    pending = last_user_message(request, b)
    params = {} if pending is None else {FOCUS: {"focus": pending}}
    for result in compare_strategies(past, params=params).results:
        row = _strategy_row(result, needs, found)
        if rereads is not None and result.available:
            spans = [m.kept_spans for m in result.messages]
            row = replace(row, rereads=spans_recall(rereads, spans, len(lead)))
        rows.append(row)
    drawn = None
    if rereads is not None:
        lengths = random_lengths([len(c) for c in past.contents], past.params.budget_chars)
        drawn = lengths_recall(rereads, lengths, len(lead))
    return GradedCompaction(
        *head, len(found.anchors), (), tuple(rows), rereads, drawn, history=past.contents
    )


def last_user_message(request: Request, boundary: int) -> str | None:
    """The content of the last user message recorded before ``boundary`` (the pending turn
    when the tool compacted), or None when there is none."""
    for message in reversed(request.messages[:boundary]):
        if message.role == "user":
            return message.content
    return None


def compaction_history(
    request: Request, compactions: Sequence[RecordedCompaction], k: int
) -> tuple[Request | None, int]:
    """The history compaction ``k`` replaced, as it is graded (the previous summary as a user
    message, then the messages from the previous boundary; at the summary's size), and how many
    messages stand before the request's own (0, or 1 for that summary); None when it is no
    request (no summary, fewer than two messages)."""
    compaction = compactions[k]
    previous = compactions[k - 1] if k else None
    start = min(previous.boundary, compaction.boundary) if previous is not None else 0
    lead = _lead(previous)
    past, _ = _history(request, compaction, start, lead)
    return past, len(lead)


def _lead(previous: RecordedCompaction | None) -> list[dict[str, Any]]:
    """What stands before a later compaction's history: the previous summary, as a user
    message (the tool put it in place of the older history)."""
    if previous is None or not previous.summary:
        return []
    return [{"role": "user", "content": previous.summary}]


def _history(
    request: Request, compaction: RecordedCompaction, start: int, lead: list[dict[str, Any]]
) -> tuple[Request | None, tuple[Problem, ...]]:
    """The history before the compaction (``lead``, then messages ``start..boundary-1``) as a
    request of the agent mode at the summary's size, or why there is none: no summary, or a
    history that is not a request (fewer than two messages, say)."""
    where = compaction.source or "$"
    if not compaction.summary:
        return None, (Problem("the log holds no summary text for this compaction", path=where),)
    messages = request.messages[start : compaction.boundary]
    try:
        past = validate(
            {
                "messages": [*lead, *(m.to_dict() for m in messages)],
                **request.params.to_dict(),
                "budget_chars": summary_budget(compaction.summary),
            },
            limits=AGENT_LIMITS,
        )
    except InvalidRequest as error:
        said = "the history before it is not a request"
        return None, tuple(
            Problem(f"{said}: {p.where or '$'}: {p.message}", path=where) for p in error.problems
        )
    return past, ()


def _strategy_row(result: StrategyResult, needs: Any, found: Any) -> GradedRow:
    if not result.available:
        return GradedRow(result.key, result.name, None, None, None, result.unavailable)
    spans = [m.kept_spans for m in result.messages]
    kept = 0
    if len(found.anchors) and all(m.spans is None for m in result.messages):
        # prefixes (or whole messages): an occurrence is kept when its message is returned at
        # least ``end`` long
        lengths = np.array([max((e for _, e in s), default=-1) for s in spans], dtype=np.int64)
        heads = np.concatenate(([0], np.cumsum(found.counts)[:-1])).astype(np.int64)
        hit = lengths[found.message] >= found.end
        kept = int(np.logical_or.reduceat(hit, heads).sum())
    elif len(found.anchors):  # parts (anchor-keep's, focus's): one span holds it whole
        kept = sum(
            any(any(a <= s and e <= b for a, b in spans[i]) for i, s, e in anchor.occurrences)
            for anchor in found.anchors
        )
    return GradedRow(
        result.key,
        result.name,
        result.output_chars,
        judge_outcome(needs, result),
        kept,
        returned=tuple(m["content"] for m in result.returned()),
    )
