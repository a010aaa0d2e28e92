"""The Recommend page's frames (pure pandas): the check part's figures, the trials' runners-up,
and the needs the winner keeps that the schema defaults lose."""

from __future__ import annotations

import json
from collections.abc import Sequence

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
