"""The Recommend page's frames (pure pandas): the check part's figures, the trials' runners-up,
and the needs the winner keeps that the schema defaults lose."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from compactor.recommend import Figure, KeptNeed, Recommendation

#: A cost figure's column: USD per 1,000 conversations (a conversation costs a fraction of a cent).
COST = "cost"
PER = 1000


def check_frame(found: Recommendation) -> pd.DataFrame:
    """One row per method on the check part: recall with its 95% interval, the lift over
    keep-last with its interval (shares 0..1), and the budget met (counts); for the cost
    objective the column is ``cost`` (USD per 1,000 conversations) and the lift its
    difference from keep-last's."""
    return figures_frame(found.check.figures)


def floor_frame(found: Recommendation) -> pd.DataFrame | None:
    """Each method's needed-later recall on the check part, beside a floor (None without)."""
    if not found.check.floor_figures:
        return None
    return figures_frame(found.check.floor_figures)


def figures_frame(figures: Sequence[Figure]) -> pd.DataFrame:
    def scaled(f: Figure, value: float | None) -> float | None:
        return value * PER if value is not None and f.kind == COST else value

    return pd.DataFrame(
        [
            {
                "method": f.method,
                (COST if f.kind == COST else "recall"): scaled(f, f.recall),
                "low": scaled(f, f.low),
                "high": scaled(f, f.high),
                "lift": scaled(f, f.lift),
                "lift_low": scaled(f, f.lift_low),
                "lift_high": scaled(f, f.lift_high),
                "budget_met": f"{f.budget_met:,} of {f.conversations:,}",
            }
            for f in figures
        ]
    )


def runners_frame(found: Recommendation) -> pd.DataFrame:
    """The winner, then the best trial of each other strategy, on the tuning part."""
    rows = [found.winner_trial, *found.runners_up]
    return pd.DataFrame(
        [
            {
                "rank": k,
                "strategy": t.strategy,
                "parameters": json.dumps(dict(t.params), separators=(", ", ": ")),
                "recall": t.recall,
                **({} if t.cost is None else {COST: t.cost * PER}),
                "budget_met": t.budget_met,
            }
            for k, t in enumerate(rows, 1)
        ]
    )


def why_frame(kept: Sequence[KeptNeed]) -> pd.DataFrame:
    """Each need the winner keeps and the defaults lose: where, the anchor and its kind."""
    return pd.DataFrame(
        [
            {
                "conversation": str(k.conversation),
                "message": k.user,
                "anchor": k.anchor,
                "kind": k.kind,
            }
            for k in kept
        ],
        columns=["conversation", "message", "anchor", "kind"],
    )


def recommended_point(
    corpus: str,
    rows: Sequence[Mapping[str, Any]],
    strategy: str,
    params: Mapping[str, Any],
    budget: int,
) -> dict[str, Any]:
    """The recommended setting as a point of the Corpus frontier chart: its rows over the
    whole corpus (the corpus evaluation's, at the goal's budget) summarised as the chart's
    axes are (characters out per conversation, anchors kept of all, needs met of all, pooled),
    with the corpus it was made for (its key in the workspace), its setting in words and its
    short label."""
    count = len(rows) or 1
    anchors = sum(r["anchors"] for r in rows)
    needs = sum(r.get("needs") or 0 for r in rows)
    met = sum(r.get("needs_met") or 0 for r in rows if r.get("needs"))
    shown = json.dumps(dict(params), separators=(", ", ": "))
    return {
        "corpus": corpus,
        "strategy": strategy,
        "params": dict(params),
        "budget_chars": budget,
        "chars_per_conversation": sum(r["output_chars"] or 0 for r in rows) / count,
        "retention": sum(r["anchors_kept"] for r in rows) / anchors if anchors else None,
        "needed_recall": met / needs if needs else None,
        "setting": f"{strategy} {shown} at {budget:,} characters",
        "label": strategy,
    }
