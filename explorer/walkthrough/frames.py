"""Data frames for the Walkthrough page, read from the engine's walkthrough: what each step did."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from compactor.analyses import REMOVED, Step, StepEvent, Walkthrough
from explorer.frames.safe_text import markdown_literal
from explorer.frames.views import preview

# --- walkthrough ----------------------------------------------------------------------------

#: How the walkthrough names a message that is still in, unprotected and undecided.
UNDECIDED = "not yet decided"


def status_label(status: str, final: bool) -> str:
    """A message's status after a step, as the strip shows it.

    ``present`` is not a fate until drop has run: before that it is "not yet decided"; after
    the last step an unprotected message kept whole is, by the engine's definition, verbatim.
    """
    if status == "present":
        return "verbatim" if final else UNDECIDED
    return status


def walk_totals_frame(walk: Walkthrough, upto: int) -> pd.DataFrame:
    """Characters present at the start and after each step; the steps up to ``upto`` reached."""
    rows = [
        {
            "order": 0,
            "stage": "Input",
            "chars": walk.input_chars,
            "reached": True,
            "current": upto == 0,
            "change": 0,
        }
    ]
    for step in walk.steps:
        rows.append(
            {
                "order": step.order,
                "stage": step.stage.capitalize(),
                "chars": step.chars_after,
                "reached": step.order <= upto,
                "current": step.order == upto,
                "change": step.chars_after - step.chars_before,
            }
        )
    for row in rows:
        row["phase"] = "this step" if row["current"] else "done" if row["reached"] else "to come"
    columns = ["order", "stage", "chars", "reached", "current", "change", "phase"]
    return pd.DataFrame(rows, columns=columns)


def walk_messages_frame(step: Step, contents: Sequence[str], final: bool) -> pd.DataFrame:
    """Every message after ``step``: its status, characters, and what this step did to it."""
    acted = {e.index: e for e in step.events}
    rows = []
    for m in step.messages:
        event = acted.get(m.index)
        rows.append(
            {
                "index": m.index,
                "message": f"#{m.index}",
                "role": m.role,
                "status": status_label(m.status, final),
                "chars": m.chars,
                "original_chars": len(contents[m.index]),
                "acted": event is not None,
                "action": event.action if event else "",
                "reason": event.reason if event else "",
                "preview": preview(contents[m.index]),
            }
        )
    columns = ["index", "message", "role", "status", "chars", "original_chars", "acted"]
    return pd.DataFrame(rows, columns=[*columns, "action", "reason", "preview"])


def walk_events_frame(step: Step) -> pd.DataFrame:
    """What the step did, message by message, with the running character total after each."""
    rows = [
        {
            "message": f"#{e.index}",
            "role": e.role,
            "action": e.action,
            "why": e.reason,
            "chars_before": e.chars_before,
            "chars_after": e.chars_after,
            "total_after": e.total_after,
            "over_budget": e.total_after > step.budget,
        }
        for e in step.events
    ]
    columns = ["message", "role", "action", "why", "chars_before", "chars_after", "total_after"]
    return pd.DataFrame(rows, columns=[*columns, "over_budget"])


#: The events table as the presentation mode shows it (``st.table``): column titles in order.
EVENT_TITLES = {
    "message": "message",
    "role": "role",
    "action": "action",
    "why": "why",
    "chars_before": "before",
    "chars_after": "after",
    "total_after": "running total",
    "over_budget": "over budget",
}
#: Its columns of numbers (integers, shown with thousands separators).
EVENT_NUMBERS = ("before", "after", "running total")


def events_table(events: pd.DataFrame) -> pd.DataFrame:
    """:func:`walk_events_frame` for a static table (``st.table``, which renders Markdown):
    numbers stay integers (:data:`EVENT_NUMBERS`), "over" or nothing, every text cell literal.

    The cells hold the explorer's and the engine's words and numbers only (messages are named
    by number, never quoted), made literal all the same.
    """

    def cell(column: str, value: object) -> str:
        if column == "over_budget":
            return "over" if value else ""
        if column in ("chars_before", "chars_after", "total_after"):
            return int(value)
        return markdown_literal(str(value))

    rows = [
        {EVENT_TITLES[c]: cell(c, row[c]) for c in EVENT_TITLES}
        for row in events.to_dict("records")
    ]
    return pd.DataFrame(rows, columns=list(EVENT_TITLES.values()))


def dedupe_pairs(step: Step) -> list[StepEvent]:
    """The dedupe step's pairs: each message it removed (or spared, being protected) with the
    earlier message it matched, in the order dedupe met them."""
    return [e for e in step.events if e.other is not None]


def pair_sides(event: StepEvent) -> tuple[str, str]:
    """The captions over a pair's two texts: the earlier message, then the later one."""
    later = "removed" if event.action == REMOVED else "protected, so kept"
    return f"#{event.other}, earlier, still present", f"#{event.index}, {later}"


def step_option(step: Step) -> str:
    """``2 · Dedupe``: a step as a button label."""
    return f"{step.order} · {step.stage.capitalize()}"
