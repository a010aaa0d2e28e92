"""Data frames and sentences of the Budget sweep and Sensitivity pages, read from the
engine's sweeps: every number comes from compactor, nothing here decides a fate.
"""

from __future__ import annotations

import pandas as pd

from compactor import CompactionResult
from compactor.analyses import (
    BEYOND_RANGE,
    KEPT_ALWAYS,
    REMOVED_ALWAYS,
    BudgetSweep,
    Survival,
    ThresholdStep,
    ThresholdSweep,
    TrimSweep,
)
from compactor.analyses.anchors import AnchorReport, retention_curve
from explorer.frames.views import name_list, preview

# --- budget sweep ---------------------------------------------------------------------------


def survival_label(survival: Survival, budget_range: tuple[int, int]) -> str:
    """``kept from 1,840 characters``, or why no budget decides it (protected, duplicate, ...)."""
    if survival.rule == KEPT_ALWAYS:
        return "always kept (protected)"
    if survival.rule == REMOVED_ALWAYS:
        return "never: removed by dedupe at every budget"
    if survival.rule == BEYOND_RANGE or survival.survives_from_budget is None:
        return f"never: needs more than {budget_range[1]:,} characters"
    if survival.survives_from_budget <= budget_range[0]:
        return f"kept at every budget (from {survival.survives_from_budget:,} characters)"
    return f"kept from {survival.survives_from_budget:,} characters"


def survival_frame(sweep: BudgetSweep, result: CompactionResult) -> pd.DataFrame:
    """One row per input message: from which budget it is in the output, and its fate now.

    ``chars`` (its characters when kept) and ``survives_from_budget`` are empty for a message
    that no budget in range keeps (a duplicate, or one that needs more than the maximum).
    """
    rows = []
    for s in sweep.survival:
        trace = result.messages[s.index]
        rows.append(
            {
                "index": s.index,
                "message": f"#{s.index}",
                "role": s.role,
                "fate": s.fate,
                "kept_now": trace.survived,
                "chars": None if s.survives_from_budget is None else s.chars,
                "survives_from_budget": s.survives_from_budget,
                "kept_from": survival_label(s, sweep.budget_range),
                "rule": s.rule,
                "preview": preview(trace.message.content),
            }
        )
    columns = ["index", "message", "role", "fate", "kept_now", "chars", "survives_from_budget"]
    frame = pd.DataFrame(rows, columns=[*columns, "kept_from", "rule", "preview"])
    return frame.astype({"chars": "Int64", "survives_from_budget": "Int64"})


def with_survival(frame: pd.DataFrame, sweep: BudgetSweep) -> pd.DataFrame:
    """A frame with an ``index`` column (the fate frame) plus each message's survival budget."""
    by_index = {s.index: s for s in sweep.survival}
    out = frame.copy()
    out["survives_from_budget"] = pd.array(
        [by_index[i].survives_from_budget for i in out["index"]], dtype="Int64"
    )
    out["kept_from"] = [survival_label(by_index[i], sweep.budget_range) for i in out["index"]]
    return out


def budget_view_limit(sweep: BudgetSweep) -> int:
    """The right end of the budget axis: past the last change and the current budget."""
    low, high = sweep.budget_range
    last_change = sweep.steps[-1].from_budget
    top = max(last_change, sweep.current_budget, low)
    return min(high, max(low + 10, int(top * 1.1) + 1))


def budget_steps_frame(sweep: BudgetSweep, limit: int | None = None) -> pd.DataFrame:
    """The output as a step function of the budget, up to ``limit``: one row per step start.

    A last row at ``limit`` closes the final step. ``joins`` names the messages that enter the
    output at the step's first budget.
    """
    limit = budget_view_limit(sweep) if limit is None else limit
    joining: dict[int, list[str]] = {}
    for s in sweep.survival:
        if s.survives_from_budget is not None and s.rule not in (KEPT_ALWAYS, REMOVED_ALWAYS):
            joining.setdefault(s.survives_from_budget, []).append(f"#{s.index}")
    rows = []
    for step in sweep.steps:
        if step.from_budget > limit:
            break
        rows.append(
            {
                "budget": step.from_budget,
                "to_budget": step.to_budget,
                "output_chars": step.output_chars,
                "output_messages": step.output_messages,
                "dropped_messages": step.dropped_messages,
                "budget_met": step.budget_met,
                "joins": name_list(joining.get(step.from_budget, [])),
                "end": False,
            }
        )
    if rows and rows[-1]["budget"] < limit:
        rows.append({**rows[-1], "budget": limit, "joins": "none", "end": True})
    columns = ["budget", "to_budget", "output_chars", "output_messages", "dropped_messages"]
    return pd.DataFrame(rows, columns=[*columns, "budget_met", "joins", "end"])


def retention_frame(
    report: AnchorReport, input_chars: int, limit: int | None = None
) -> pd.DataFrame:
    """Anchors kept and characters out against the budget, up to ``limit`` (default: the
    budget charts' limit), one row per step start of :func:`retention_curve` and a last row
    at ``limit`` closing the final step; the shares are of all anchors and of the input."""
    limit = budget_view_limit(report.sweep) if limit is None else limit
    rows = []
    for step in retention_curve(report):
        if step.from_budget > limit:
            break
        rows.append(
            {
                "budget": step.from_budget,
                "to_budget": step.to_budget,
                "anchors_kept": step.anchors_kept,
                "anchors": step.anchors,
                "anchor_share": step.retention,
                "output_chars": step.output_chars,
                "char_share": step.output_chars / input_chars if input_chars else 1.0,
                "end": False,
            }
        )
    if rows and rows[-1]["budget"] < limit:
        rows.append({**rows[-1], "budget": limit, "end": True})
    columns = ["budget", "to_budget", "anchors_kept", "anchors", "anchor_share", "output_chars"]
    return pd.DataFrame(rows, columns=[*columns, "char_share", "end"])


def retention_sentence(report: AnchorReport) -> str:
    """``At the current budget of 600, 12 of 40 anchors are kept (30%); all are kept from
    4,100.`` (or from which budget none more is kept)."""
    kept, total = report.kept_count, len(report.anchors)
    text = (
        f"At the current budget of {report.budget_chars:,}, {kept:,} of {total:,} anchors are "
        f"kept ({report.retention:.0%})"
    )
    budgets = [a.survives_from_budget for a in report.anchors]
    reachable = [b for b in budgets if b is not None]
    if reachable and len(reachable) == total:
        return text + f"; every anchor is kept from a budget of {max(reachable):,}."
    if reachable:
        return (
            text + f"; the most, {len(reachable):,}, from {max(reachable):,} "
            f"({total - len(reachable):,} kept at no budget in range)."
        )
    return text + "; no budget keeps any of them."


# --- sensitivity sweeps ---------------------------------------------------------------------


def threshold_span(step: ThresholdStep) -> str:
    """The thresholds a step holds for: ``0.5 ≤ t ≤ 0.62`` or ``0.62 < t ≤ 0.8``."""
    opening = "≤" if step.includes_low else "<"
    return f"{step.low:.4g} {opening} t ≤ {step.high:.4g}"


def threshold_frame(sweep: ThresholdSweep) -> pd.DataFrame:
    """Duplicates removed against the threshold: one row per step (value holds over its span).

    ``threshold`` is the step's upper end; a first row at the range's minimum starts the line
    (a step-before line draws each value over the span that ends at its point).
    """
    rows = []
    for step in sweep.steps:
        rows.append(
            {
                "threshold": step.high,
                "from": step.low,
                "span": threshold_span(step),
                "removed_messages": step.removed_messages,
                "removed_chars": step.removed_chars,
                "removed": name_list([f"#{i}" for i in step.removed]),
                "start": False,
            }
        )
    if rows:
        first = sweep.steps[0]
        rows.insert(0, {**rows[0], "threshold": first.low, "start": True})
    columns = ["threshold", "from", "span", "removed_messages", "removed_chars", "removed"]
    return pd.DataFrame(rows, columns=[*columns, "start"])


def removes_nothing(sweep: ThresholdSweep) -> bool:
    """Whether dedupe removes nothing at every threshold of the range (an empty chart)."""
    return all(step.removed_messages == 0 for step in sweep.steps)


def closest_pair_text(similarity: pd.DataFrame, lowest_threshold: float) -> str:
    """The most similar same-role pair of a :func:`explorer.views.similarity_frame`, in words
    (and why it stays when it reaches ``lowest_threshold``: its later message is protected)."""
    if similarity.empty:
        return "No message has an earlier message of the same role."
    best = similarity.loc[similarity["similarity"].idxmax()]
    text = (
        f"The most similar pair of the same role, {best['message']} and #{best['nearest']}, "
        f"reaches {float(best['similarity']):.3f}"
    )
    if best["protected"] and best["similarity"] >= lowest_threshold:
        return text + f"; {best['message']} is protected, so dedupe never removes it."
    return text + "."


def trim_sweep_frame(sweep: TrimSweep, limit: int | None = None) -> pd.DataFrame:
    """Characters cut against ``max_message_chars`` up to ``limit`` (default: the range's
    maximum): the limits where anything changes, and ``limit`` itself to close the line.

    Values hold from a row's limit up to the next row's (a step-after line).
    """
    low, high = sweep.max_chars_range
    limit = high if limit is None else min(max(limit, low), high)
    rows = []
    last_key = None
    for p in sweep.points:
        if p.max_message_chars > limit:
            break
        key = (p.cut_chars, p.trimmed_messages, p.sentence_cuts, p.hard_cuts)
        if key == last_key and p.max_message_chars != limit:
            continue
        last_key = key
        rows.append(
            {
                "max_message_chars": p.max_message_chars,
                "cut_chars": p.cut_chars,
                "trimmed_messages": p.trimmed_messages,
                "sentence_cuts": p.sentence_cuts,
                "hard_cuts": p.hard_cuts,
                "after_trim_chars": p.after_trim_chars,
            }
        )
    columns = ["max_message_chars", "cut_chars", "trimmed_messages", "sentence_cuts", "hard_cuts"]
    return pd.DataFrame(rows, columns=[*columns, "after_trim_chars"])


def trim_view_limit(sweep: TrimSweep) -> int:
    """The right end of the max_message_chars axis: past the last limit that cuts anything, and
    past the current limit (the range's maximum at most)."""
    low, high = sweep.max_chars_range
    cutting = [p.max_message_chars for p in sweep.points if p.trimmed_messages]
    top = max(cutting[-1] + 1 if cutting else low, sweep.current_max_chars)
    return min(high, max(low + 100, int(top * 1.15)))


# --- A/B ------------------------------------------------------------------------------------
