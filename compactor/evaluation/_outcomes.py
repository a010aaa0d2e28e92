"""The outcome columns of a conversation's rows, and the baselines' rows (SPEC part D).

``needs`` and ``needs_met`` are the continuation check at the row's budget: the last ``future``
messages are the future, the others the past, compacted with the row's setting at its budget;
``needs`` counts the needs of a future message with a source in the past, ``needs_met`` those
with a past source kept (both None when the past alone is not a valid request: the conversation
is too short for that future). ``probes``, ``probes_strict``, ``probes_partial`` and
``probes_answer`` are the probe recall of the whole conversation's output at that budget.

The parameter-free parts (the needs, the past and its text analysis) are found once per
conversation; each setting compacts the past once, and the past's budget sweep gives the budget
from which each need is met: no run per budget. The baselines (keep-last, and the mean of the
random draws) keep whole messages from a budget on (their from-budgets), so their rows at any
budget follow from those arrays with numpy. Baseline rows are pseudo-settings: ``strategy`` names
them and every parameter is None; they are given at the budgets a summary reads (the listed
ones, or :data:`~compactor.evaluation._summary.SUMMARY_BUDGETS` for a sweep), since their mean
over draws changes at too many budgets to list every step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from compactor.analyses import budget_sweep
from compactor.analyses.anchors import find_anchor_columns
from compactor.analyses.outcomes import (
    DEFAULT_DRAWS,
    KEEP_LAST,
    NEVER,
    RANDOM,
    Needs,
    Probe,
    failed_probes,
    find_needs,
    keep_last_from_budgets,
    keep_last_lengths,
    met_needs,
    need_from_budgets,
    past_analysis,
    past_request,
    probe_recall,
    random_from_budgets,
    random_lengths,
)
from compactor.engine import run
from compactor.errors import InvalidRequest
from compactor.evaluation._grid import BUDGET, GRID_PARAMETERS, MEMORY_COMPACT, STRATEGY
from compactor.model import Params, Request
from compactor.text import TextAnalysis

#: The outcome keys of every row, after the counts (and ``output_tokens``).
OUTCOME_KEYS: tuple[str, ...] = (STRATEGY, "needs", "needs_met")
#: The probe keys, last, in every row of a corpus that carries probes.
PROBE_KEYS: tuple[str, ...] = (
    "probes",
    "probes_strict",
    "probes_partial",
    "probes_answer",
    "probes_answerable",
    "probes_failed",
)
#: The three probe recalls.
PROBE_KINDS: tuple[str, ...] = ("strict", "partial", "answer")
#: The baselines' pseudo-settings, in the order their rows come.
BASELINES: tuple[str, ...] = (KEEP_LAST, RANDOM)


@dataclass(frozen=True, eq=False)
class ConversationOutcomes:
    """What every setting of one conversation shares: its past (None when the past alone is
    not a valid request) with the past's text analysis, its needs, and its probes."""

    past: Request | None
    analysis: TextAnalysis | None
    needs: Needs | None
    probes: tuple[Probe, ...]
    probe_columns: bool

    @classmethod
    def of(
        cls, base: Request, future: int, probes: Sequence[Probe], probe_columns: bool
    ) -> ConversationOutcomes:
        try:
            past = past_request(base, future)
        except InvalidRequest:
            return cls(None, None, None, tuple(probes), probe_columns)
        needs = find_needs(base.contents, base.roles)
        return cls(past, past_analysis(past), needs, tuple(probes), probe_columns)

    def need_from(self, params: Params) -> np.ndarray | None:
        """Per judged need, ascending, the smallest budget at which the setting ``params``
        (whatever its budget) meets it, NEVER when at none: one run of the past."""
        if self.past is None or self.needs is None:
            return None
        result = run(Request(self.past.messages, params, self.past.limits), analysis=self.analysis)
        sweep = budget_sweep(result)
        from_budget = np.array(
            [
                NEVER if s.survives_from_budget is None else s.survives_from_budget
                for s in sweep.survival
            ],
            dtype=np.int64,
        )
        chars = np.array([s.chars for s in sweep.survival], dtype=np.int64)
        _, found = need_from_budgets(self.needs, from_budget, chars)
        return np.sort(found)

    def columns(
        self,
        need_from: np.ndarray | None,
        budget: int,
        contents: Sequence[str],
        returned: Sequence[int | None],
    ) -> dict[str, Any]:
        """A setting row's outcome columns at ``budget`` (``returned``: per message, the
        characters the output holds, None when dropped)."""
        out: dict[str, Any] = {STRATEGY: MEMORY_COMPACT}
        if need_from is None:
            out["needs"] = out["needs_met"] = None
        else:
            out["needs"] = len(need_from)
            out["needs_met"] = int(np.searchsorted(need_from, budget, side="right"))
        if self.probe_columns:
            out.update(_probe_figures(self.probes, contents, [returned]))
        return out


def change_points(need_from: np.ndarray | None, low: int, high: int) -> list[int]:
    """The budgets in ``low..high`` at which a need starts to be met: where ``needs_met``
    changes between the output's sweep steps."""
    if need_from is None:
        return []
    return sorted({int(b) for b in need_from.tolist() if low <= b <= high})


def baseline_rows(
    conversation: Any,
    base: Request,
    shared: ConversationOutcomes,
    budgets: Sequence[int],
    pairs: tuple[np.ndarray, np.ndarray],
    draws: int = DEFAULT_DRAWS,
    tokens: np.ndarray | None = None,
) -> list[dict[str, Any]]:
    """The rows of keep-last and random (the mean over ``draws``) at each of ``budgets``: the
    same columns as a setting's, every parameter None. ``pairs`` are the tool pairs' call and
    result indices; ``tokens`` (per message, its tokens) adds ``output_tokens``."""
    contents = base.contents
    lengths = np.array([len(c) for c in contents], dtype=np.int64)
    found = find_anchor_columns(contents, ())
    heads = np.cumsum(found.counts) - np.asarray(found.counts, dtype=np.int64)
    message = np.asarray(found.message, dtype=np.int64)
    p = 0 if shared.past is None else len(shared.past.messages)
    froms = {
        KEEP_LAST: (keep_last_from_budgets(lengths)[None, :], keep_last_from_budgets(lengths[:p])),
        RANDOM: (random_from_budgets(lengths, draws), random_from_budgets(lengths[:p], draws)),
    }
    calls, answers = pairs
    rows = []
    for strategy in BASELINES:
        whole, past = froms[strategy]
        past = past.reshape(len(whole), p)
        for budget in sorted(budgets):
            alive = whole <= budget
            row: dict[str, Any] = {"conversation": conversation, BUDGET: budget}
            row.update({name: None for name in GRID_PARAMETERS})
            chars = (alive * lengths).sum(axis=1)
            row["output_chars"] = _figure(chars)
            row["output_messages"] = _figure(alive.sum(axis=1))
            row["budget_met"] = bool((chars <= budget).all())
            row["anchors"] = len(found.anchors)
            kept = (
                np.logical_or.reduceat(alive[:, message], heads, axis=1).sum(axis=1)
                if len(found.anchors)
                else np.zeros(len(alive), dtype=np.int64)
            )
            row["anchors_kept"] = _figure(kept)
            row["tool_pairs_broken"] = _figure((alive[:, calls] != alive[:, answers]).sum(axis=1))
            if tokens is not None:
                row["output_tokens"] = _figure((alive * tokens).sum(axis=1))
            row[STRATEGY] = strategy
            if shared.needs is None:
                row["needs"] = row["needs_met"] = None
            else:
                returned = np.where(past <= budget, lengths[:p], -1)
                judged, met = met_needs(shared.needs, returned)
                row["needs"] = len(judged)
                row["needs_met"] = _figure(met.sum(axis=1))
            if shared.probe_columns:
                held = np.where(alive, lengths, -1).tolist()
                returned_rows = [[None if x < 0 else x for x in r] for r in held]
                row.update(_probe_figures(shared.probes, contents, returned_rows))
            rows.append(row)
    return rows


def _probe_figures(
    probes: Sequence[Probe], contents: Sequence[str], returned: Sequence[Sequence[int | None]]
) -> dict[str, Any]:
    """The probe columns, the mean over the rows of ``returned`` (one per draw); the ids of
    the probes failed, per recall, when there is one row (random's draws each fail others)."""
    recalls = [probe_recall(probes, contents, r) for r in returned]
    out: dict[str, Any] = {"probes": len(probes)}
    for kind in PROBE_KINDS:
        values = [getattr(r, kind) for r in recalls]
        out[f"probes_{kind}"] = None if values[0] is None else round(float(np.mean(values)), 6)
    out["probes_answerable"] = recalls[0].answer_probes
    out["probes_failed"] = (
        failed_probes(probes, contents, returned[0]) if len(returned) == 1 else None
    )
    return out


def baseline_probes(
    probes: Sequence[Probe], contents: Sequence[str], budget: int, draws: int = DEFAULT_DRAWS
) -> dict[str, Any]:
    """Keep-last's and random's probe recall (strict, partial, answer; random's the mean over
    ``draws``) at ``budget``, beside a registry strategy's row: ``probes_keep_last`` and
    ``probes_random``."""
    lengths = np.array([len(c) for c in contents], dtype=np.int64)
    out: dict[str, Any] = {}
    for name, drawn in (
        ("keep_last", keep_last_lengths(lengths, budget)[None, :]),
        ("random", random_lengths(lengths, budget, draws)),
    ):
        returned = [[None if x < 0 else x for x in row] for row in drawn.tolist()]
        figures = _probe_figures(probes, contents, returned)
        out[f"probes_{name}"] = {kind: figures[f"probes_{kind}"] for kind in PROBE_KINDS}
    return out


def _figure(values: np.ndarray) -> int | float:
    """One strategy's figure as it is (a whole number), or the mean over the draws."""
    if len(values) == 1:
        return int(values[0])
    return round(float(np.mean(values)), 6)
