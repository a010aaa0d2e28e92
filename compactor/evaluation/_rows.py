"""The rows of one conversation: every setting at every budget, from one run per setting.

The text analysis (words, topic terms, similarities), the anchors and the tool pairs depend on
the contents alone: they are found once per conversation and reused for every setting. Each
setting is run once; the budget sweep then gives the output at every budget, the anchors'
``survives_from_budget`` the anchors kept, and the messages' survival budgets the tool pairs
broken: no run per budget (``../shared/SPEC.md`` part C, "Corpus evaluation"). With a future,
the outcome columns and the baselines' rows follow (:mod:`~compactor.evaluation._outcomes`); a
sweep then also lists the budgets at which a need starts to be met, so every row still holds up
to the next one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from compactor.analyses import (
    BudgetSweep,
    budget_sweep,
    call_line_span,
    tool_pairs,
)
from compactor.analyses.anchors import Anchor, anchor_report, find_anchors
from compactor.analyses.outcomes import DEFAULT_FUTURE
from compactor.contract import AUTO_LIMITS, budget_range
from compactor.engine import run
from compactor.errors import InvalidRequest, Problem
from compactor.evaluation._corpus import CorpusItem
from compactor.evaluation._grid import BUDGET, GRID_PARAMETERS, grid_point_key
from compactor.evaluation._outcomes import ConversationOutcomes, baseline_rows, change_points
from compactor.evaluation._reread_rows import ConversationRereads
from compactor.evaluation._summary import SUMMARY_BUDGETS
from compactor.input import validate
from compactor.model import Params, Request
from compactor.text import TextAnalysis, analyse, count_tokens

#: The keys of every row, in order (``output_tokens`` follows when an encoding is chosen).
ROW_KEYS: tuple[str, ...] = (
    "conversation",
    BUDGET,
    *GRID_PARAMETERS,
    "output_chars",
    "output_messages",
    "budget_met",
    "anchors",
    "anchors_kept",
    "tool_pairs_broken",
)
TOKEN_KEYS: tuple[str, ...] = ("output_tokens",)
_NEVER = np.iinfo(np.int64).max

#: What a worker returns for one conversation: its rows, or the problems of its request.
ConversationRows = tuple[list[dict[str, Any]], tuple[Problem, ...]]
#: A row's identity: ``(conversation, budget_chars, keep_last_n, keep_roles as a tuple,
#: duplicate_threshold, max_message_chars)``.
RowKey = tuple[Any, ...]


def row_key(row: Mapping[str, Any]) -> RowKey:
    """The row's identity (:data:`RowKey`): its conversation, budget and setting."""
    return (row["conversation"], row[BUDGET], *grid_point_key(row))


def budgets_of(setting: Mapping[str, Any], budgets: Sequence[int] | None) -> list[int] | None:
    """The budgets a setting is evaluated at: its own ``budget_chars``, else ``budgets``; None
    means every budget point of the sweep."""
    if BUDGET in setting:
        return [setting[BUDGET]]
    return None if budgets is None else list(budgets)


def baseline_budgets(
    settings: Sequence[Mapping[str, Any]], budgets: Sequence[int] | None
) -> list[int]:
    """The budgets the baselines' rows are given at: every setting's listed budgets, and the
    summary's budgets when a setting is swept."""
    points: set[int] = set()
    for setting in settings:
        listed = budgets_of(setting, budgets)
        points.update(SUMMARY_BUDGETS if listed is None else listed)
    return sorted(points)


def outcome(
    item: CorpusItem,
    settings: Sequence[Mapping[str, Any]],
    budgets: Sequence[int] | None,
    encoding: str | None,
    future: int | None = DEFAULT_FUTURE,
    probe_columns: bool | None = None,
) -> ConversationRows:
    """The rows of one conversation, or the problems of its request (each naming it): errors
    travel back from a worker as values, since a pickled ProblemError loses its problems."""
    try:
        rows = conversation_rows(
            item, settings, budgets, encoding, future=future, probe_columns=probe_columns
        )
        return rows, ()
    except InvalidRequest as error:
        named = f"(conversation {item.conversation!r})"
        return [], tuple(
            Problem(f"{p.message} {named}", p.path, p.line, p.column) for p in error.problems
        )


def conversation_rows(
    item: CorpusItem,
    settings: Sequence[Mapping[str, Any]],
    budgets: Sequence[int] | None = None,
    encoding: str | None = None,
    *,
    future: int | None = DEFAULT_FUTURE,
    probe_columns: bool | None = None,
) -> list[dict[str, Any]]:
    """The rows of one conversation, setting by setting, budgets ascending, then (with a
    ``future``) the baselines' rows.

    Each row equals what ``compact`` gives for the conversation's messages with that setting
    and budget: ``output_chars``, ``output_messages`` and ``budget_met`` of the response,
    ``anchors`` found in the contents and ``anchors_kept`` of them, and ``tool_pairs_broken``
    (kept tool results without their call, and kept calls without their result, as the Tool
    pairs check counts them: a call whose line a trim cut away is not kept). With an
    ``encoding``, ``output_tokens`` counts the returned contents' tokens. With a ``future``
    (None: no outcome), ``strategy``, ``needs`` and ``needs_met`` follow, and the probe columns
    when ``probe_columns`` (None: when the item has probes). A conversation with recorded
    compactions has the re-read columns (:mod:`~compactor.evaluation._reread_rows`) last, the
    baselines' rows too. Raises
    :class:`~compactor.errors.InvalidRequest` for an invalid request.
    """
    found = _Contents.of(item, encoding, future, probe_columns)
    rows = []
    for setting in settings:
        swept = _Swept.of(found, setting, budgets_of(setting, budgets))
        fixed = {name: setting[name] for name in GRID_PARAMETERS}
        fixed["keep_roles"] = list(fixed["keep_roles"])
        rows += [_row(found, item.conversation, fixed, swept, b) for b in sorted(swept.budgets)]
    if found.outcomes is not None:
        baselines = baseline_rows(
            item.conversation,
            found.base,
            found.outcomes,
            baseline_budgets(settings, budgets),
            (found.pairs.calls, found.pairs.answers),
            tokens=None if found.tokens is None else found.tokens.whole(),
        )
        if found.rereads is not None:
            for row in baselines:
                row.update(found.rereads.baseline_columns(row["strategy"], row[BUDGET]))
        rows += baselines
    return rows


@dataclass(frozen=True, eq=False)
class _ToolPairs:
    """The conversation's tool pairs: each call's and result's message, where the call's line
    ends in its message (0 when not known: never counted as cut), and that message's length."""

    calls: np.ndarray
    answers: np.ndarray
    line_ends: np.ndarray
    call_lengths: np.ndarray

    @classmethod
    def of(cls, base: Request, tool_links: Sequence[tuple[int, int]] | None) -> _ToolPairs:
        pairs, _ = tool_pairs(base.roles, tool_links)
        return cls(
            np.array([p[0] for p in pairs], dtype=np.int64),
            np.array([p[1] for p in pairs], dtype=np.int64),
            np.array(
                [(call_line_span(base, c, a) or (0, 0))[1] for c, a, _ in pairs], dtype=np.int64
            ),
            np.array([len(base.contents[c]) for c, _, _ in pairs], dtype=np.int64),
        )

    def line_cut(self, returned: Sequence[int]) -> np.ndarray:
        """Per pair, whether trim cut its call's line: the call returned shorter than its
        message and than the line's end (``returned``: each message's characters out)."""
        calls_returned = np.array([returned[c] for c in self.calls.tolist()], dtype=np.int64)
        return (calls_returned < self.call_lengths) & (self.line_ends > calls_returned)

    def broken(self, alive: np.ndarray, line_cut: np.ndarray) -> int:
        """The pairs with one half kept and not the other (a call whose line was cut is not
        kept), when the messages ``alive`` are returned."""
        return int(np.count_nonzero((alive[self.calls] & ~line_cut) != alive[self.answers]))


@dataclass(frozen=True, eq=False)
class _Tokens:
    """Tokens of returned contents in one encoding, each (message, characters) counted once for
    every setting and the baselines."""

    contents: Sequence[str]
    encoding: str
    counted: dict[tuple[int, int], int] = field(default_factory=dict)

    def output(self, returned: Sequence[int], alive: np.ndarray) -> int:
        """The tokens of the messages ``alive`` (their indices), each its first ``returned``
        characters."""
        total = 0
        for i in alive.tolist():
            key = (i, returned[i])
            if key not in self.counted:
                self.counted[key] = count_tokens(self.contents[i][: returned[i]], self.encoding)
            total += self.counted[key]
        return total

    def whole(self) -> np.ndarray:
        """Per message, the tokens of its whole content (the baselines return messages whole)."""
        whole = [len(c) for c in self.contents]
        return np.array(
            [self.output(whole, np.array([i])) for i in range(len(whole))], dtype=np.int64
        )


@dataclass(frozen=True, eq=False)
class _Contents:
    """What the conversation's contents alone give, found once and read by every setting: the
    request, its text analysis, its anchors and tool pairs, the outcomes' shared part (None
    without a future) and the token counter (None without an encoding)."""

    base: Request
    analysis: TextAnalysis
    anchors: tuple[Anchor, ...]
    pairs: _ToolPairs
    outcomes: ConversationOutcomes | None
    tokens: _Tokens | None
    rereads: ConversationRereads | None = None  # None without recorded compactions

    @classmethod
    def of(
        cls,
        item: CorpusItem,
        encoding: str | None,
        future: int | None,
        probe_columns: bool | None,
    ) -> _Contents:
        base = validate(item.request, limits=AUTO_LIMITS)  # a whole session: the agent mode
        analysis = analyse(base.contents, base.roles)
        anchors = find_anchors(base.contents)
        pairs = _ToolPairs.of(base, item.tool_links)
        outcomes = None
        if future is not None:
            with_probes = bool(item.probes) if probe_columns is None else probe_columns
            outcomes = ConversationOutcomes.of(base, future, item.probes, with_probes)
        tokens = None if encoding is None else _Tokens(base.contents, encoding)
        rereads = ConversationRereads.of(base, item.compactions)
        return cls(base, analysis, anchors, pairs, outcomes, tokens, rereads)


@dataclass(frozen=True, eq=False)
class _Swept:
    """One setting run once and swept over every budget: the budgets its rows are given at, and
    from which budget each anchor and each message is kept."""

    params: Params
    budgets: list[int]
    sweep: BudgetSweep
    anchor_from: np.ndarray  # ascending: the budgets from which each kept anchor survives
    message_from: np.ndarray  # per message, the budget from which it is returned (_NEVER)
    returned: list[int]  # per message, its characters when returned
    line_cut: np.ndarray  # per tool pair, whether trim cut its call's line
    need_from: np.ndarray | None  # per judged need, the budget from which it is met
    reread_from: np.ndarray | None = None  # per re-read, the budget from which it is held

    @classmethod
    def of(cls, found: _Contents, setting: Mapping[str, Any], points: list[int] | None) -> _Swept:
        """``setting`` at the budgets ``points`` (None: every step of the sweep and every
        budget at which a need starts to be met)."""
        budgets = budget_range(found.base.limits)
        params = Params(
            budget_chars=budgets[1] if not points else points[0],
            keep_last_n=setting["keep_last_n"],
            keep_roles=tuple(setting["keep_roles"]),
            duplicate_threshold=setting["duplicate_threshold"],
            max_message_chars=setting["max_message_chars"],
        )
        result = run(
            Request(found.base.messages, params, found.base.limits), analysis=found.analysis
        )
        sweep = budget_sweep(result)
        report = anchor_report(result, anchors=found.anchors, sweep=sweep)
        anchor_from = [a.survives_from_budget for a in report.anchors]
        message_from = [s.survives_from_budget for s in sweep.survival]
        returned = [s.chars for s in sweep.survival]
        need_from = None if found.outcomes is None else found.outcomes.need_from(params)
        if points is None:
            points = [step.from_budget for step in sweep.steps]
            points = sorted({*points, *change_points(need_from, *budgets)})
        return cls(
            params,
            points,
            sweep,
            np.sort(np.array([b for b in anchor_from if b is not None], dtype=np.int64)),
            np.array([_NEVER if b is None else b for b in message_from], dtype=np.int64),
            returned,
            found.pairs.line_cut(returned),
            need_from,
            None if found.rereads is None else found.rereads.held_from(params),
        )


def _row(
    found: _Contents, conversation: Any, fixed: dict[str, Any], swept: _Swept, budget: int
) -> dict[str, Any]:
    """One row: the conversation, the budget and the setting, then each family of columns (the
    output, the anchors, the tool pairs, and the tokens and outcomes when asked for)."""
    step = swept.sweep.at(budget)
    alive = swept.message_from <= budget
    row = {
        "conversation": conversation,
        BUDGET: budget,
        **fixed,
        "output_chars": step.output_chars,
        "output_messages": step.output_messages,
        "budget_met": step.budget_met,
        "anchors": len(found.anchors),
        "anchors_kept": int(np.searchsorted(swept.anchor_from, budget, side="right")),
        "tool_pairs_broken": found.pairs.broken(alive, swept.line_cut),
    }
    if found.tokens is not None:
        row["output_tokens"] = found.tokens.output(swept.returned, np.flatnonzero(alive))
    if found.outcomes is not None:
        now = [r if a else None for r, a in zip(swept.returned, alive.tolist(), strict=True)]
        row.update(found.outcomes.columns(swept.need_from, budget, found.base.contents, now))
    if found.rereads is not None and swept.reread_from is not None:
        row.update(found.rereads.columns(swept.reread_from, budget))
    return row
