"""Data frames for the views, built from a CompactionResult: every number comes from the engine.

Chart data carries short previews of the contents, never whole messages (a 200 x 8,000-character
history would make every chart a megabyte); the full text is shown in detail views.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import pandas as pd

from compactor import CompactionResult, Fate
from compactor.contract import PIN_REASONS
from compactor.engine import CharTotals
from explorer.theme import FATES

PREVIEW_CHARS = 80
#: At most this many messages are named in one line of a summary.
LIST_LIMIT = 12
_SPACE = re.compile(r"\s+")


def preview(text: str, limit: int = PREVIEW_CHARS) -> str:
    """One line of at most ``limit`` characters (the last an ellipsis when cut) for charts."""
    head = text[: 4 * limit]  # enough unless the text is mostly whitespace (then read it all)
    flat = _SPACE.sub(" ", head).strip()
    if len(flat) <= limit and len(head) < len(text):
        flat = _SPACE.sub(" ", text).strip()
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def name_list(items: Sequence[str], limit: int = LIST_LIMIT) -> str:
    """``#1, #3 and #7``; long lists end with how many more there are."""
    if not items:
        return "none"
    shown = list(items[:limit])
    if len(items) > limit:
        return ", ".join(shown) + f" and {len(items) - limit:,} more"
    if len(shown) == 1:
        return shown[0]
    return ", ".join(shown[:-1]) + " and " + shown[-1]


def fate_frame(result: CompactionResult, preview_chars: int = PREVIEW_CHARS) -> pd.DataFrame:
    """One row per input message, in order: its fate and every number behind it."""
    rows = []
    for t in result.messages:
        rows.append(
            {
                "index": t.index,
                "message": f"#{t.index}",
                "role": t.message.role,
                "id": t.message.id,
                "fate": t.fate.value,
                "reasons": ", ".join(t.protected_because),
                "original_chars": t.original_chars,
                "chars": t.chars,
                "cut_chars": (t.cut.original_chars - t.cut.chars) if t.cut else 0,
                "cut": t.cut.kind if t.cut else "",
                "score": t.score.value if t.score else None,
                "drop_rank": t.drop.rank if t.drop else None,
                "nearest": t.nearest.index if t.nearest else None,
                "similarity": t.nearest.similarity if t.nearest else None,
                "preview": preview(t.message.content, preview_chars),
            }
        )
    frame = pd.DataFrame(rows)
    return frame.astype(
        {"score": "float64", "drop_rank": "Int64", "nearest": "Int64", "similarity": "float64"}
    )


#: The fate timeline draws a bar per message up to this many; a longer conversation is shown
#: in windows of this many bars (each wide enough to click), under a strip of the whole.
TIMELINE_WINDOW = 200
#: The whole-conversation strip above a windowed timeline has at most this many columns.
STRIP_BINS = 100


def window_start(count: int, around: int | None, size: int = TIMELINE_WINDOW) -> int:
    """The first message of the window of ``size`` that holds message ``around`` (from 0 in
    steps of half a window, so the picked message is never at an edge); 0 when it fits."""
    if count <= size or around is None:
        return 0
    half = max(1, size // 2)
    start = max(0, around - half // 2)
    if start >= count - size:
        return count - size  # the last window: the picked message is in it
    return (start // half) * half


def fate_strip(frame: pd.DataFrame, bins: int = STRIP_BINS) -> pd.DataFrame:
    """The whole conversation in at most ``bins`` runs of consecutive messages: each run's
    input characters per fate (rows ``first``, ``last``, ``fate``, ``messages``,
    ``original_chars``), every message counted once; the fate timeline's overview."""
    count = len(frame)
    columns = ["bin", "first", "last", "span", "fate", "messages", "original_chars"]
    if not count:
        return pd.DataFrame(columns=columns)
    width = -(-count // bins)
    binned = frame.assign(bin=frame["index"] // width)
    grouped = (
        binned.groupby(["bin", "fate"], sort=True)
        .agg(messages=("index", "size"), original_chars=("original_chars", "sum"))
        .reset_index()
    )
    grouped["first"] = grouped["bin"] * width
    grouped["last"] = (grouped["first"] + width - 1).clip(upper=count - 1)
    grouped["span"] = "#" + grouped["first"].astype(str) + " to #" + grouped["last"].astype(str)
    return grouped[columns]


def fate_counts(result: CompactionResult) -> pd.DataFrame:
    """Messages and characters per fate, every fate listed (zero when none)."""
    rows = []
    for fate in FATES:
        traces = [t for t in result.messages if t.fate.value == fate]
        rows.append(
            {
                "fate": fate,
                "messages": len(traces),
                "input_chars": sum(t.original_chars for t in traces),
                "output_chars": sum(t.chars for t in traces),
            }
        )
    return pd.DataFrame(rows)


WATERFALL_KINDS = ("total", "removed by dedupe", "cut by trim", "removed by drop")


def waterfall_frame(totals: CharTotals) -> pd.DataFrame:
    """Characters through the stages: input, what each stage took away, output."""
    steps = [
        ("Input", 0, totals.input, "total"),
        ("Dedupe", totals.after_dedupe, totals.input, "removed by dedupe"),
        ("Trim", totals.after_trim, totals.after_dedupe, "cut by trim"),
        ("Drop", totals.output, totals.after_trim, "removed by drop"),
        ("Output", 0, totals.output, "total"),
    ]
    rows = [
        {
            "step": step,
            "order": order,
            "low": low,
            "high": high,
            "chars": high - low,
            "kind": kind,
            "after": low if kind != "total" else high,
        }
        for order, (step, low, high, kind) in enumerate(steps)
    ]
    return pd.DataFrame(rows)


def output_frame(result: CompactionResult) -> pd.DataFrame:
    """The output's characters by fate (protected, verbatim, trimmed), for the budget bar."""
    rows = []
    start = 0
    for fate in (Fate.PROTECTED, Fate.VERBATIM, Fate.TRIMMED):
        chars = sum(t.chars for t in result.messages if t.fate is fate)
        count = sum(1 for t in result.messages if t.fate is fate)
        rows.append(
            {
                "fate": fate.value,
                "chars": chars,
                "messages": count,
                "start": start,
                "end": start + chars,
            }
        )
        start += chars
    return pd.DataFrame(rows)


# --- scores --------------------------------------------------------------------------------

COMPONENTS = {"recency": "recency", "role": "role", "topic_overlap": "topic overlap"}


def scores_frame(result: CompactionResult) -> pd.DataFrame:
    """Every scored message (unprotected, present at the drop stage), by index."""
    order = {index: rank for rank, index in enumerate(result.dropping.order, start=1)}
    rows = []
    for index, score in sorted(result.dropping.scores.items()):
        t = result.messages[index]
        parts = score.parts
        rows.append(
            {
                "index": index,
                "message": f"#{index}",
                "role": t.message.role,
                "recency": score.recency,
                "role_weight": score.role_weight,
                "topic_overlap": score.topic_overlap,
                "recency_part": parts["recency"],
                "role_part": parts["role"],
                "topic_part": parts["topic_overlap"],
                "score": score.value,
                "drop_order": order[index],
                "dropped": t.drop is not None,
                "drop_rank": t.drop.rank if t.drop else None,
                "fate": t.fate.value,
                "chars": t.chars if t.survived else (t.drop.chars if t.drop else 0),
            }
        )
    columns = [
        "index", "message", "role", "recency", "role_weight", "topic_overlap", "recency_part",
        "role_part", "topic_part", "score", "drop_order", "dropped", "drop_rank", "fate", "chars",
    ]  # fmt: skip
    return pd.DataFrame(rows, columns=columns).astype({"drop_rank": "Int64"})


def score_parts_frame(scores: pd.DataFrame) -> pd.DataFrame:
    """The weighted components in long form (one row per message and component), for stacking."""
    parts = {"recency_part": "recency", "role_part": "role", "topic_part": "topic overlap"}
    long = scores.melt(
        id_vars=["index", "message", "role", "score", "dropped", "fate", "drop_order"],
        value_vars=list(parts),
        var_name="part",
        value_name="value",
    )
    long["component"] = long["part"].map(parts)
    long["stack"] = long["component"].map({name: i for i, name in enumerate(parts.values())})
    return long.drop(columns="part").sort_values(["index", "stack"], ignore_index=True)


def drop_line(result: CompactionResult) -> float | None:
    """The highest score that was dropped: drop removed every message scored below it."""
    scores = [d.score for d in result.dropping.dropped]
    return max(scores) if scores else None


def topic_frame(result: CompactionResult) -> pd.DataFrame:
    """The topic terms with their counts, most frequent first."""
    rows = [
        {"rank": rank, "term": term, "count": count}
        for rank, (term, count) in enumerate(result.analysis.topic_terms, start=1)
    ]
    return pd.DataFrame(rows, columns=["rank", "term", "count"])


# --- protection ----------------------------------------------------------------------------

#: Protected-table columns of the pin rules (``role`` is already the message's role).
REASON_COLUMNS = {"pin": "by pin", "role": "by role", "recent": "by recency"}


def protected_frame(result: CompactionResult) -> pd.DataFrame:
    """The protected messages with their reasons, and the running total of their characters."""
    rows = []
    total = 0
    for t in result.messages:
        if not t.protected:
            continue
        total += t.original_chars
        row: dict[str, Any] = {"index": t.index, "message": f"#{t.index}", "role": t.message.role}
        row.update({REASON_COLUMNS[r]: r in t.protected_because for r in PIN_REASONS})
        row.update(
            {
                "reasons": ", ".join(t.protected_because),
                "chars": t.original_chars,
                "start": total - t.original_chars,
                "end": total,
                "preview": preview(t.message.content),
            }
        )
        rows.append(row)
    columns = ["index", "message", "role", *REASON_COLUMNS.values(), "reasons", "chars", "start"]
    columns.append("end")
    return pd.DataFrame(rows, columns=[*columns, "preview"])


def protection_counts(result: CompactionResult) -> dict[str, int]:
    """How many messages each rule protects (a message can count under several)."""
    return {
        reason: sum(reason in t.protected_because for t in result.messages)
        for reason in PIN_REASONS
    }


# --- duplicates ----------------------------------------------------------------------------


def similarity_frame(result: CompactionResult) -> pd.DataFrame:
    """Each message's best similarity to an earlier same-role message present when dedupe met it."""
    threshold = result.request.params.duplicate_threshold
    rows = []
    for t in result.messages:
        if t.nearest is None:
            continue
        rows.append(
            {
                "index": t.index,
                "message": f"#{t.index}",
                "role": t.message.role,
                "nearest": t.nearest.index,
                "similarity": t.nearest.similarity,
                "fate": t.fate.value,
                "protected": t.protected,
                "reaches_threshold": t.nearest.similarity >= threshold,
                "preview": preview(t.message.content),
            }
        )
    columns = ["index", "message", "role", "nearest", "similarity", "fate", "protected"]
    return pd.DataFrame(rows, columns=[*columns, "reaches_threshold", "preview"])


FIRST_OF_ROLE = "first of its role: nothing earlier to compare with"


def uncompared_frame(result: CompactionResult) -> pd.DataFrame:
    """The messages dedupe had nothing to compare with (the first of each role: the first is
    never removed, so every later message of its role has an earlier one present), with the
    reason, since the similarity chart has no point for them."""
    rows = [
        {
            "index": t.index,
            "message": f"#{t.index}",
            "role": t.message.role,
            "fate": t.fate.value,
            "reason": FIRST_OF_ROLE,
            "preview": preview(t.message.content),
        }
        for t in result.messages
        if t.nearest is None
    ]
    return pd.DataFrame(rows, columns=["index", "message", "role", "fate", "reason", "preview"])


def word_sets(result: CompactionResult, i: int, j: int) -> tuple[set[str], set[str], set[str]]:
    """Words shared by messages i and j, words only in i, words only in j (the engine's words)."""
    a = set(result.analysis.word_counts[i])
    b = set(result.analysis.word_counts[j])
    return a & b, a - b, b - a


# --- trims ---------------------------------------------------------------------------------


def trim_frame(result: CompactionResult) -> pd.DataFrame:
    """Every cut the trim stage made: kept and cut-off characters, where and how it cut."""
    limit = result.request.params.max_message_chars
    rows = []
    for c in result.trimming.cuts:
        t = result.messages[c.index]
        rows.append(
            {
                "index": c.index,
                "message": f"#{c.index}",
                "role": t.message.role,
                "original_chars": c.original_chars,
                "kept_chars": c.chars,
                "cut_chars": c.original_chars - c.chars,
                "cut": c.kind,
                "limit": limit,
                "fate": t.fate.value,
            }
        )
    columns = ["index", "message", "role", "original_chars", "kept_chars", "cut_chars", "cut"]
    return pd.DataFrame(rows, columns=[*columns, "limit", "fate"])


def trim_bars(trims: pd.DataFrame) -> pd.DataFrame:
    """Kept and cut-off characters of each trimmed message in long form, for a stacked bar."""
    rows = []
    for row in trims.itertuples(index=False):
        common = {"message": row.message, "index": row.index, "cut": row.cut}
        rows.append({**common, "part": "kept", "chars": row.kept_chars, "start": 0})
        rows[-1]["end"] = row.kept_chars
        rows.append({**common, "part": "cut off", "chars": row.cut_chars, "start": row.kept_chars})
        rows[-1]["end"] = row.original_chars
    return pd.DataFrame(rows, columns=["message", "index", "part", "chars", "start", "end", "cut"])


def split_at(content: str, keep: int) -> tuple[str, str]:
    """A trimmed message as (kept prefix, cut-off rest)."""
    return content[:keep], content[keep:]


def paginate(count: int, page: int, size: int) -> tuple[int, int, int]:
    """``(start, stop, pages)`` of page ``page`` (1-based, clamped) of ``count`` items."""
    pages = max(1, -(-count // size))
    page = min(max(1, page), pages)
    start = (page - 1) * size
    return start, min(count, start + size), pages
