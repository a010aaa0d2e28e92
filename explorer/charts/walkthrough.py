"""Charts of the Walkthrough page: the running total against the budget, every message's state."""

from __future__ import annotations

import altair as alt
import pandas as pd

from explorer.charts.views import rule_line, sized
from explorer.frames.walkthrough import UNDECIDED
from explorer.theme import FATE_COLOURS, FATES

#: A Vega expression that writes a boolean field as yes or no (a tooltip never says "true").
YES_NO = "datum.{field} ? 'yes' : 'no'"
#: The colour of an output line (characters, messages) against a parameter.
LINE_COLOUR = "#3B3B3B"
#: The diagonal "output = budget": light, dotted, never a fate colour.
DIAGONAL_COLOUR = "#9E9E9E"
#: A strategy's handling of a message, in the colours of the fates that mean the same.
KEPT_COLOURS = {
    "verbatim": FATE_COLOURS["verbatim"],
    "cut": FATE_COLOURS["trimmed"],
    "removed": FATE_COLOURS["dropped"],
}
#: A message the walkthrough has not decided yet (before drop): a neutral grey.
UNDECIDED_COLOUR = "#BDBDBD"
#: The walkthrough's running totals: steps done, the step shown, steps to come.
PHASE_COLOURS = {"done": "#9E9E9E", "this step": "#3B3B3B"}
#: Font sizes of the walkthrough's charts (read on a projector from the back of a room).
PROJECTOR_FONT = 15


# --- budget sweep ---------------------------------------------------------------------------

_STEP_TOOLTIP = [
    alt.Tooltip("budget:Q", title="From budget", format=","),
    alt.Tooltip("to_budget:Q", title="To budget", format=","),
    alt.Tooltip("output_chars:Q", title="Characters out", format=","),
    alt.Tooltip("output_messages:Q", title="Messages out", format=","),
    alt.Tooltip("dropped_messages:Q", title="Dropped", format=","),
    alt.Tooltip("met:N", title="Budget met"),
    alt.Tooltip("joins:N", title="Kept from this budget"),
]


def walk_totals(frame: pd.DataFrame, budget: int, height: int = 280) -> alt.LayerChart:
    """Characters present after each step reached so far, against the budget.

    Steps still to come keep their place on the axis but show nothing, so a class sees the total
    fall one stage at a time.
    """
    stages = list(frame.sort_values("order")["stage"])
    shown = frame[frame["reached"]]
    x = alt.X(
        "stage:N",
        sort=stages,
        title=None,
        scale=alt.Scale(domain=stages),
        axis=alt.Axis(labelAngle=0, labelOverlap=False),
    )
    phases = list(PHASE_COLOURS)
    bars = (
        alt.Chart(shown)
        .mark_bar()
        .encode(
            x=x,
            y=alt.Y("chars:Q", title="Characters present", axis=alt.Axis(format=",d")),
            color=alt.Color(
                "phase:N",
                title="Step",
                scale=alt.Scale(domain=phases, range=[PHASE_COLOURS[p] for p in phases]),
                legend=alt.Legend(orient="top"),
            ),
            tooltip=[
                alt.Tooltip("stage:N", title="After"),
                alt.Tooltip("chars:Q", title="Characters present", format=","),
                alt.Tooltip("change:Q", title="Change", format="+,"),
            ],
        )
    )
    labels = (
        alt.Chart(shown)
        .mark_text(dy=-12, fontSize=18, fontWeight="bold")
        .encode(x=x, y=alt.Y("chars:Q"), text=alt.Text("chars:Q", format=","))
    )
    rule = rule_line(budget, f"budget {budget:,}", axis="y")
    return _projected(sized(alt.layer(bars, labels, rule), height))


def _projected(chart: alt.LayerChart) -> alt.LayerChart:
    """Larger axis and legend text, for a chart shown on a projector."""
    size = PROJECTOR_FONT
    return chart.configure_axis(labelFontSize=size, titleFontSize=size).configure_legend(
        labelFontSize=size, titleFontSize=size
    )


def walk_messages(frame: pd.DataFrame, final: bool, height: int = 280) -> alt.LayerChart:
    """Every message after a step, coloured by its status: solid as far as it is still present,
    faded for what is gone (a removed message is all faded, a trimmed one above its cut).

    The messages this step acted on are outlined. Before drop an unprotected message still in
    is "not yet decided" (grey); after it, a kept one is verbatim.
    """
    names = list(FATES) if final else [UNDECIDED if f == "verbatim" else f for f in FATES]
    colours = [UNDECIDED_COLOUR if n == UNDECIDED else FATE_COLOURS[n] for n in names]
    x = alt.X(
        "index:O", title="Message (input order)", axis=alt.Axis(labelAngle=0, labelOverlap="greedy")
    )
    color = alt.Color(
        "status:N",
        title="Status",
        scale=alt.Scale(domain=names, range=colours),
        legend=alt.Legend(orient="top", title="Status", symbolOpacity=1),
    )
    tooltip = [
        alt.Tooltip("message:N", title="Message"),
        alt.Tooltip("role:N", title="Role"),
        alt.Tooltip("status:N", title="Status"),
        alt.Tooltip("original_chars:Q", title="Characters in", format=","),
        alt.Tooltip("chars:Q", title="Characters now", format=","),
        alt.Tooltip("action:N", title="This step"),
        alt.Tooltip("reason:N", title="Why"),
        alt.Tooltip("preview:N", title="Text"),
    ]
    base = alt.Chart(frame)
    whole = base.mark_bar(opacity=0.3).encode(
        x=x,
        y=alt.Y("original_chars:Q", title="Characters (input; solid: still present)"),
        color=color,
        stroke=alt.condition("datum.acted", alt.value("#000000"), alt.value(None)),
        strokeWidth=alt.condition("datum.acted", alt.value(2), alt.value(0)),
        tooltip=tooltip,
    )
    present = base.mark_bar().encode(x=x, y=alt.Y("chars:Q"), color=color, tooltip=tooltip)
    return _projected(sized(alt.layer(whole, present), height))
