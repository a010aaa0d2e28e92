"""Charts of the Walkthrough page: the running total against the budget, every message's state.

Both are read on a projector from the back of a room: their text is :data:`PROJECTOR_FONT` on
the page, :data:`PRESENTATION_FONT` in presentation mode.
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from explorer.charts.layout import LABEL_GAP, clear_of_rule, labelled_top, rule_line, sized
from explorer.theme import FATE_COLOURS, FATES, INK, PHASE_COLOURS, UNDECIDED_COLOUR
from explorer.walkthrough.frames import UNDECIDED

#: Font size of the walkthrough's charts (axes, legends; the totals' labels are larger).
PROJECTOR_FONT = 15
#: And in presentation mode.
PRESENTATION_FONT = 22


def _label_size(font: int) -> int:
    return round(font * 1.2)


def walk_totals(
    frame: pd.DataFrame, budget: int, height: int = 280, font: int = PROJECTOR_FONT
) -> alt.LayerChart:
    """Characters present after each step reached so far, against the budget.

    Steps still to come keep their place on the axis but show nothing, so a class sees the total
    fall one stage at a time. Each total stands above its bar, or just above the budget rule
    where the rule would strike it through.
    """
    stages = list(frame.sort_values("order")["stage"])
    shown = frame[frame["reached"]]
    size = _label_size(font)
    top = labelled_top(frame["chars"], budget, height, size)
    shown = shown.assign(label_at=clear_of_rule(list(shown["chars"]), budget, top, height, size))
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
            y=alt.Y(
                "chars:Q",
                title="Characters present",
                axis=alt.Axis(format=",d"),
                scale=alt.Scale(domain=[0, top], nice=False),
            ),
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
        .mark_text(dy=-LABEL_GAP, baseline="bottom", fontSize=size, fontWeight="bold", color=INK)
        .encode(x=x, y=alt.Y("label_at:Q"), text=alt.Text("chars:Q", format=","))
    )
    rule = rule_line(budget, f"budget {budget:,}", axis="y")
    return _projected(sized(alt.layer(bars, labels, rule), height), font)


def _projected(chart: alt.LayerChart, font: int) -> alt.LayerChart:
    """Axis and legend text of ``font`` size, for a chart shown on a projector."""
    return chart.configure_axis(labelFontSize=font, titleFontSize=font).configure_legend(
        labelFontSize=font, titleFontSize=font, symbolSize=font * 8
    )


def walk_messages(
    frame: pd.DataFrame, final: bool, height: int = 280, font: int = PROJECTOR_FONT
) -> alt.LayerChart:
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
    whole = base.mark_bar(fillOpacity=0.3).encode(
        x=x,
        y=alt.Y("original_chars:Q", title="Characters (input; solid: still present)"),
        color=color,
        stroke=alt.condition("datum.acted", alt.value(INK), alt.value(None)),
        strokeWidth=alt.condition("datum.acted", alt.value(2), alt.value(0)),
        tooltip=tooltip,
    )
    present = base.mark_bar().encode(x=x, y=alt.Y("chars:Q"), color=color, tooltip=tooltip)
    return _projected(sized(alt.layer(whole, present), height), font)
