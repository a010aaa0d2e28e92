"""The Graded compactions page's tables: the history before a recorded compaction, the
recorded summary beside every strategy at its size (needed-later and re-read recall, random's
re-read recall last), and the files the agent read again after it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from compactor.analyses import RECORDED, REREAD_JUDGE, SIZE_TOLERANCE, GradedCompaction
from compactor.analyses.outcomes import DEFAULT_DRAWS
from compactor.analyses.pricing import CompactionCost
from compactor.wording import percent, plural

#: The row of random's re-read recall (whole messages drawn at the summary's budget).
RANDOM_ROW = f"random (mean of {DEFAULT_DRAWS} draws, at its budget)"

#: Triggers the page names as they are; anything else a log says is shown as "other".
TRIGGERS = ("auto", "manual")


def title(graded: GradedCompaction) -> str:
    """``Compaction 1, before message #6 (manual; 48,211 → 3,120 tokens)``: only figures and
    words of our own, never text from the log."""
    c = graded.compaction
    facts = []
    if c.trigger is not None:
        facts.append(c.trigger if c.trigger in TRIGGERS else "other trigger")
    if c.pre_tokens is not None and c.post_tokens is not None:
        facts.append(f"{c.pre_tokens:,} → {c.post_tokens:,} tokens")
    elif c.pre_tokens is not None:
        facts.append(f"{c.pre_tokens:,} tokens before")
    told = f" ({'; '.join(facts)})" if facts else ""
    return f"Compaction {graded.number + 1}, before message {c.boundary}{told}"


def history_frame(messages: Sequence[Mapping[str, Any]], boundary: int) -> pd.DataFrame:
    """The messages before the boundary: index, role, characters, content."""
    rows = [
        {"index": i, "role": m["role"], "chars": len(m["content"]), "content": m["content"]}
        for i, m in enumerate(messages[:boundary])
    ]
    return pd.DataFrame(rows, columns=["index", "role", "chars", "content"])


def lineup_frame(
    graded: GradedCompaction, costs: Mapping[str, CompactionCost] | None = None
) -> pd.DataFrame:
    """One row per way to replace the history (the recorded summary first): its characters,
    needed-later recall with the needs met, re-read recall with the re-reads held, the
    history's anchors kept and, with ``costs`` (by row key, docs/cost.md), what the compaction
    costs; random last, judged on re-reads alone."""
    columns = [
        "strategy",
        "recorded",
        "chars",
        "size",
        "recall",
        "needs_met",
        "reread_recall",
        "rereads_held",
        "anchors_kept",
        *(["cost"] if costs is not None else []),
        "note",
    ]
    rows = []
    for row in graded.rows:
        base = {"strategy": row.name, "recorded": row.key == RECORDED}
        if not row.available or row.recall is None:
            rows.append({**base, "note": row.unavailable or "did not run"})
            continue
        needs = row.recall.needs
        rows.append(
            {
                **base,
                "chars": row.output_chars,
                "size": size_text(graded, row),
                "recall": row.recall.recall,
                "needs_met": f"{row.recall.met} of {needs}" if needs else "no needs",
                **_reread_cells(row.rereads),
                "anchors_kept": f"{row.anchors_kept} of {graded.anchors}",
                "cost": _cost_of(costs, row.key),
                "note": None,
            }
        )
    if graded.random_rereads is not None:
        rows.append(
            {
                "strategy": RANDOM_ROW,
                "recorded": False,
                **_reread_cells(graded.random_rereads),
                "note": "whole messages; judged on re-reads only",
            }
        )
    frame = pd.DataFrame(rows, columns=columns)
    frame["chars"] = frame["chars"].astype("Int64")
    frame["recall"] = frame["recall"].astype("Float64")
    frame["reread_recall"] = frame["reread_recall"].astype("Float64")
    if costs is not None:
        frame["cost"] = frame["cost"].astype("Float64")
    return frame


def _reread_cells(recall: Any) -> dict[str, Any]:
    if recall is None:
        return {}
    if not recall.rereads:
        return {"reread_recall": None, "rereads_held": "no re-reads"}
    held = recall.held
    shown = f"{held:g}" if float(held).is_integer() else f"{held:.2f}"
    return {"reread_recall": recall.recall, "rereads_held": f"{shown} of {recall.rereads}"}


def rereads_frame(graded: GradedCompaction) -> pd.DataFrame:
    """The files read again after the compaction: the file, the earlier read (its message and
    lines, its result's characters) and the re-read (its message, lines and characters)."""
    columns = ["file", "before", "before_lines", "chars", "after", "after_lines", "chars_again"]
    found = graded.rereads.rereads if graded.rereads is not None else ()
    rows = [{k: v for k, v in r.to_dict().items() if k in columns} for r in found]
    return pd.DataFrame(rows, columns=columns)


def repeats_frame(graded: GradedCompaction) -> pd.DataFrame:
    """The searches (Grep, Glob) and commands (Bash) run again after it: counted apart."""
    columns = ["tool", "what", "before", "after"]
    found = graded.rereads
    rows = [] if found is None else [r.to_dict() for r in (*found.searches, *found.commands)]
    return pd.DataFrame(rows, columns=columns)


def rereads_said(graded: GradedCompaction) -> str | None:
    """The re-read judge in words: what it counts, this compaction's re-reads and characters,
    and how the summary, keep-last and random fared (None when re-reads were not looked for)."""
    found = graded.rereads
    if found is None:
        return None
    said = f"Judge: {REREAD_JUDGE}. "
    n = len(found.rereads)
    repeats = (
        f"{plural(len(found.searches), 'search', 'searches')} and "
        f"{plural(len(found.commands), 'command')} run again are counted apart, not as needs."
    )
    if not n:
        return said + "No file read before it was read again after it; " + repeats
    said += (
        f"{plural(n, 'file read', 'file reads')} of the history were read again after it "
        f"({found.chars:,} characters before; {found.chars_again:,} characters read again). "
    )
    figures = []
    for key, name in ((RECORDED, "the summary"), ("keep-last", "keep-last")):
        row = next((r for r in graded.rows if r.key == key), None)
        if row is not None and row.rereads is not None:
            figures.append(f"{name} held {percent(row.rereads.recall)}")
    if graded.random_rereads is not None:
        figures.append(f"random {percent(graded.random_rereads.recall)}")
    if figures:
        said += "Re-read recall: " + ", ".join(figures) + f" (of {n}). "
    return said + repeats


def _cost_of(costs: Mapping[str, CompactionCost] | None, key: str) -> float | None:
    found = costs.get(key) if costs is not None else None
    return found.cost.total if found is not None and found.cost is not None else None


def cost_sentence(graded: GradedCompaction, costs: Mapping[str, CompactionCost], model: str) -> str:
    """What the recorded compaction cost against the strategies at the model's prices."""
    recorded = costs.get(RECORDED)
    if recorded is None or recorded.cost is None:
        return f"{model} has no input or output price in the table: no cost is shown."
    call = recorded.call
    return (
        f"At {model}'s prices the recorded compaction cost ${recorded.cost.total:.4f}: its "
        f"summary call read {call.reads:,} tokens of history and wrote {call.output:,} tokens "
        f"of summary, which the next call writes to the cache again. A strategy calls no "
        "model: its cost is the next call's rewrite of what it kept (what it left unchanged at "
        "the start is read from the cache)."
    )


def size_text(graded: GradedCompaction, row: Any) -> str:
    """Whether a row is at the summary's size: ``at its size`` or ``over its size by N
    characters`` (beyond the tolerance), the summary itself ``the summary``."""
    if row.key == RECORDED:
        return "the summary"
    over = graded.over_size(row)
    return "at its size" if not over else f"over its size by {over:,} characters"


def verdict(graded: GradedCompaction) -> str | None:
    """One sentence: how many strategies at the summary's size (at most 10% more characters)
    met more later needs than the summary did, and how many returned more and are not compared
    (None when there is no figure or no need)."""
    recorded = graded.row(RECORDED).recall if graded.valid else None
    if recorded is None or recorded.recall is None:
        return None
    ran = [r for r in graded.rows if r.key != RECORDED and r.recall is not None]
    others = [r for r in ran if graded.at_size(r)]
    better = [r for r in others if (r.recall.recall or 0) > recorded.recall]
    said = (
        f"The summary kept {recorded.met} of {recorded.needs} later needs; "
        f"{len(better)} of {len(others)} strategies at its size "
        f"(at most {SIZE_TOLERANCE:.0%} more characters) kept more."
    )
    over = len(ran) - len(others)
    if over:
        verb = "is" if over == 1 else "are"
        said += f" {plural(over, 'strategy', 'strategies')} returned more and {verb} not compared."
    return said
