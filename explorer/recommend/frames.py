"""The Recommend page's frames (pure pandas): the check part's figures, the trials' runners-up,
and the needs the winner keeps that the schema defaults lose."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pandas as pd

from compactor.recommend import KeptNeed, Recommendation


def check_frame(found: Recommendation) -> pd.DataFrame:
    """One row per method on the check part: recall with its 95% interval, the lift over
    keep-last with its interval (shares 0..1), and the budget met (counts)."""
    return pd.DataFrame(
        [
            {
                "method": f.method,
                "recall": f.recall,
                "low": f.low,
                "high": f.high,
                "lift": f.lift,
                "lift_low": f.lift_low,
                "lift_high": f.lift_high,
                "budget_met": f"{f.budget_met:,} of {f.conversations:,}",
            }
            for f in found.check.figures
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
