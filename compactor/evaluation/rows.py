"""The rows of one conversation: every setting at every budget, from one run per setting.

The text analysis (words, topic terms, similarities), the anchors and the tool pairs depend on
the contents alone: they are found once per conversation and reused for every setting. Each
setting is run once; the budget sweep then gives the output at every budget, the anchors'
``survives_from_budget`` the anchors kept, and the messages' survival budgets the tool pairs
broken: no run per budget (``../shared/SPEC.md`` part C, "Corpus evaluation"). With a future,
the outcome columns and the baselines' rows follow (:mod:`~compactor.evaluation.outcomes`); a
sweep then also lists the budgets at which a need starts to be met, so every row still holds up
to the next one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from compactor.analyses.anchors.report import anchor_report, find_anchors
from compactor.analyses.outcomes import DEFAULT_FUTURE
from compactor.analyses.pairing import call_line, tool_pairs
from compactor.analyses.sweeps import BUDGET_RANGE, budget_sweep
from compactor.engine.pipeline import run
from compactor.errors import InvalidRequest, Problem
from compactor.evaluation.corpus import CorpusItem
from compactor.evaluation.grid import BUDGET, SETTING_PARAMETERS, setting_key
from compactor.evaluation.outcomes import ConversationOutcomes, baseline_rows, change_points
from compactor.evaluation.summary import SUMMARY_BUDGETS
from compactor.input.validation import validate
from compactor.model import Params, Request
from compactor.text.profile import analyse
from compactor.text.tokens import count_tokens

#: The keys of every row, in order (``output_tokens`` follows when an encoding is chosen).
ROW_KEYS: tuple[str, ...] = (
    "conversation",
    BUDGET,
    *SETTING_PARAMETERS,
    "output_chars",
    "output_messages",
    "budget_met",
    "anchors",
    "anchors_kept",
    "tool_pairs_broken",
)
TOKEN_KEYS: tuple[str, ...] = ("output_tokens",)
_NEVER = np.iinfo(np.int64).max

#: One conversation's outcome from a worker: its rows, or the problems of its request.
Outcome = tuple[list[dict[str, Any]], tuple[Problem, ...]]
#: A row's identity: ``(conversation, budget_chars, keep_last_n, keep_roles as a tuple,
#: duplicate_threshold, max_message_chars)``.
RowKey = tuple[Any, ...]


def row_key(row: Mapping[str, Any]) -> RowKey:
    """The row's identity (:data:`RowKey`): its conversation, budget and setting."""
    return (row["conversation"], row[BUDGET], *setting_key(row))


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
) -> Outcome:
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
    when ``probe_columns`` (None: when the item has probes). Raises
    :class:`~compactor.errors.InvalidRequest` for an invalid request.
    """
    base = validate(item.request)
    analysis = analyse(base.contents, base.roles)
    anchors = find_anchors(base.contents)
    pairs, _ = tool_pairs(base.roles, item.tool_links)
    calls = np.array([p[0] for p in pairs], dtype=np.int64)
    answers = np.array([p[1] for p in pairs], dtype=np.int64)
    # where each pair's call line ends in its message (0 when not known: never counted as cut),
    # and the message's length: a call returned shorter than that end lost its line to trim
    line_ends = np.array(
        [(call_line(base, c, a) or (0, 0))[1] for c, a, _ in pairs], dtype=np.int64
    )
    call_lengths = np.array([len(base.contents[c]) for c, _, _ in pairs], dtype=np.int64)
    counted: dict[tuple[int, int], int] = {}  # (message, returned chars) -> its tokens
    shared = None
    if future is not None:
        with_probes = bool(item.probes) if probe_columns is None else probe_columns
        shared = ConversationOutcomes.of(base, future, item.probes, with_probes)
    rows = []
    for setting in settings:
        points = budgets_of(setting, budgets)
        params = Params(
            budget_chars=BUDGET_RANGE[1] if not points else points[0],
            keep_last_n=setting["keep_last_n"],
            keep_roles=tuple(setting["keep_roles"]),
            duplicate_threshold=setting["duplicate_threshold"],
            max_message_chars=setting["max_message_chars"],
        )
        result = run(Request(base.messages, params), analysis)
        sweep = budget_sweep(result)
        report = anchor_report(result, anchors=anchors, sweep=sweep)
        anchor_from = np.sort(
            np.array(
                [
                    a.survives_from_budget
                    for a in report.anchors
                    if a.survives_from_budget is not None
                ],
                dtype=np.int64,
            )
        )
        message_from = np.array(
            [
                _NEVER if s.survives_from_budget is None else s.survives_from_budget
                for s in sweep.survival
            ],
            dtype=np.int64,
        )
        returned = [s.chars for s in sweep.survival]
        calls_returned = np.array([returned[c] for c in calls.tolist()], dtype=np.int64)
        line_cut = (calls_returned < call_lengths) & (line_ends > calls_returned)
        need_from = None if shared is None else shared.need_from(params)
        if points is None:
            points = [step.from_budget for step in sweep.steps]
            points = sorted({*points, *change_points(need_from, *BUDGET_RANGE)})
        fixed = {name: setting[name] for name in SETTING_PARAMETERS}
        fixed["keep_roles"] = list(fixed["keep_roles"])
        for budget in sorted(points):
            step = sweep.at(budget)
            alive = message_from <= budget
            row = {
                "conversation": item.conversation,
                BUDGET: budget,
                **fixed,
                "output_chars": step.output_chars,
                "output_messages": step.output_messages,
                "budget_met": step.budget_met,
                "anchors": len(anchors),
                "anchors_kept": int(np.searchsorted(anchor_from, budget, side="right")),
                "tool_pairs_broken": int(
                    np.count_nonzero((alive[calls] & ~line_cut) != alive[answers])
                ),
            }
            if encoding is not None:
                row["output_tokens"] = _output_tokens(
                    base.contents, returned, np.flatnonzero(alive), encoding, counted
                )
            if shared is not None:
                now = [r if a else None for r, a in zip(returned, alive.tolist(), strict=True)]
                row.update(shared.columns(need_from, budget, base.contents, now))
            rows.append(row)
    if shared is not None:
        tokens = None
        if encoding is not None:
            whole = [len(c) for c in base.contents]
            tokens = np.array(
                [
                    _output_tokens(base.contents, whole, np.array([i]), encoding, counted)
                    for i in range(len(whole))
                ],
                dtype=np.int64,
            )
        rows += baseline_rows(
            item.conversation,
            base,
            shared,
            baseline_budgets(settings, budgets),
            (calls, answers),
            tokens=tokens,
        )
    return rows


def _output_tokens(
    contents: Sequence[str],
    returned: Sequence[int],
    alive: np.ndarray,
    encoding: str,
    counted: dict[tuple[int, int], int],
) -> int:
    total = 0
    for i in alive.tolist():
        key = (i, returned[i])
        if key not in counted:
            counted[key] = count_tokens(contents[i][: returned[i]], encoding)
        total += counted[key]
    return total
