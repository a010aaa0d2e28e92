"""Pure frames of what compactions cost at a model's prices (docs/cost.md): the price table,
a replay's cost per loop and per turn. No Streamlit."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from compactor.analyses.pricing import ModelPrice, PriceTable, ReplayCost
from compactor.wording import percent

SPLIT = ("reads", "writes", "uncached", "output")


def table_frame(table: PriceTable) -> pd.DataFrame:
    """The price table, one row per model; a figure its source did not give is empty."""
    rows = []
    for m in table.models:
        rows.append(
            {
                "model": m.key,
                "provider": m.provider,
                "input": m.input,
                "output": m.output,
                "cache read": m.cache_read,
                "cache writes": ", ".join(
                    f"{w.per_mtok:g} ({_lifetime(w.lifetime_seconds)})" for w in m.cache_writes
                )
                or None,
                "min cacheable tokens": m.min_cacheable_tokens,
                "context window": m.context_window,
                "source": m.source,
                "read": m.read,
            }
        )
    return pd.DataFrame(rows)


def _lifetime(seconds: int) -> str:
    if seconds % 3600 == 0:
        return f"{seconds // 3600} h"
    return f"{seconds // 60} min" if seconds % 60 == 0 else f"{seconds} s"


def tokens_note(cost: ReplayCost | None, model: ModelPrice) -> str:
    """How the tokens were counted, and whether that is the model's own count."""
    if cost is None:
        return ""
    how = (
        "counted in o200k_base (the tokens extra)"
        if cost.tokens != "characters / 4"
        else "estimated as characters / 4 (install the tokens extra to count them)"
    )
    exact = "" if cost.approximate else ", the model's own tokenizer"
    approx = (
        f"; approximate for {model.name}, whose tokenizer is not available offline"
        if cost.approximate
        else ""
    )
    return f"Tokens {how}{exact}{approx}."


def loops_frame(
    costs: Mapping[str, ReplayCost], recall: Mapping[str, float | None]
) -> pd.DataFrame:
    """One row per loop: the task's cost, its split in tokens and dollars, and its recall."""
    rows = []
    for loop, cost in costs.items():
        total = cost.cost
        split = cost.split
        row = {
            "loop": loop,
            "calls": cost.calls,
            "cost (USD)": total.total if total else None,
            "needs met": percent(recall.get(loop)),
        }
        for part in SPLIT:
            row[f"{part} tokens"] = getattr(split, part)
        for part in SPLIT:
            row[f"{part} (USD)"] = getattr(total, part) if total else None
        rows.append(row)
    return pd.DataFrame(rows)


def turns_frame(costs: Mapping[str, ReplayCost]) -> pd.DataFrame:
    """Every call of every loop: its prompt, split and cost (turns with no call left out)."""
    rows = []
    for loop, cost in costs.items():
        for t in cost.turns:
            if t.call:
                rows.append(
                    {
                        "loop": loop,
                        "turn": t.turn,
                        "prompt tokens": t.prompt_tokens,
                        **{part: getattr(t.split, part) for part in SPLIT},
                        "cost (USD)": t.cost.total if t.cost else None,
                    }
                )
    return pd.DataFrame(rows)


def cost_sentence(costs: Mapping[str, ReplayCost], model: ModelPrice) -> str:
    """The cheapest and the dearest loop, in one sentence."""
    priced = {loop: c.cost.total for loop, c in costs.items() if c.cost is not None}
    if not priced:
        return (
            f"{model.name} has no input or output price in the table (its source gave none): "
            "only its tokens are shown."
        )
    low = min(priced, key=priced.get)  # type: ignore[arg-type]
    high = max(priced, key=priced.get)  # type: ignore[arg-type]
    if low == high:
        return f"At {model.name}'s prices the task costs ${priced[low]:.4f}."
    return (
        f"At {model.name}'s prices {low} costs ${priced[low]:.4f} for the task and {high} "
        f"${priced[high]:.4f}."
    )
