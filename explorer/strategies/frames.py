"""Frames of LLM compact beside memory-compact: what each returns, and the anchors (ids,
numbers, paths) the summary lost that memory-compact kept; each strategy's cost per task,
replayed over the conversation at a model's prices; and the setting a strategy's row stands
for (its "Download setting")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from compactor import CompactionResult
from compactor.analyses.anchors import anchor_report
from compactor.analyses.outcomes import find_needs, replay_misses
from compactor.analyses.pricing import ModelPrice, TokenCounter, price_histories
from compactor.analyses.replay import replay_request
from compactor.contract import MEMORY_COMPACT
from compactor.evaluation import GRID_PARAMETERS
from compactor.model import Request
from compactor.strategies import Setting, StrategyResult, get_strategy
from compactor.wording import percent
from explorer.frames import cost as cost_frames
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


def task_costs_frame(
    request: Request, keys: Sequence[str], model: ModelPrice, encoding: str | None
) -> pd.DataFrame:
    """Each strategy replayed over the whole conversation (SPEC part C, compacting on every
    turn at the request's budget, with the lineup's parameters) and priced at ``model``
    (docs/cost.md): the task's cost, its split in tokens, and the needs the replay met."""
    needs = find_needs(request.contents, request.roles)
    counter = TokenCounter(encoding)
    rows = []
    for key in keys:
        replayed = replay_request(request, key)
        cost = price_histories(replayed.histories, request.messages, model, counter=counter)
        missed = replay_misses(replayed, needs)
        total = cost.cost
        rows.append(
            {
                "strategy": key,
                "cost per task (USD)": total.total if total is not None else None,
                "needs met": percent(
                    (missed.needs - len(missed.misses)) / missed.needs if missed.needs else None
                ),
                "calls": cost.calls,
                **{f"{part} tokens": getattr(cost.split, part) for part in cost_frames.SPLIT},
            }
        )
    return pd.DataFrame(rows)


def strategy_setting(result: StrategyResult, sidebar: Mapping[str, Any]) -> Setting:
    """The setting a row of the Strategies table stands for: its strategy with the parameters
    it was run with (memory-compact's and semantic dedupe's contract parameters: the
    sidebar's) at its budget. SettingError when a file cannot hold it (a budget of the agent
    mode, say)."""
    params = {k: v for k, v in result.parameters.items() if v is not None}
    if result.key == MEMORY_COMPACT:
        params = {k: sidebar[k] for k in GRID_PARAMETERS if sidebar.get(k) is not None}
    known = {p.name for p in get_strategy(result.key).parameters}
    params = {k: v for k, v in params.items() if k in known}
    return Setting(
        result.key,
        params,
        budget_chars=result.budget_chars,
        note="chosen on the Strategies page",
    )
