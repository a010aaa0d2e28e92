"""Charts of the Budget sweep and Sensitivity pages: a data frame in, an ``alt.Chart`` out.

Lines of the output are in ink (the page's text colour, see :mod:`explorer.theme`); the current
setting is a dashed rule named in a legend. The two budget charts stand one above the other with
y axes of one width, so their budget axes line up.
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from explorer.charts.layout import axis_extent, ink, rule_line, sized
from explorer.theme import DIAGONAL_COLOUR, TOTAL_COLOUR

#: A Vega expression that writes a boolean field as yes or no (a tooltip never says "true").
YES_NO = "datum.{field} ? 'yes' : 'no'"


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


def budget_axis_extent(frame: pd.DataFrame) -> int:
    """The y axis width of the budget charts (of a :func:`budget_steps_frame`), so that the
    charts stacked on the Budget sweep page line up."""
    return axis_extent(frame["output_chars"], frame["output_messages"])


def _budget_x(frame: pd.DataFrame) -> alt.X:
    """The budget axis of the sweep's charts: exactly the frame's budgets, so the charts align."""
    return alt.X(
        "budget:Q",
        title="budget_chars",
        scale=alt.Scale(
            domain=[int(frame["budget"].min()), int(frame["budget"].max())], nice=False
        ),
        axis=alt.Axis(format=",d"),
    )


def _budget_steps(frame: pd.DataFrame, current: int, field: str, title: str) -> list[alt.Chart]:
    """The step line of ``field`` over the frame's budgets, its points, the current budget.

    The y axis is as wide as the widest label of either budget chart (characters or messages).
    """
    extent = budget_axis_extent(frame)
    colour = ink(frame)
    x = _budget_x(frame)
    line = (
        alt.Chart(frame)
        .mark_line(interpolate="step-after", color=colour, strokeWidth=2.5)
        .encode(
            x=x,
            y=alt.Y(
                f"{field}:Q",
                title=title,
                axis=alt.Axis(format=",d", minExtent=extent, maxExtent=extent),
            ),
        )
    )
    points = (
        alt.Chart(frame[~frame["end"]])
        .transform_calculate(met=YES_NO.format(field="budget_met"))
        .mark_point(filled=True, size=45, color=colour)
        .encode(x=x, y=alt.Y(f"{field}:Q"), tooltip=_STEP_TOOLTIP)
    )
    return [line, points, rule_line(current, f"current budget {current:,}", colour=colour)]


def budget_chars(frame: pd.DataFrame, current: int, height: int = 260) -> alt.LayerChart:
    """Characters out against the budget (a step line), the line output = budget, the current.

    The diagonal stops a little above the largest output, so a budget far beyond the
    conversation does not flatten the steps.
    """
    layers = _budget_steps(frame, current, "output_chars", "Characters out")
    low = int(frame["budget"].min())
    top = min(int(frame["budget"].max()), max(low, int(frame["output_chars"].max() * 1.1)))
    diagonal = pd.DataFrame(
        {"budget": [low, top], "output_chars": [low, top], "label": ["output = budget"] * 2}
    )
    layers.insert(
        0,
        alt.Chart(diagonal)
        .mark_line(color=DIAGONAL_COLOUR, strokeDash=[2, 3], strokeWidth=1.5)
        .encode(
            x=alt.X("budget:Q"),
            y=alt.Y("output_chars:Q"),
            tooltip=[alt.Tooltip("label:N", title="Line")],
        ),
    )
    return sized(alt.layer(*layers), height)


def budget_messages(frame: pd.DataFrame, current: int, height: int = 200) -> alt.LayerChart:
    """Messages out against the budget (a step line) with the current budget."""
    layers = _budget_steps(frame, current, "output_messages", "Messages out")
    return sized(alt.layer(*layers), height)


#: The two lines of the retention chart, as its legend names them.
RETAINED = {"anchor_share": "anchors kept", "char_share": "characters out"}


def retention(
    frame: pd.DataFrame, current: int, extent: int | None = None, height: int = 240
) -> alt.LayerChart:
    """Anchors kept and characters out (shares of all anchors and of the input) against the
    budget, two step lines on one axis from 0 to 100%, and the current budget. ``extent`` is
    the y axis's width (:func:`budget_axis_extent`, to line up with the budget charts)."""
    colour = ink(frame)
    x = _budget_x(frame)
    lines = (
        alt.Chart(frame)
        .transform_fold(list(RETAINED), as_=["measure", "share"])
        .transform_calculate(line=f"{RETAINED}[datum.measure]".replace("'", '"'))
        .mark_line(interpolate="step-after", strokeWidth=2.5)
        .encode(
            x=x,
            y=alt.Y(
                "share:Q",
                title="Retained",
                axis=alt.Axis(format="%", minExtent=extent, maxExtent=extent),
                scale=alt.Scale(domain=[0, 1]),
            ),
            color=alt.Color(
                "line:N",
                title=None,
                scale=alt.Scale(domain=list(RETAINED.values()), range=[colour, TOTAL_COLOUR]),
                legend=alt.Legend(orient="top", symbolType="stroke", labelLimit=0),
            ),
        )
    )
    points = (
        alt.Chart(frame[~frame["end"]])
        .mark_point(filled=True, size=45, color=colour)
        .encode(
            x=x,
            y=alt.Y("anchor_share:Q"),
            tooltip=[
                alt.Tooltip("budget:Q", title="From budget", format=","),
                alt.Tooltip("to_budget:Q", title="To budget", format=","),
                alt.Tooltip("anchors_kept:Q", title="Anchors kept", format=","),
                alt.Tooltip("anchors:Q", title="Anchors", format=","),
                alt.Tooltip("anchor_share:Q", title="Anchors kept (share)", format=".0%"),
                alt.Tooltip("output_chars:Q", title="Characters out", format=","),
                alt.Tooltip("char_share:Q", title="Characters out (share)", format=".0%"),
            ],
        )
    )
    rule = rule_line(current, f"current budget {current:,}", colour=colour)
    return sized(alt.layer(lines, points, rule), height)


def survival_tooltip(chart: alt.Chart) -> alt.Chart:
    """The fate timeline with each message's survival budget added to its tooltip.

    The frame behind ``chart`` needs a ``kept_from`` column (:func:`tuning.with_survival`).
    """
    tooltip = list(chart.encoding.tooltip)
    extra = alt.Tooltip("kept_from:N", title="Budget")
    previews = [k for k, t in enumerate(tooltip) if str(t.shorthand).startswith("preview")]
    tooltip.insert(previews[0] if previews else len(tooltip), extra)
    return chart.encode(tooltip=tooltip)


# --- sensitivity sweeps ---------------------------------------------------------------------


def threshold_steps(frame: pd.DataFrame, current: float, height: int = 240) -> alt.LayerChart:
    """Duplicates removed against duplicate_threshold (a step line), the current threshold."""
    colour = ink(frame)
    x = alt.X(
        "threshold:Q", title="duplicate_threshold", scale=alt.Scale(domain=[0.5, 1.0], nice=False)
    )
    line = (
        alt.Chart(frame)
        .mark_line(interpolate="step-before", color=colour, strokeWidth=2.5)
        .encode(
            x=x,
            y=alt.Y(
                "removed_messages:Q",
                title="Messages removed by dedupe",
                axis=alt.Axis(tickMinStep=1, format="d"),
                # one above the most, so the highest step does not run along the plot's edge
                scale=alt.Scale(domain=[0, int(frame["removed_messages"].max()) + 1]),
            ),
        )
    )
    points = (
        alt.Chart(frame[~frame["start"]])
        .mark_point(filled=True, size=45, color=colour)
        .encode(
            x=x,
            y=alt.Y("removed_messages:Q"),
            tooltip=[
                alt.Tooltip("span:N", title="Threshold"),
                alt.Tooltip("removed_messages:Q", title="Messages removed"),
                alt.Tooltip("removed_chars:Q", title="Characters removed", format=","),
                alt.Tooltip("removed:N", title="Which"),
            ],
        )
    )
    rule = rule_line(current, f"current duplicate_threshold {current:g}", colour=colour)
    return sized(alt.layer(line, points, rule), height)


def trim_curve(frame: pd.DataFrame, current: int, height: int = 240) -> alt.LayerChart:
    """Characters cut by trim against max_message_chars (a step line over the frame's limits),
    the current limit; hovering shows the nearest point."""
    limits = frame["max_message_chars"]
    x = alt.X(
        "max_message_chars:Q",
        title="max_message_chars",
        scale=alt.Scale(domain=[int(limits.min()), int(limits.max())], nice=False),
        axis=alt.Axis(format=",d"),
    )
    shown = frame
    colour = ink(shown)  # thousands of limits: Streamlit draws this chart on a canvas
    tooltip = [
        alt.Tooltip("max_message_chars:Q", title="From max_message_chars", format=","),
        alt.Tooltip("cut_chars:Q", title="Characters cut", format=","),
        alt.Tooltip("trimmed_messages:Q", title="Messages trimmed"),
        alt.Tooltip("sentence_cuts:Q", title="Sentence cuts"),
        alt.Tooltip("hard_cuts:Q", title="Hard cuts"),
        alt.Tooltip("after_trim_chars:Q", title="Characters after trim", format=","),
    ]
    line = (
        alt.Chart(shown)
        .mark_line(interpolate="step-after", color=colour, strokeWidth=2.5)
        .encode(
            x=x, y=alt.Y("cut_chars:Q", title="Characters cut by trim", axis=alt.Axis(format=",d"))
        )
    )
    hover = alt.selection_point(
        name="trim_hover", nearest=True, on="pointerover", fields=["max_message_chars"], empty=False
    )
    points = (
        alt.Chart(shown)
        .mark_point(filled=True, size=70, color=colour)
        .encode(
            x=x,
            y=alt.Y("cut_chars:Q"),
            opacity=alt.condition(hover, alt.value(1), alt.value(0)),
            tooltip=tooltip,
        )
        .add_params(hover)
    )
    rule = rule_line(current, f"current max_message_chars {current:,}", colour=colour)
    return sized(alt.layer(line, points, rule), height)
