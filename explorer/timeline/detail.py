"""One message in detail: its fate and why, its score, its nearest duplicate, its trim, its text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from compactor import CompactionResult, MessageTrace, contract
from compactor.analyses import BUDGET_RANGE, Survival
from explorer.frames import anchors as anchor_frames
from explorer.frames import safe_text, views
from explorer.frames import sweeps as sweep_frames
from explorer.frames import tokens as token_frames
from explorer.session import cache, edits, state
from explorer.theme import FATE_COLOURS
from explorer.widgets import common, tuning


def explain(trace: MessageTrace, result: CompactionResult) -> list[str]:
    """Plain sentences saying why a message has its fate, with the engine's numbers."""
    params = result.request.params
    n = len(result.messages)
    out: list[str] = []
    if trace.protected:
        reasons = [
            contract.pin_reason(r, trace.message.role, params.keep_last_n)
            for r in trace.protected_because
        ]
        out.append("Protected: " + "; ".join(reasons) + ". Never removed, trimmed or dropped.")
        return out
    out.append(f"Not protected (message {trace.index} of {n}, role {trace.message.role}).")
    removal = next((r for r in result.deduplication.removed if r.index == trace.index), None)
    if removal is not None:
        out.append(
            f"Removed by dedupe: its words overlap message #{removal.duplicate_of}'s by "
            f"{removal.similarity:.3f}, at or above duplicate_threshold "
            f"{params.duplicate_threshold:g}."
        )
        return out
    if trace.nearest is not None:
        out.append(
            f"Dedupe kept it: its closest earlier {trace.message.role} message, "
            f"#{trace.nearest.index}, overlaps by {trace.nearest.similarity:.3f}, below "
            f"{params.duplicate_threshold:g}."
        )
    if trace.cut is not None:
        out.append(
            f"Trimmed from {trace.cut.original_chars:,} to {trace.cut.chars:,} characters "
            f"({'at a sentence end' if trace.cut.kind == 'sentence' else 'a hard cut'}; "
            f"max_message_chars {params.max_message_chars:,})."
        )
    if trace.drop is not None:
        d = trace.drop
        out.append(
            f"Dropped as number {d.rank} (score {d.score:g}): the messages present held "
            f"{d.total_before:,} characters, over the budget of {params.budget_chars:,}; "
            f"{d.total_after:,} after it went."
        )
    elif trace.score is not None:
        out.append(
            f"Kept by drop: score {trace.score.value:g}; the budget held before drop reached it."
        )
    return out


def score_rows(trace: MessageTrace) -> pd.DataFrame:
    """A message's score components: raw value, weight and weighted part."""
    if trace.score is None:
        return pd.DataFrame(columns=["component", "value", "weighted"])
    s = trace.score
    parts = s.parts
    rows = [
        {"component": "recency", "value": s.recency, "weighted": parts["recency"]},
        {"component": "role weight", "value": s.role_weight, "weighted": parts["role"]},
        {
            "component": "topic overlap",
            "value": s.topic_overlap,
            "weighted": parts["topic_overlap"],
        },
        {"component": "score (rounded)", "value": None, "weighted": s.value},
    ]
    return pd.DataFrame(rows).astype({"value": "float64"})


def picked_index(selection: Mapping[str, Any] | None, name: str) -> int | None:
    """The message index an Altair point selection holds (``{name: [{"index": 3}]}``), if any."""
    if not selection:
        return None
    points = selection.get(name) or []
    for point in points:
        value = point.get("index") if isinstance(point, Mapping) else None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return int(value)
    return None


def follow_pick(picked: int | None, last: int | None) -> tuple[int | None, int | None]:
    """Whether a chart click should move the message picker: ``(new choice or None, new last)``.

    The chart keeps its selection across reruns, so only a click on a different bar (a pick
    that differs from the last one seen) moves the picker; choosing in the picker afterwards is
    not undone by the old click.
    """
    if picked is not None and picked != last:
        return picked, picked
    return None, picked


def next_choice(
    picked: int | None, last: int | None, current: int | None, options: list[int]
) -> tuple[int, int | None]:
    """The message to show and the pick to remember, after a rerun of the timeline.

    A new click in the chart wins; otherwise the picker keeps its message, or falls back to
    the first one when its message is gone (another conversation was loaded).
    """
    choice, last = follow_pick(picked, last)
    if choice in options:
        return choice, last
    return (current if current in options else options[0]), last


def option_label(frame: pd.DataFrame) -> dict[int, str]:
    """Picker labels, ``#3 · user · duplicate`` (no content: labels are not a place for it)."""
    return {
        int(row.index): f"#{row.index} · {row.role} · {row.fate}"
        for row in frame.itertuples(index=False)
    }


def text_height(text: str, lines: int = 14) -> int | str:
    """A fixed, scrolling height for a long text; short texts take the room they need."""
    return 340 if text.count("\n") + len(text) // 90 > lines else "content"


def fields_frame(message: Any) -> pd.DataFrame:
    """The message's own fields (id, role, pin) as a two-column table."""
    rows: Sequence[tuple[str, str]] = [
        ("role", message.role),
        ("id", message.id if message.id is not None else "(none)"),
        ("pin", "true" if message.pin else "false"),
        ("characters", f"{len(message.content):,}"),
    ]
    return pd.DataFrame(rows, columns=["field", "value"])


def pin_button(index: int, pinned: bool, key: str = "detail_pin") -> None:
    """Pin or unpin the message in the conversation itself (its ``pin``), and rerun."""
    st.button(
        f"Unpin message #{index}" if pinned else f"Pin message #{index}",
        key=f"{key}_{index}",
        on_click=edits.set_pin,
        args=(index, not pinned),
        icon=":material/keep_off:" if pinned else ":material/keep:",
        help="Changes the conversation: pin protects a message from every stage. The request "
        "JSON in the sidebar and the link show the change.",
    )


def token_metrics(result: CompactionResult, index: int) -> None:
    """The message's tokens in and out, and the estimate's error, when the sidebar counts them."""
    encoding = state.token_encoding()
    if encoding is None:
        return
    m = cache.tokens(state.conversation(), result, encoding).messages[index]
    st.metric(
        f"{encoding} tokens in",
        f"{m.tokens:,}",
        token_frames.estimate_note(m.estimate, m.tokens),
        delta_color="off",
        delta_arrow="off",
        help=f"Its content is {m.kind}; the estimate is ceil(characters / 4).",
    )
    st.metric(f"{encoding} tokens out", f"{m.returned_tokens:,}")


def draw(result: CompactionResult, index: int, survival: Survival | None = None) -> None:
    """The message's detail; with ``survival`` (its budget sweep entry), from which budget."""
    trace = result.messages[index]
    message = trace.message
    colour = FATE_COLOURS[trace.fate.value]
    st.html(
        f'<div style="border-left:6px solid {colour};padding:0.2rem 0 0.2rem 0.8rem;'
        f'font-size:1.25rem;font-weight:600">Message #{index} · {message.role} · '
        f'<span style="color:{colour}">{trace.fate.value}</span></div>'
    )
    for sentence in explain(trace, result):
        st.markdown(sentence)
    pin_button(index, message.pin)
    left, right = st.columns([1, 2], gap="large")
    with left:
        st.metric("Characters in", f"{trace.original_chars:,}")
        st.metric("Characters out", f"{trace.chars:,}")
        token_metrics(result, index)
        if survival is not None:
            st.markdown(f"**Budget**: {sweep_frames.survival_label(survival, BUDGET_RANGE)}")
        common.table(fields_frame(message))
        if trace.score is not None:
            st.caption("Score components (weighted parts add up to the score)")
            common.table(score_rows(trace))
        found = anchor_frames.message_anchor_frame(
            cache.anchors(state.conversation(), result, tuning.watched_phrases()), index
        )
        if len(found):
            st.caption(f"Anchors in this message ({len(found):,}): kept by this setting or not")
            common.table(found)
    with right:
        if trace.cut is not None:
            st.caption("Before and after the trim: kept text, then the cut-off rest struck through")
            st.html(safe_text.trimmed_html(message.content, trace.cut.chars, trace.cut.kind))
        else:
            st.caption("Full text")
            with st.container(height=text_height(message.content), border=True):
                st.text(message.content)
        if trace.nearest is not None:
            near = trace.nearest
            other = result.messages[near.index].message
            shared, _, _ = views.word_sets(result, index, near.index)
            st.caption(
                f"Closest earlier {message.role} message: #{near.index}, similarity "
                f"{near.similarity:.3f} (threshold {result.request.params.duplicate_threshold:g}); "
                "shared words highlighted"
            )
            st.html(safe_text.highlighted_html(other.content, shared, height=220))
