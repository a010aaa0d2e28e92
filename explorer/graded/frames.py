"""The Graded compactions page's tables: the history before a recorded compaction, and the
recorded summary beside every strategy at its size."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from compactor.analyses import RECORDED, SIZE_TOLERANCE, GradedCompaction
from compactor.analyses.outcomes import PROTECTED, judge_note
from compactor.wording import plural

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


def lineup_frame(graded: GradedCompaction, form: str = PROTECTED) -> pd.DataFrame:
    """One row per way to replace the history (the recorded summary first): its characters,
    needed-later recall with the needs met, the history's anchors kept, and for a strategy
    over the summary's size keep-last's and random's recall at its own size (in ``form``);
    ``note`` says why a strategy did not run, or why the judge flatters it."""
    columns = [
        "strategy",
        "recorded",
        "chars",
        "size",
        "recall",
        "keep_last_at_size",
        "random_at_size",
        "needs_met",
        "anchors_kept",
        "note",
    ]
    rows = []
    for row in graded.rows:
        base = {"strategy": row.name, "recorded": row.key == RECORDED}
        if not row.available or row.recall is None:
            rows.append({**base, "note": row.unavailable or "did not run"})
            continue
        needs = row.recall.needs
        own = graded.at_own_size(row, form)
        rows.append(
            {
                **base,
                "chars": row.output_chars,
                "size": size_text(graded, row),
                "recall": row.recall.recall,
                "keep_last_at_size": None if own is None else own.keep_last,
                "random_at_size": None if own is None else own.random.mean,
                "needs_met": f"{row.recall.met} of {needs}" if needs else "no needs",
                "anchors_kept": f"{row.anchors_kept} of {graded.anchors}",
                "note": judge_note(row.key),
            }
        )
    frame = pd.DataFrame(rows, columns=columns)
    frame["chars"] = frame["chars"].astype("Int64")
    for column in ("recall", "keep_last_at_size", "random_at_size"):
        frame[column] = frame[column].astype("Float64")
    return frame


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
