"""Summaries of evaluation rows per setting, and the settings on the frontier.

A summary's setting is all five parameters: the four of the grid and one ``budget_chars``, the
same for every conversation, since that is what would be shipped. Rows at listed budgets are
grouped as they are. Rows at the sweep's budget points differ per conversation (a row holds from
its budget up to the next row's), so they are read at common budgets instead: ``budgets=`` (by
default :data:`SUMMARY_BUDGETS`) takes, per conversation and grid setting, the row in force at
each budget, which is exactly that conversation's output at that budget.

Per setting: ``conversations``, ``budget_met_rate``, the median, 10th and 90th percentile of
``output_chars`` (the characters retained) and of anchor retention (``anchors_kept / anchors``,
over the conversations that have anchors; None when none has), totals of ``anchors``,
``anchors_kept`` and ``tool_pairs_broken``, and ``frontier``: no other setting keeps at least
as many anchors per conversation with at most as many output characters per conversation, and
is better in one of the two.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from compactor.analyses.sweeps import BUDGET_RANGE
from compactor.evaluation.grid import BUDGET, SETTING_PARAMETERS, setting_key

#: The budgets sweep rows are summarised at by default: 1-2-5 steps over the schema's range,
#: and the range's maximum (100, 200, 500, 1,000, ..., 200,000, 400,000).
SUMMARY_BUDGETS: tuple[int, ...] = tuple(
    sorted(
        {b for e in range(2, 6) for b in (10**e, 2 * 10**e, 5 * 10**e) if b < BUDGET_RANGE[1]}
        | {BUDGET_RANGE[1]}
    )
)
_PERCENTILES = (50, 10, 90)


def summarise(
    rows: Iterable[Mapping[str, Any]], budgets: Sequence[int] | None = None
) -> list[dict[str, Any]]:
    """One summary per setting, in the order the settings first appear, budgets ascending.

    ``budgets`` None groups rows by their own five parameters (rows at listed budgets); a list
    reads the rows as sweep steps at those budgets (rows at every sweep point). A conversation
    without a row at or below a budget is not counted there.
    """
    if budgets is None:
        groups: dict[tuple[Any, ...], list[Mapping[str, Any]]] = defaultdict(list)
        for row in rows:
            groups[(*setting_key(row), row[BUDGET])].append(row)
    else:
        groups = _read_at(rows, sorted(budgets))
    keys = list(groups)
    order = {k[:-1]: n for n, k in reversed(list(enumerate(keys)))}
    keys.sort(key=lambda k: (order[k[:-1]], k[-1]))
    summaries = [_summary(k, groups[k]) for k in keys]
    _mark_frontier(summaries)
    return summaries


def rows_in_force(
    rows: Iterable[Mapping[str, Any]], budgets: Sequence[int]
) -> list[Mapping[str, Any]]:
    """Of sweep rows, only those :func:`summarise` reads at ``budgets`` (each once, in order):
    ``summarise(rows_in_force(rows, b), b) == summarise(rows, b)``, so a long run keeps these
    alone for its summary."""
    groups: dict[tuple[Any, ...], list[Mapping[str, Any]]] = defaultdict(list)
    for row in rows:
        groups[(row["conversation"], *setting_key(row))].append(row)
    chosen: set[int] = set()
    ordered = sorted(budgets)
    for found in groups.values():
        found.sort(key=lambda r: r[BUDGET])
        starts = np.array([r[BUDGET] for r in found], dtype=np.int64)
        for k in set((np.searchsorted(starts, ordered, side="right") - 1).tolist()) - {-1}:
            chosen.add(id(found[k]))
    return [row for group in groups.values() for row in group if id(row) in chosen]


def _read_at(
    rows: Iterable[Mapping[str, Any]], budgets: list[int]
) -> dict[tuple[Any, ...], list[Mapping[str, Any]]]:
    """Per (grid setting, budget): each conversation's row in force at that budget."""
    steps: dict[tuple[Any, ...], dict[Any, list[Mapping[str, Any]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for row in rows:
        steps[setting_key(row)][row["conversation"]].append(row)
    groups: dict[tuple[Any, ...], list[Mapping[str, Any]]] = {}
    for setting, conversations in steps.items():
        for budget in budgets:
            groups[(*setting, budget)] = []
        for found in conversations.values():
            found.sort(key=lambda r: r[BUDGET])
            starts = np.array([r[BUDGET] for r in found], dtype=np.int64)
            at = np.searchsorted(starts, budgets, side="right") - 1
            for budget, k in zip(budgets, at.tolist(), strict=True):
                if k >= 0:
                    groups[(*setting, budget)].append(found[k])
    return {key: group for key, group in groups.items() if group}


def _summary(key: tuple[Any, ...], rows: list[Mapping[str, Any]]) -> dict[str, Any]:
    setting = dict(zip(SETTING_PARAMETERS, key[:-1], strict=True))
    setting["keep_roles"] = list(setting["keep_roles"])
    chars = np.array([r["output_chars"] for r in rows], dtype=np.int64)
    with_anchors = [r for r in rows if r["anchors"]]
    retention = np.array([r["anchors_kept"] / r["anchors"] for r in with_anchors])
    out: dict[str, Any] = {BUDGET: key[-1], **setting, "conversations": len(rows)}
    out["budget_met_rate"] = round(sum(bool(r["budget_met"]) for r in rows) / len(rows), 6)
    for p, name in zip(_PERCENTILES, ("median", "p10", "p90"), strict=True):
        out[f"output_chars_{name}"] = float(np.percentile(chars, p))
    for p, name in zip(_PERCENTILES, ("median", "p10", "p90"), strict=True):
        out[f"anchor_retention_{name}"] = (
            round(float(np.percentile(retention, p)), 6) if len(retention) else None
        )
    out["anchors"] = sum(r["anchors"] for r in rows)
    out["anchors_kept"] = sum(r["anchors_kept"] for r in rows)
    out["output_chars"] = int(chars.sum())
    out["tool_pairs_broken"] = sum(r["tool_pairs_broken"] for r in rows)
    if all("output_tokens" in r for r in rows):
        out["output_tokens"] = sum(r["output_tokens"] for r in rows)
    out["frontier"] = False
    return out


def _mark_frontier(summaries: list[dict[str, Any]]) -> None:
    """``frontier`` is True where no other setting dominates: at least as many anchors kept and
    at most as many output characters, per conversation, and better in one of the two."""
    kept = np.array([s["anchors_kept"] / s["conversations"] for s in summaries])
    chars = np.array([s["output_chars"] / s["conversations"] for s in summaries])
    for k, summary in enumerate(summaries):
        dominated = (
            (kept >= kept[k]) & (chars <= chars[k]) & ((kept > kept[k]) | (chars < chars[k]))
        )
        summary["frontier"] = not bool(dominated.any())
