"""Frames of LLM compact beside memory-compact: what each returns, and the anchors (ids,
numbers, paths) the summary lost that memory-compact kept."""

from __future__ import annotations

from typing import Any

import pandas as pd

from compactor import CompactionResult
from compactor.analyses.anchors import anchor_report
from compactor.contract import MEMORY_COMPACT
from compactor.strategies import StrategyResult
from explorer.frames.safe_text import term_segments


def totals_frame(result: CompactionResult, answer: dict[str, Any]) -> pd.DataFrame:
    """memory-compact and LLM compact side by side: characters, messages, anchors kept."""
    report = anchor_report(result)
    contents = [m["content"] for m in answer["messages"] if isinstance(m.get("content"), str)]
    llm_kept = sum(1 for a in report.anchors if any(a.text in c for c in contents))
    usage = answer["compaction"]
    rows = [
        {
            "strategy": MEMORY_COMPACT,
            "output_chars": result.totals.output,
            "output_messages": len(result.survivors),
            "anchors_kept": report.kept_count,
            "anchors": len(report.anchors),
            "model_tokens": None,
        },
        {
            "strategy": "LLM compact",
            "output_chars": sum(map(len, contents)),
            "output_messages": len(answer["messages"]),
            "anchors_kept": llm_kept,
            "anchors": len(report.anchors),
            "model_tokens": (
                None
                if usage["summarizerPromptTokens"] is None
                else usage["summarizerPromptTokens"] + (usage["summarizerCompletionTokens"] or 0)
            ),
        },
    ]
    return pd.DataFrame(rows)


def lost_by_summary(result: CompactionResult, answer: dict[str, Any]) -> pd.DataFrame:
    """Every anchor memory-compact keeps that no message LLM compact returns holds verbatim."""
    contents = [m["content"] for m in answer["messages"] if isinstance(m.get("content"), str)]
    rows = [
        {"kind": a.kind, "anchor": a.text, "in_messages": ", ".join(f"#{i}" for i in a.where)}
        for a in anchor_report(result).anchors
        if a.kept and not any(a.text in c for c in contents)
    ]
    return pd.DataFrame(rows, columns=["kind", "anchor", "in_messages"])


def focus_kept(focus: StrategyResult) -> pd.DataFrame:
    """What focus returned, a row per message it kept (whole or cut), in order: the message, its
    role, its fate, the text returned (its kept spans joined) and the focus terms in it."""
    terms = list(focus.parameters.get("focus_terms", ()))
    rows = []
    for m in focus.messages:
        if m.content is None:
            continue
        found = {piece.lower() for piece, hit in term_segments(m.content, terms) if hit}
        rows.append(
            {
                "message": m.index,
                "role": m.role,
                "kept": m.kept,
                "text": m.content,
                "terms": [t for t in terms if t in found],
            }
        )
    return pd.DataFrame(rows, columns=["message", "role", "kept", "text", "terms"])
