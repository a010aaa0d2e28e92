"""Data frames of the A/B and Strategies pages, read from the engine's comparisons."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd
from pandas.io.formats.style import Styler

from compactor.analyses import ABComparison
from compactor.strategies import FocusResult, StrategyComparison
from explorer.frames.safe_text import markdown_literal
from explorer.session.conversation import PARAM_NAMES


def ab_frame(comparison: ABComparison) -> pd.DataFrame:
    """One row per message: its fate and characters under A and under B, and whether they differ."""
    rows = [
        {
            "index": m.index,
            "message": f"#{m.index}",
            "role": m.role,
            "original_chars": m.original_chars,
            "fate_a": m.fate_a,
            "chars_a": m.chars_a,
            "fate_b": m.fate_b,
            "chars_b": m.chars_b,
            "differs": m.differs,
            "fate_differs": m.fate_differs,
        }
        for m in comparison.messages
    ]
    columns = ["index", "message", "role", "original_chars", "fate_a", "chars_a", "fate_b"]
    return pd.DataFrame(rows, columns=[*columns, "chars_b", "differs", "fate_differs"])


def ab_long(comparison: ABComparison) -> pd.DataFrame:
    """The A/B fates in long form (one row per message and side), for a two-row strip."""
    rows = []
    for m in comparison.messages:
        for side, fate, chars in (("A", m.fate_a, m.chars_a), ("B", m.fate_b, m.chars_b)):
            rows.append(
                {
                    "side": side,
                    "index": m.index,
                    "message": f"#{m.index}",
                    "role": m.role,
                    "fate": fate,
                    "chars": chars,
                    "original_chars": m.original_chars,
                    "differs": m.differs,
                }
            )
    columns = ["side", "index", "message", "role", "fate", "chars", "original_chars", "differs"]
    return pd.DataFrame(rows, columns=columns)


AB_MEASURES = (
    ("output_chars", "Characters out"),
    ("output_messages", "Messages out"),
    ("removed_messages", "Messages removed (duplicate or dropped)"),
    ("trimmed_messages", "Messages trimmed"),
    ("truncated_chars", "Characters cut by trims"),
)


def yes_no(value: bool) -> str:
    return "yes" if value else "no"


def change_text(a: int, b: int, same: str = "same") -> str:
    """``b`` against ``a``: ``+120``, ``-95``, or ``same`` (the word for no change)."""
    return same if a == b else f"{b - a:+,}"


def ab_totals(
    comparison: ABComparison,
    anchors_lost: tuple[int, int] | None = None,
    pairs_split: tuple[int, int] | None = None,
) -> pd.DataFrame:
    """The totals of each side and how B differs from A, one row per measure, as text: numbers
    with thousands separators, whether the budget is met as yes or no (its change as same or
    changed); with ``anchors_lost`` and ``pairs_split`` (A's and B's), the anchors each side
    lost and the tool pairs it split (a call kept without its result, or a result without its
    call) too."""
    rows = []
    for name, label in AB_MEASURES:
        a, b = getattr(comparison.a, name), getattr(comparison.b, name)
        rows.append({"measure": label, "A": f"{a:,}", "B": f"{b:,}", "B vs A": change_text(a, b)})
    for label, found in (("Anchors lost", anchors_lost), ("Tool pairs split", pairs_split)):
        if found is not None:
            a, b = found
            rows.append(
                {"measure": label, "A": f"{a:,}", "B": f"{b:,}", "B vs A": change_text(a, b)}
            )
    a_met, b_met = comparison.a.budget_met, comparison.b.budget_met
    rows.append(
        {
            "measure": "Budget met",
            "A": yes_no(a_met),
            "B": yes_no(b_met),
            "B vs A": "same" if a_met == b_met else "changed",
        }
    )
    return pd.DataFrame(rows, columns=["measure", "A", "B", "B vs A"])


def param_text(name: str, value: Any) -> str:
    if name == "keep_roles":
        return ", ".join(value) or "(none)"
    if name == "duplicate_threshold":
        return f"{float(value):g}"
    return f"{int(value):,}"


def param_rows(a: Mapping[str, Any], b: Mapping[str, Any]) -> pd.DataFrame:
    """The two parameter sets side by side, the changed ones flagged."""
    rows = [
        {
            "parameter": name,
            "A": param_text(name, a[name]),
            "B": param_text(name, b[name]),
            "changed": param_text(name, a[name]) != param_text(name, b[name]),
        }
        for name in PARAM_NAMES
    ]
    return pd.DataFrame(rows, columns=["parameter", "A", "B", "changed"])


# --- strategies -----------------------------------------------------------------------------


def strategy_totals(comparison: StrategyComparison) -> pd.DataFrame:
    """One row per strategy: what it returns in characters, estimated tokens and messages."""
    rows = [
        {
            "key": o.key,
            "strategy": o.name,
            "available": o.available,
            "output_chars": o.output_chars,
            "tokens_estimate": o.tokens_estimate,
            "output_messages": o.output_messages,
            "cut_messages": o.cut_messages,
            "budget_met": o.budget_met,
            "how": o.how if o.available else o.unavailable,
        }
        for o in comparison.results
    ]
    columns = ["key", "strategy", "available", "output_chars", "tokens_estimate"]
    frame = pd.DataFrame(rows, columns=[*columns, "output_messages", "cut_messages", "budget_met"])
    frame["how"] = [r["how"] for r in rows]
    return frame.astype(
        {
            "output_chars": "Int64",
            "tokens_estimate": "Int64",
            "output_messages": "Int64",
            "cut_messages": "Int64",
            "budget_met": "boolean",
        }
    )


def strategy_settings(totals: pd.DataFrame) -> Styler:
    """How each strategy of :func:`strategy_totals` was run, for ``st.table`` (which wraps, and
    renders Markdown: the settings are made literal)."""
    frame = totals[["strategy", "how"]].rename(columns={"strategy": "Strategy", "how": "How"})
    return frame.style.format(markdown_literal)


def strategy_messages(comparison: StrategyComparison) -> pd.DataFrame:
    """One row per input message: what each strategy that ran returns of it, and its characters."""
    available = [o for o in comparison.results if o.available]
    rows = []
    for row in comparison.rows():
        k = row["index"]
        out = {
            "index": k,
            "message": f"#{k}",
            "role": row["role"],
            "original_chars": row["original_chars"],
        }
        for o in available:
            out[o.key] = row[o.key]
            out[f"{o.key} chars"] = o.messages[k].chars
        rows.append(out)
    columns = ["index", "message", "role", "original_chars"]
    for o in available:
        columns += [o.key, f"{o.key} chars"]
    return pd.DataFrame(rows, columns=columns)


def strategy_long(comparison: StrategyComparison) -> pd.DataFrame:
    """What each strategy that ran keeps of each message, in long form, for a grid."""
    rows = [
        {
            "strategy": o.name,
            "index": m.index,
            "message": f"#{m.index}",
            "role": m.role,
            "kept": m.kept,
            "chars": m.chars,
            "original_chars": m.original_chars,
        }
        for o in comparison.results
        if o.available
        for m in o.messages
    ]
    columns = ["strategy", "index", "message", "role", "kept", "chars", "original_chars"]
    return pd.DataFrame(rows, columns=columns)


def strategy_runs(long: pd.DataFrame, bins: int = 100) -> pd.DataFrame:
    """:func:`strategy_long` in at most ``bins`` runs of consecutive messages per strategy, for
    a long conversation: each cell a run, its ``kept`` what most of its messages got, ``counts``
    how many got each, the characters summed (every message counted once)."""
    columns = ["strategy", "index", "message", "kept", "counts", "chars", "original_chars"]
    if long.empty:
        return pd.DataFrame(columns=columns)
    count = int(long["index"].max()) + 1
    width = -(-count // bins)
    # one pass over the rows (a pandas group per cell cost a millisecond each: 1,200 cells for
    # twelve strategies); the cells in the order they first occur, each one's kinds counted
    # in the order they first occur, the most frequent first (ties: the first seen), as
    # ``value_counts`` orders them
    cells: dict[tuple[str, int], list] = {}
    columns_of = [
        long[c].tolist() for c in ("strategy", "index", "kept", "chars", "original_chars")
    ]
    for strategy, index, kept, chars, original in zip(*columns_of, strict=True):
        key = (strategy, index // width * width)
        cell = cells.get(key)
        if cell is None:
            cell = cells[key] = [{}, 0, 0]
        cell[0][kept] = cell[0].get(kept, 0) + 1
        cell[1] += chars
        cell[2] += original
    rows = []
    for (strategy, first), (tally, chars, original) in cells.items():
        kinds = sorted(tally.items(), key=lambda kind: -kind[1])
        rows.append(
            {
                "strategy": strategy,
                "index": int(first),
                "message": f"#{first} to #{min(int(first) + width - 1, count - 1)}",
                "kept": str(kinds[0][0]),
                "counts": ", ".join(f"{n} {kind}" for kind, n in kinds),
                "chars": int(chars),
                "original_chars": int(original),
            }
        )
    return pd.DataFrame(rows, columns=columns)


def strategy_order(comparison: StrategyComparison) -> list[str]:
    """The names of the strategies that ran, in the order they are compared."""
    return [o.name for o in comparison.results if o.available]


def focus_ab_frame(a: FocusResult, b: FocusResult) -> pd.DataFrame:
    """One row per message: what focus did with it under A's parameters and under B's (kept,
    cut or removed, and the characters), whether they differ, and the focus terms it matched
    under either."""
    rows = []
    for ma, mb in zip(a.messages, b.messages, strict=True):
        matched = dict.fromkeys([t for t, _ in ma.matched] + [t for t, _ in mb.matched])
        rows.append(
            {
                "message": f"#{ma.index}",
                "role": ma.role,
                "focus_a": ma.kept,
                "chars_a": ma.chars,
                "focus_b": mb.kept,
                "chars_b": mb.chars,
                "differs": ma.spans != mb.spans,
                "terms": ", ".join(list(matched)[:8]),
            }
        )
    columns = ["message", "role", "focus_a", "chars_a", "focus_b", "chars_b", "differs", "terms"]
    return pd.DataFrame(rows, columns=columns)
