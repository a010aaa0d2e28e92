"""Data frames for the Walkthrough page, read from the engine's walkthrough: what each step did."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from compactor.analyses.walkthrough import Step, Walkthrough
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


def step_option(step: Step) -> str:
    """``2 · Dedupe``: a step as a button label."""
    return f"{step.order} · {step.stage.capitalize()}"
