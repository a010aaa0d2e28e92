"""Frames of the anchors: the exact strings (ids, numbers with units, dates, paths, URLs, code
names) a later turn may need verbatim, and what the current setting does to each."""

from __future__ import annotations

import pandas as pd

from compactor.analyses import BUDGET_RANGE
from compactor.analyses.anchors import AnchorReport, message_anchors, stage_losses


def survives_label(budget: int | None) -> str:
    """From which ``budget_chars`` an anchor is kept, in words."""
    if budget is None:
        return f"never (not at {BUDGET_RANGE[1]:,})"
    if budget <= BUDGET_RANGE[0]:
        return "at every budget"
    return f"from {budget:,} characters"


def anchors_frame(report: AnchorReport) -> pd.DataFrame:
    """One row per anchor: kind, text, where it occurs, what the current setting does to it."""
    rows = [
        {
            "kind": a.kind,
            "anchor": a.text,
            "where": ", ".join(f"#{i}" for i in a.where),
            "occurrences": len(a.occurrences),
            "status": a.status,
            "lost_at": a.lost_at or "",
            "survives_from_budget": a.survives_from_budget,
            "survives_from": survives_label(a.survives_from_budget),
        }
        for a in report.anchors
    ]
    columns = ["kind", "anchor", "where", "occurrences", "status", "lost_at"]
    frame = pd.DataFrame(rows, columns=[*columns, "survives_from_budget", "survives_from"])
    return frame.astype({"survives_from_budget": "Int64"})


def kinds_frame(report: AnchorReport) -> pd.DataFrame:
    """Anchors and kept anchors per kind."""
    frame = anchors_frame(report)
    if frame.empty:
        return pd.DataFrame(columns=["kind", "anchors", "kept"])
    grouped = frame.assign(kept=frame["status"] == "kept").groupby("kind", sort=True)
    return grouped.agg(anchors=("anchor", "size"), kept=("kept", "sum")).reset_index()


def stage_sentences(report: AnchorReport) -> list[str]:
    """What each stage did to the anchors: ``trim cut away 14 anchors``."""
    return [loss.sentence for loss in stage_losses(report)]


def message_anchor_frame(report: AnchorReport, index: int) -> pd.DataFrame:
    """Each anchor occurrence in message ``index``, and whether this setting returns it."""
    rows = [
        {
            "kind": a.kind,
            "anchor": a.text,
            "at": f"{a.start:,}–{a.end:,}",
            "kept": a.kept,
            "lost_at": a.lost_at or "",
            "survives_from": survives_label(a.survives_from_budget),
        }
        for a in message_anchors(report, index)
    ]
    return pd.DataFrame(rows, columns=["kind", "anchor", "at", "kept", "lost_at", "survives_from"])
