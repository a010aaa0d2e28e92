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
and ``frontier_needed``: the frontier read by needed-later recall instead of anchors. With
re-read columns (conversations that recorded compactions): ``rereads``, ``rereads_held`` and
``reread_chars`` (totals over those conversations), ``reread_conversations`` (how many),
``reread_recall`` (pooled: held / re-reads; None without a re-read) and keep-last's and
random's at the same budget (``reread_recall_keep_last``, ``reread_recall_random``). The
baselines' rows are summarised as settings of their own (``strategy`` keep-last or random, no
parameter), read at their own budgets only, and are never on a frontier.
"""

from __future__ import annotations

from array import array
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from math import ceil
from typing import Any

import numpy as np

from compactor.analyses import BUDGET_RANGE
from compactor.analyses.outcomes import KEEP_LAST, RANDOM
from compactor.evaluation._grid import (
    BUDGET,
    GRID_PARAMETERS,
    MEMORY_COMPACT,
    STRATEGY,
    grid_point_key,
)

#: The budgets sweep rows are summarised at by default: 1-2-5 steps over the schema's range,
#: and the range's maximum (100, 200, 500, 1,000, ..., 200,000, 400,000).
SUMMARY_BUDGETS: tuple[int, ...] = tuple(
    sorted(
        {b for e in range(2, 6) for b in (10**e, 2 * 10**e, 5 * 10**e) if b < BUDGET_RANGE[1]}
        | {BUDGET_RANGE[1]}
    )
)
#: The shares of conversations whose budget is met at which :func:`knee_budgets` places a budget.
KNEE_SHARES = (0.1, 0.25, 0.5, 0.75, 0.9)
_PERCENTILES = (50, 10, 90)
_PROBE_KINDS = ("strict", "partial", "answer")


def summarise(
    rows: Iterable[Mapping[str, Any]], budgets: Sequence[int] | None = None
) -> list[dict[str, Any]]:
    """One summary per setting, in the order the settings first appear, budgets ascending.

    ``budgets`` None groups rows by their own five parameters (rows at listed budgets); a list
    reads the rows as sweep steps at those budgets (rows at every sweep point). A conversation
    without a row at or below a budget is not counted there.
    """
    if budgets is None:
        feed = SummaryFeed()
        for row in rows:
            feed.add(row)
        return feed.summaries()
    rows = list(rows)
    feed = SummaryFeed(budgets)
    for row in rows:
        feed.first_seen.setdefault(grid_point_key(row), len(feed.first_seen))
    feed.take(_read_at(rows, sorted(budgets)))
    return feed.summaries()


class SummaryFeed:
    """:func:`summarise`, fed row by row, holding per setting only the figures its summary reads
    (a few numbers a row), never the rows: a run of a million rows summarises in little memory.

    With ``budgets`` (sweep rows), rows come conversation by conversation (a conversation's rows
    one after another, as a run writes them); each conversation's rows in force at the budgets
    are read when the next conversation starts. ``feed.summaries()`` equals ``summarise`` of all
    the rows fed.
    """

    def __init__(self, budgets: Sequence[int] | None = None):
        self.budgets = None if budgets is None else sorted(budgets)
        self.first_seen: dict[tuple[Any, ...], int] = {}
        self._groups: dict[tuple[Any, ...], _Group] = {}
        self._conversation: list[Mapping[str, Any]] = []
        self._met_from: list[int | None] = []  # sweep rows: one budget per conversation, setting

    def add(self, row: Mapping[str, Any]) -> None:
        setting = grid_point_key(row)
        self.first_seen.setdefault(setting, len(self.first_seen))
        if self.budgets is None:
            self._group((*setting, row[BUDGET])).add(row)
            return
        if self._conversation and self._conversation[-1]["conversation"] != row["conversation"]:
            self._flush()
        self._conversation.append(row)

    def take(self, groups: Mapping[tuple[Any, ...], Iterable[Mapping[str, Any]]]) -> None:
        """Rows already grouped by (setting, budget)."""
        for key, rows in groups.items():
            group = self._group(key)
            for row in rows:
                group.add(row)

    def summaries(self) -> list[dict[str, Any]]:
        self._flush()
        order = self.first_seen
        keys = sorted(self._groups, key=lambda k: (order[k[:-1]], k[-1]))
        summaries = [self._groups[k].summary(k) for k in keys]
        _beside_baselines(summaries)
        _mark_frontier(summaries, "anchors_kept", "frontier")
        _mark_frontier(summaries, "needs_met", "frontier_needed")
        return summaries

    def knee_budgets(self, shares: Sequence[float] = KNEE_SHARES) -> list[int]:
        """:func:`knee_budgets` of every sweep row fed (none for rows at listed budgets)."""
        return sorted(set(self.met_at_shares(shares)))

    def met_at_shares(self, shares: Sequence[float] = KNEE_SHARES) -> list[int]:
        """:func:`met_at_shares` of every sweep row fed (none for rows at listed budgets)."""
        self._flush()
        return met_at_shares(self._met_from, shares)

    def _flush(self) -> None:
        if self._conversation and self.budgets is not None:
            self.take(_read_at(self._conversation, self.budgets))
            self._met_from += met_from(self._conversation)
        self._conversation = []

    def _group(self, key: tuple[Any, ...]) -> _Group:
        group = self._groups.get(key)
        if group is None:
            group = self._groups[key] = _Group()
        return group


def met_from(rows: Iterable[Mapping[str, Any]]) -> list[int | None]:
    """Of sweep rows (a row holds from its budget up to the next row's of its conversation and
    grid setting), the budget from which each (conversation, grid setting) meets its budget:
    the least ``B`` whose output is at most ``B``; None when no budget of the range does.
    Baselines' rows are not read."""
    steps: dict[tuple[Any, ...], list[tuple[int, int]]] = defaultdict(list)
    for row in rows:
        if not _is_baseline(row):
            steps[(row["conversation"], *grid_point_key(row))].append(
                (row[BUDGET], row["output_chars"])
            )
    found: list[int | None] = []
    for points in steps.values():
        points.sort()
        ends = [b for b, _ in points[1:]] + [BUDGET_RANGE[1] + 1]
        found.append(
            next(
                (
                    max(b, out)
                    for (b, out), end in zip(points, ends, strict=True)
                    if max(b, out) < end
                ),
                None,
            )
        )
    return found


def knee_budgets(
    rows: Iterable[Mapping[str, Any]], shares: Sequence[float] = KNEE_SHARES
) -> list[int]:
    """Budgets where the share of conversations meeting their budget changes: from sweep rows,
    the least budget at which each of ``shares`` of (conversation, grid setting) pairs meets it,
    rounded up to two significant figures (so at least that share meets it there). Fixed steps
    (:data:`SUMMARY_BUDGETS`) can miss the knee of a corpus whose conversations all need about
    the same: these put budgets on it."""
    return knees_of(met_from(rows), shares)


def knees_of(met: Iterable[int | None], shares: Sequence[float] = KNEE_SHARES) -> list[int]:
    """:func:`knee_budgets` from the budgets each pair meets its budget from (:func:`met_from`),
    as a run that keeps no rows gathers them (:meth:`SummaryFeed.knee_budgets`)."""
    return sorted(set(met_at_shares(met, shares)))


def met_at_shares(met: Iterable[int | None], shares: Sequence[float] = KNEE_SHARES) -> list[int]:
    """For each of ``shares``, the least budget (rounded up to two significant figures) at
    which that share of the pairs that meet their budget at all meets it; empty when none
    does."""
    found = [b for b in met if b is not None]
    if not found:
        return []
    ordered = np.sort(np.asarray(found, dtype=np.int64))
    low, high = BUDGET_RANGE
    at = [_round_up(int(ordered[max(0, ceil(share * len(ordered)) - 1)])) for share in shares]
    return [min(max(b, low), high) for b in at]


def _round_up(value: int, figures: int = 2) -> int:
    """``value`` rounded up to ``figures`` significant figures (6,481 -> 6,500)."""
    if value <= 0:
        return value
    step = 10 ** max(0, len(str(value)) - figures)
    return -(-value // step) * step


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
        groups[(row["conversation"], *grid_point_key(row))].append(row)
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
        steps[grid_point_key(row)][row["conversation"]].append(row)
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


class _Group:
    """The figures of one setting at one budget, row by row: what its summary reads (sums in
    row order, as ``sum`` gives them, and the values its percentiles and means are taken of)."""

    def __init__(self) -> None:
        self.rows = self.met = self.anchors = 0
        self.kept: int | float = 0
        self.chars_total: int | float = 0
        self.broken: int | float = 0
        self.tokens: int | float | None = 0  # None once a row has no output_tokens
        self.chars = array("d")
        self.retention = array("d")  # anchors kept / anchors, of the rows with anchors
        self.needs: int | None = None  # None until a row has the outcome columns
        self.needs_met: int | float = 0
        self.shares = array("d")  # needs met / needs, of the rows with needs
        self.probed = False  # whether a row has the probe columns
        self.probes = {kind: array("d") for kind in _PROBE_KINDS}
        self.reread_rows = 0  # rows with the re-read columns (conversations with compactions)
        self.rereads = self.reread_chars = 0
        self.rereads_held: int | float = 0
        self.asked = self.answerable = 0  # probes pooled over the conversations
        self.probes_met: dict[str, int | float] = dict.fromkeys(_PROBE_KINDS, 0)
        self.failed: list[dict[str, Any]] | None = None  # None while a row has no such list

    def add(self, row: Mapping[str, Any]) -> None:
        self.rows += 1
        self.met += bool(row["budget_met"])
        self.chars.append(row["output_chars"])
        if row["anchors"]:
            self.retention.append(row["anchors_kept"] / row["anchors"])
        self.anchors += row["anchors"]
        self.kept += row["anchors_kept"]
        self.chars_total += row["output_chars"]
        self.broken += row["tool_pairs_broken"]
        if self.tokens is not None:
            self.tokens = self.tokens + row["output_tokens"] if "output_tokens" in row else None
        if "needs" in row:
            self.needs = self.needs or 0
            if row["needs"]:
                self.needs += row["needs"]
                self.needs_met += row["needs_met"]
                self.shares.append(row["needs_met"] / row["needs"])
        self.probed = self.probed or "probes" in row
        for kind, found in self.probes.items():
            if row.get(f"probes_{kind}") is not None:
                found.append(row[f"probes_{kind}"])
        if row.get("rereads") is not None:
            self.reread_rows += 1
            self.rereads += row["rereads"]
            self.rereads_held += row["rereads_held"]
            self.reread_chars += row["reread_chars"]
        if row.get("probes"):
            self._pool(row)

    def _pool(self, row: Mapping[str, Any]) -> None:
        """The row's probes pooled: met counts (a share of its probes, or of its answerable
        ones) and, when the row lists them, the probes failed with their conversation."""
        answerable = row.get("probes_answerable") or 0
        self.asked += row["probes"]
        self.answerable += answerable
        failed = row.get("probes_failed")
        for kind in _PROBE_KINDS:
            of = answerable if kind == "answer" else row["probes"]
            share = row.get(f"probes_{kind}")
            if failed is not None:  # exact: the probes less those failed
                self.probes_met[kind] += of - len(failed.get(kind, ()))
            elif share is not None:  # random: the mean over its draws
                self.probes_met[kind] += share * of
        if failed is None:
            return
        self.failed = self.failed or []
        kinds = {kind: set(failed.get(kind, ())) for kind in _PROBE_KINDS}
        for probe in dict.fromkeys(i for ids in failed.values() for i in ids):
            said = [kind for kind in _PROBE_KINDS if probe in kinds[kind]]
            self.failed.append({"conversation": row["conversation"], "id": probe, "failed": said})

    def summary(self, key: tuple[Any, ...]) -> dict[str, Any]:
        setting = dict(zip(GRID_PARAMETERS, key[1:-1], strict=True))
        if setting["keep_roles"] is not None:
            setting["keep_roles"] = list(setting["keep_roles"])
        chars = np.asarray(self.chars, dtype=np.float64)
        retention = np.asarray(self.retention, dtype=np.float64)
        out: dict[str, Any] = {BUDGET: key[-1], **setting, "conversations": self.rows}
        # a promise: rounded down, never up to 1.0 while a row missed (issue 36)
        out["budget_met_rate"] = self.met * 10**6 // self.rows / 10**6
        out["budget_met_count"] = self.met
        for p, name in zip(_PERCENTILES, ("median", "p10", "p90"), strict=True):
            out[f"output_chars_{name}"] = float(np.percentile(chars, p))
        for p, name in zip(_PERCENTILES, ("median", "p10", "p90"), strict=True):
            out[f"anchor_retention_{name}"] = (
                round(float(np.percentile(retention, p)), 6) if len(retention) else None
            )
        out["anchors"] = self.anchors
        out["anchors_kept"] = _total(self.kept)
        out["output_chars"] = _total(self.chars_total)
        out["tool_pairs_broken"] = _total(self.broken)
        if self.tokens is not None:
            out["output_tokens"] = _total(self.tokens)
        out["frontier"] = False
        if self.needs is not None:
            out.update(self._needed(key[0]))
        if self.probed:
            for kind, found in self.probes.items():
                out[f"probes_{kind}"] = round(float(np.mean(found)), 6) if found else None
            out.update(self._pooled())
        if self.reread_rows:
            held = _total(self.rereads_held)
            out["reread_conversations"] = self.reread_rows
            out["rereads"] = self.rereads
            out["rereads_held"] = held
            out["reread_chars"] = self.reread_chars
            out["reread_recall"] = round(held / self.rereads, 6) if self.rereads else None
        return out

    def _pooled(self) -> dict[str, Any]:
        """Probe recall pooled over every probe of the conversations (a share of the probes;
        answer recall of the answerable ones), the counts it is made of, and the probes
        failed (None for random's mean over draws)."""
        out: dict[str, Any] = {"probes_total": self.asked, "probes_answerable": self.answerable}
        for kind in _PROBE_KINDS:
            out[f"probes_met_{kind}"] = _total(self.probes_met[kind])
            of = self.answerable if kind == "answer" else self.asked
            out[f"probe_recall_{kind}"] = round(self.probes_met[kind] / of, 6) if of else None
        out["probes_failed"] = self.failed
        return out

    def _needed(self, strategy: str) -> dict[str, Any]:
        """The needed-later recall: pooled, and the median over conversations with a need."""
        needs, met = self.needs or 0, _total(self.needs_met)
        return {
            STRATEGY: strategy,
            "needs": needs,
            "needs_met": met,
            "needed_recall": round(met / needs, 6) if needs else None,
            "needed_recall_median": round(float(np.median(self.shares)), 6)
            if self.shares
            else None,
            "frontier_needed": False,
        }


def _beside_baselines(summaries: list[dict[str, Any]]) -> None:
    """Each setting's needed-later recall (and pooled probe recall) beside keep-last's and
    random's at its budget."""
    if any("probes_total" in s for s in summaries):
        found = {(s.get(STRATEGY), s[BUDGET]): s for s in summaries}
        for summary in summaries:
            for baseline, name in ((KEEP_LAST, "keep_last"), (RANDOM, "random")):
                other = found.get((baseline, summary[BUDGET]), {})
                for kind in _PROBE_KINDS:
                    summary[f"probe_recall_{kind}_{name}"] = other.get(f"probe_recall_{kind}")
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
    rereads = {
        (s[STRATEGY], s[BUDGET]): s["reread_recall"]
        for s in summaries
        if STRATEGY in s and "reread_recall" in s
    }
    for summary in summaries:
        if "reread_recall" in summary:
            budget = summary[BUDGET]
            summary["reread_recall_keep_last"] = rereads.get((KEEP_LAST, budget))
            summary["reread_recall_random"] = rereads.get((RANDOM, budget))


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


def _total(total: int | float) -> int | float:
    """A sum, whole when every term is (a baseline's mean over draws may not be)."""
    return total if isinstance(total, int) else round(float(total), 6)
