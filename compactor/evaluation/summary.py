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

With outcome columns (SPEC part D): ``needs`` and ``needs_met`` (totals over the conversations
with a future), ``needed_recall`` (pooled: needs met / needs), ``needed_recall_median`` (over
the conversations with a need), the same pooled figure of keep-last and random at the same
budget (``needed_recall_keep_last``, ``needed_recall_random``) and the ``needed_lift`` (the
setting's minus keep-last's), the probe recalls (the mean over the conversations with probes),
and ``frontier_needed``: the frontier read by needed-later recall instead of anchors. The
baselines' rows are summarised as settings of their own (``strategy`` keep-last or random, no
parameter), read at their own budgets only, and are never on a frontier.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from compactor.analyses.outcomes.baselines import KEEP_LAST, RANDOM
from compactor.analyses.sweeps import BUDGET_RANGE
from compactor.evaluation.grid import (
    BUDGET,
    MEMORY_COMPACT,
    SETTING_PARAMETERS,
    STRATEGY,
    setting_key,
)

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
    _beside_baselines(summaries)
    _mark_frontier(summaries, "anchors_kept", "frontier")
    _mark_frontier(summaries, "needs_met", "frontier_needed")
    return summaries


def worst_by_needed_recall(
    rows: Iterable[Mapping[str, Any]], limit: int | None = None
) -> list[Mapping[str, Any]]:
    """Of one setting's rows (one per conversation), those with a need unmet: the lowest
    needed-later recall first, then the most needs unmet, then corpus order."""
    unmet = [r for r in rows if r.get("needs") and r["needs_met"] < r["needs"]]
    unmet.sort(key=lambda r: (r["needs_met"] / r["needs"], r["needs_met"] - r["needs"]))
    return unmet[:limit] if limit is not None else unmet


def rows_in_force(
    rows: Iterable[Mapping[str, Any]], budgets: Sequence[int]
) -> list[Mapping[str, Any]]:
    """Of sweep rows, only those :func:`summarise` reads at ``budgets`` (each once, in order):
    ``summarise(rows_in_force(rows, b), b) == summarise(rows, b)``, so a long run keeps these
    alone for its summary."""
    groups: dict[tuple[Any, ...], list[Mapping[str, Any]]] = defaultdict(list)
    ordered = sorted(budgets)
    for row in rows:
        groups[(row["conversation"], *setting_key(row))].append(row)
    chosen: set[int] = set()
    for found in groups.values():
        found.sort(key=lambda r: r[BUDGET])
        if _is_baseline(found[0]):  # given at the summary's budgets: read there only
            chosen.update(id(r) for r in found if r[BUDGET] in ordered)
            continue
        starts = np.array([r[BUDGET] for r in found], dtype=np.int64)
        for k in set((np.searchsorted(starts, ordered, side="right") - 1).tolist()) - {-1}:
            chosen.add(id(found[k]))
    return [row for group in groups.values() for row in group if id(row) in chosen]


def _read_at(
    rows: Iterable[Mapping[str, Any]], budgets: list[int]
) -> dict[tuple[Any, ...], list[Mapping[str, Any]]]:
    """Per (grid setting, budget): each conversation's row in force at that budget (for a
    baseline, its row at that budget)."""
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
                if k >= 0 and (not _is_baseline(found[k]) or found[k][BUDGET] == budget):
                    groups[(*setting, budget)].append(found[k])
    return {key: group for key, group in groups.items() if group}


def _is_baseline(row: Mapping[str, Any]) -> bool:
    return (row.get(STRATEGY) or MEMORY_COMPACT) != MEMORY_COMPACT


def _summary(key: tuple[Any, ...], rows: list[Mapping[str, Any]]) -> dict[str, Any]:
    setting = dict(zip(SETTING_PARAMETERS, key[1:-1], strict=True))
    if setting["keep_roles"] is not None:
        setting["keep_roles"] = list(setting["keep_roles"])
    chars = np.array([r["output_chars"] for r in rows], dtype=np.float64)
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
    out["anchors_kept"] = _total(r["anchors_kept"] for r in rows)
    out["output_chars"] = _total(r["output_chars"] for r in rows)
    out["tool_pairs_broken"] = _total(r["tool_pairs_broken"] for r in rows)
    if all("output_tokens" in r for r in rows):
        out["output_tokens"] = _total(r["output_tokens"] for r in rows)
    out["frontier"] = False
    if any("needs" in r for r in rows):
        out.update(_needed(key[0], rows))
    if any("probes" in r for r in rows):
        for kind in ("strict", "partial", "answer"):
            found = [r[f"probes_{kind}"] for r in rows if r.get(f"probes_{kind}") is not None]
            out[f"probes_{kind}"] = round(float(np.mean(found)), 6) if found else None
    return out


def _needed(strategy: str, rows: list[Mapping[str, Any]]) -> dict[str, Any]:
    """The needed-later recall of one setting: pooled, and the median over conversations."""
    judged = [r for r in rows if r.get("needs")]
    needs = sum(r["needs"] for r in judged)
    met = _total(r["needs_met"] for r in judged)
    shares = [r["needs_met"] / r["needs"] for r in judged]
    return {
        STRATEGY: strategy,
        "needs": needs,
        "needs_met": met,
        "needed_recall": round(met / needs, 6) if needs else None,
        "needed_recall_median": round(float(np.median(shares)), 6) if shares else None,
        "frontier_needed": False,
    }


def _beside_baselines(summaries: list[dict[str, Any]]) -> None:
    """Each setting's needed-later recall beside keep-last's and random's at its budget."""
    if not any("needed_recall" in s for s in summaries):
        return
    found = {(s[STRATEGY], s[BUDGET]): s["needed_recall"] for s in summaries if STRATEGY in s}
    for summary in summaries:
        budget = summary[BUDGET]
        keep_last = found.get((KEEP_LAST, budget))
        summary["needed_recall_keep_last"] = keep_last
        summary["needed_recall_random"] = found.get((RANDOM, budget))
        mine = summary.get("needed_recall")
        lift = None if mine is None or keep_last is None else round(mine - keep_last, 6)
        summary["needed_lift"] = lift


def _mark_frontier(summaries: list[dict[str, Any]], measure: str, flag: str) -> None:
    """``flag`` is True for a setting no other dominates: at least as much of ``measure`` kept
    (per conversation) and at most as many output characters per conversation, and better in
    one of the two. Baselines are references, never on it nor dominating."""
    chosen = [s for s in summaries if not _is_baseline(s) and s.get(measure) is not None]
    if not chosen:
        return
    kept = np.array([s[measure] / s["conversations"] for s in chosen])
    chars = np.array([s["output_chars"] / s["conversations"] for s in chosen])
    for k, summary in enumerate(chosen):
        dominated = (
            (kept >= kept[k]) & (chars <= chars[k]) & ((kept > kept[k]) | (chars < chars[k]))
        )
        summary[flag] = not bool(dominated.any())


def _total(values: Iterable[float]) -> int | float:
    """A sum, whole when every term is (a baseline's mean over draws may not be)."""
    total = sum(values)
    return total if isinstance(total, int) else round(float(total), 6)
