"""The Overview's parts (app.py): what the page shows and what to try, the headline figures,
what each stage did, the output against the budget, every message's fate, and the offer to pin
the task."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from compactor import CompactionResult, formats
from compactor.analyses.anchors import AnchorReport
from compactor.analyses.outcomes import ContinuationCheck
from compactor.wording import points
from explorer import navigation
from explorer.charts import views as charts
from explorer.frames import anchors as anchor_frames
from explorer.frames import stages as stage_frames
from explorer.frames import views
from explorer.frames.safe_text import markdown_literal
from explorer.session import cache, edits, state
from explorer.widgets import common, tuning
from explorer.widgets import tokens as token_widgets

#: The headline's column widths: the budget can read "short by 46,662".
HEADLINE_WIDTHS = (1, 1, 1, 1.6, 1)


@dataclass(frozen=True)
class Metric:
    """One headline figure, as ``st.metric`` takes it."""

    label: str
    value: str
    delta: str | None = None
    delta_color: str = "normal"
    delta_arrow: str = "auto"


def introduction(label: str, response: dict[str, Any]) -> str:
    """Two sentences for the landing page: what the user is looking at, and what to try."""
    loss = response["loss"]
    return (
        f"You are looking at how memory-compact compacted “{label}” "
        f"({loss['input_messages']:,} messages, {loss['input_chars']:,} characters) against a "
        f"budget of {response['budget']['budget_chars']:,} characters: what each of its four "
        "stages (pin, dedupe, trim, drop) removed, and the fate of every message. "
        "Try moving budget_chars in the sidebar, step through the stages one at a time on the "
        "Walkthrough page, or load your own conversation on the Conversation page."
    )


def introduce(response: dict[str, Any]) -> None:
    """The landing page's two sentences (the label is the explorer's own words, made literal)."""
    st.markdown(markdown_literal(introduction(state.conversation().label, response)))


def metrics(response: dict[str, Any]) -> tuple[Metric, ...]:
    """The headline figures of a compact response: characters and messages out, the share of
    characters kept, the budget (met, or short by how much) and the protected characters."""
    loss, budget = response["loss"], response["budget"]
    met, exceeds = budget["budget_met"], budget["protected_exceeds_budget"]
    return (
        Metric(
            "Characters out",
            f"{loss['output_chars']:,}",
            f"-{loss['input_chars'] - loss['output_chars']:,} of {loss['input_chars']:,}",
            delta_color="off",
        ),
        Metric(
            "Messages out",
            f"{loss['output_messages']:,}",
            f"-{loss['dropped_messages']:,} of {loss['input_messages']:,}",
            delta_color="off",
        ),
        Metric("Retained characters", f"{loss['retained_char_ratio']:.2%}"),
        Metric(
            "Budget",
            "met" if met else f"short by {budget['shortfall_chars']:,}",
            f"{budget['output_chars']:,} of {budget['budget_chars']:,}",
            delta_color="green" if met else "red",
            delta_arrow="off",
        ),
        Metric(
            "Protected characters",
            f"{budget['protected_chars']:,}",
            "exceed the budget" if exceeds else "within the budget",
            delta_color="red" if exceeds else "off",
            delta_arrow="off",
        ),
    )


def protected_warning(budget: dict[str, Any]) -> str | None:
    """Why the budget cannot be met when the protected messages alone exceed it; else None."""
    if not budget["protected_exceeds_budget"]:
        return None
    return (
        f"The protected messages alone hold {budget['protected_chars']:,} characters, "
        f"more than the budget of {budget['budget_chars']:,}: every unprotected message "
        "is dropped and the budget cannot be met."
    )


def headline(response: dict[str, Any]) -> None:
    """The headline figures in a row, and the warning when the budget cannot be met."""
    for column, metric in zip(st.columns(HEADLINE_WIDTHS), metrics(response), strict=True):
        column.metric(
            metric.label,
            metric.value,
            metric.delta,
            delta_color=metric.delta_color,
            delta_arrow=metric.delta_arrow,
        )
    warning = protected_warning(response["budget"])
    if warning is not None:
        st.warning(warning, icon=":material/warning:")


def unpinned_task(result: CompactionResult, task: int | None) -> int | None:
    """The task (the first user message a person wrote) when it is not protected."""
    if task is None or result.messages[task].protected:
        return None
    return task


def task_said(messages: Sequence[Mapping[str, Any]], task: int) -> str:
    """How the task is named: the first user message, or the first after the host's preamble
    (the user messages before it, and who wrote them)."""
    before = [
        formats.preamble_of(str(m.get("content") or ""))
        for m in messages[:task]
        if m.get("role") == "user"
    ]
    if not before:
        return f"The first user message (#{task}), the task in most agent runs,"
    hosts = ", ".join(dict.fromkeys(who for who in before if who))
    return f"The task (#{task}, the first user message after {hosts})"


def pin_the_task(result: CompactionResult) -> None:
    """One click keeps the task: pin it when it is not protected."""
    conversation = state.conversation()
    first = unpinned_task(result, edits.task_index(conversation))
    if first is None:
        return
    fate = result.messages[first].fate.value
    left, right = st.columns([3, 1], vertical_alignment="center")
    left.info(
        f"{task_said(conversation.messages, first)} is not protected: it is {fate} now.",
        icon=":material/flag:",
    )
    right.button(
        f"Keep the task (#{first})",
        key="pin_first_user",
        on_click=edits.set_pin,
        args=(first, True),
        icon=":material/keep:",
        width="stretch",
    )


def anchors_caption(report: AnchorReport) -> str | None:
    """How many anchors were kept and what each stage did to them; None without anchors."""
    if not report.anchors:
        return None
    return (
        f"Anchors (ids, numbers, dates, paths): {report.kept_count:,} of "
        f"{len(report.anchors):,} kept; " + "; ".join(anchor_frames.stage_sentences(report)) + "."
    )


def stages(result: CompactionResult) -> None:
    """What each stage did: the stage table (in tokens too when the sidebar counts them), the
    anchors it kept, and every message a stage acted on."""
    # A static table, so a long "which" wraps instead of being cut at the column's edge.
    # st.table renders Markdown: it holds the explorer's own words only, made literal.
    encoding = state.token_encoding()
    tokens = None if encoding is None else cache.tokens(state.conversation(), result, encoding)
    st.table(stage_frames.stage_table(result, tokens), hide_index=True)
    if tokens is not None:
        token_widgets.stage_table(tokens)
    caption = anchors_caption(cache.anchors(state.conversation(), result, tuning.watched_phrases()))
    if caption is not None:
        st.caption(caption)
        st.page_link(
            navigation.file_of("pages/anchors.py"),
            label="See every anchor",
            icon=":material/anchor:",
        )
    acted = stage_frames.stage_messages(result)
    if len(acted):
        with st.expander(f"Every message a stage acted on ({len(acted):,})"):
            common.table(
                acted.drop(columns=["index"]),
                height=min(420, 38 + 35 * len(acted)),
                column_config={
                    "stage": st.column_config.TextColumn("Stage", width="small"),
                    "message": st.column_config.TextColumn("Message", width="small"),
                    "role": st.column_config.TextColumn("Role", width="small"),
                    "what": st.column_config.TextColumn("What the stage did", width="large"),
                },
            )


def fate_counts(result: CompactionResult) -> None:
    """Messages and characters in and out per fate."""
    common.table(
        views.fate_counts(result),
        column_config={
            "fate": "Fate",
            "messages": "Messages",
            "input_chars": st.column_config.NumberColumn("Characters in", format="localized"),
            "output_chars": st.column_config.NumberColumn("Characters out", format="localized"),
        },
    )


def fate_timeline(result: CompactionResult) -> None:
    """Every message's fate in a strip, with the legend and a link to the full timeline."""
    common.fate_legend()
    frame = views.fate_frame(result)
    if len(frame) <= views.TIMELINE_WINDOW:
        st.altair_chart(charts.fate_timeline(frame, height=260, selectable=False), width="stretch")
    else:  # a bar per message would be hairlines: runs of messages, said as such
        strip = views.fate_strip(frame)
        width = int(strip["last"].iloc[0]) + 1
        st.altair_chart(charts.fate_strip(strip, None, height=200), width="stretch")
        st.caption(
            f"{len(frame):,} messages in runs of {width:,} consecutive messages, each run's "
            "characters stacked by fate; the fate timeline draws each message."
        )
    st.page_link(
        navigation.file_of("pages/timeline.py"),
        label="Open a message in the fate timeline",
        icon=":material/arrow_forward:",
    )


def recommend_when_below(check: ContinuationCheck) -> None:
    """When the current setting keeps fewer needs than keep-last (its judge: needed-later
    recall), say so and offer the Recommend page."""
    if check.lift is None or check.lift >= 0:
        return
    st.info(  # an offer, not a fault: the first screen's sample may be below keep-last
        f"This setting keeps fewer of the needs than keep-last ({points(check.lift)} "
        "needed-later recall): Recommend searches the strategies and their parameters for one "
        "that does better, checked on cut points it did not tune on.",
        icon=":material/trending_down:",
    )
    st.page_link(
        navigation.file_of("pages/recommend.py"), label="Recommend", icon=":material/auto_awesome:"
    )
