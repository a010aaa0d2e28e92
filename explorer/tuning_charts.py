"""Altair charts of the tuning pages: a data frame in, an ``alt.Chart`` out (see explorer.charts).

Fates keep their colours from :mod:`explorer.theme`; what a strategy keeps of a message
(verbatim, cut, removed) borrows the colours of the fates that mean the same (verbatim, trimmed,
dropped). Lines of the output are neutral; the current setting is a dashed rule named in a legend.
"""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import pandas as pd

from explorer.charts import rule_line, sized
from explorer.theme import FATE_COLOURS, FATES, TOTAL_COLOUR, fate_color
from explorer.walkthrough_views import UNDECIDED

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


def _budget_steps(frame: pd.DataFrame, current: int, field: str, title: str) -> list[alt.Chart]:
    """The step line of ``field`` over the frame's budgets, its points, the current budget."""
    x = alt.X(
        "budget:Q",
        title="budget_chars",
        scale=alt.Scale(
            domain=[int(frame["budget"].min()), int(frame["budget"].max())], nice=False
        ),
        axis=alt.Axis(format=",d"),
    )
    line = (
        alt.Chart(frame)
        .mark_line(interpolate="step-after", color=LINE_COLOUR, strokeWidth=2.5)
        .encode(x=x, y=alt.Y(f"{field}:Q", title=title, axis=alt.Axis(format=",d")))
    )
    points = (
        alt.Chart(frame[~frame["end"]])
        .transform_calculate(met=YES_NO.format(field="budget_met"))
        .mark_point(filled=True, size=45, color=LINE_COLOUR)
        .encode(x=x, y=alt.Y(f"{field}:Q"), tooltip=_STEP_TOOLTIP)
    )
    return [line, points, rule_line(current, f"current budget {current:,}")]


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
    x = alt.X(
        "threshold:Q", title="duplicate_threshold", scale=alt.Scale(domain=[0.5, 1.0], nice=False)
    )
    line = (
        alt.Chart(frame)
        .mark_line(interpolate="step-before", color=LINE_COLOUR, strokeWidth=2.5)
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
        .mark_point(filled=True, size=45, color=LINE_COLOUR)
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
    rule = rule_line(current, f"current duplicate_threshold {current:g}")
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
        .mark_line(interpolate="step-after", color=LINE_COLOUR, strokeWidth=2.5)
        .encode(
            x=x, y=alt.Y("cut_chars:Q", title="Characters cut by trim", axis=alt.Axis(format=",d"))
        )
    )
    hover = alt.selection_point(
        name="trim_hover", nearest=True, on="pointerover", fields=["max_message_chars"], empty=False
    )
    points = (
        alt.Chart(shown)
        .mark_point(filled=True, size=70, color=LINE_COLOUR)
        .encode(
            x=x,
            y=alt.Y("cut_chars:Q"),
            opacity=alt.condition(hover, alt.value(1), alt.value(0)),
            tooltip=tooltip,
        )
        .add_params(hover)
    )
    rule = rule_line(current, f"current max_message_chars {current:,}")
    return sized(alt.layer(line, points, rule), height)


# --- A/B and strategies ---------------------------------------------------------------------


def _strip(
    frame: pd.DataFrame,
    row_field: str,
    row_title: str,
    rows: Sequence[str],
    color: alt.Color,
    tooltip: list,
    outline: str | None = None,
) -> alt.Chart:
    """Messages along x, one row per side or strategy, each cell coloured; with ``outline``,
    the cells whose boolean field of that name is true are outlined (and its tooltip field
    ``<outline>_text`` says yes or no)."""
    encoding = {
        "x": alt.X(
            "index:O",
            title="Message (input order)",
            scale=alt.Scale(paddingInner=0.08),  # a hairline between neighbours of one colour
            axis=alt.Axis(labelAngle=0, labelOverlap="greedy"),
        ),
        "y": alt.Y(
            f"{row_field}:N",
            title=row_title,
            sort=list(rows),
            scale=alt.Scale(paddingInner=0.12),
            axis=alt.Axis(labelLimit=260),
        ),
        "color": color,
        "tooltip": tooltip,
    }
    if outline:
        encoding["stroke"] = alt.condition(
            f"datum.{outline}", alt.value("#000000"), alt.value(None)
        )
        encoding["strokeWidth"] = alt.condition(f"datum.{outline}", alt.value(2), alt.value(0))
    chart = alt.Chart(frame)
    if outline:
        chart = chart.transform_calculate(**{f"{outline}_text": YES_NO.format(field=outline)})
    # square cells: rounded corners leave a white dot wherever four cells meet
    return sized(chart.mark_rect().encode(**encoding), alt.Step(34))


def ab_strip(frame: pd.DataFrame) -> alt.Chart:
    """Each message's fate under A and under B; the messages that differ outlined."""
    return _strip(
        frame,
        "side",
        "Parameters",
        ["A", "B"],
        fate_color(),
        [
            alt.Tooltip("message:N", title="Message"),
            alt.Tooltip("side:N", title="Side"),
            alt.Tooltip("role:N", title="Role"),
            alt.Tooltip("fate:N", title="Fate"),
            alt.Tooltip("original_chars:Q", title="Characters in", format=","),
            alt.Tooltip("chars:Q", title="Characters out", format=","),
            alt.Tooltip("differs_text:N", title="Differs"),
        ],
        outline="differs",
    )


def kept_color(title: str = "Kept") -> alt.Color:
    names = list(KEPT_COLOURS)
    return alt.Color(
        "kept:N",
        title=title,
        scale=alt.Scale(domain=names, range=[KEPT_COLOURS[n] for n in names]),
        legend=alt.Legend(orient="top", title=title),
    )


def strategy_strip(frame: pd.DataFrame, order: Sequence[str]) -> alt.Chart:
    """What each strategy keeps of each message: verbatim, cut or removed."""
    return _strip(
        frame,
        "strategy",
        "Strategy",
        order,
        kept_color(),
        [
            alt.Tooltip("strategy:N", title="Strategy"),
            alt.Tooltip("message:N", title="Message"),
            alt.Tooltip("role:N", title="Role"),
            alt.Tooltip("kept:N", title="Kept"),
            alt.Tooltip("original_chars:Q", title="Characters in", format=","),
            alt.Tooltip("chars:Q", title="Characters out", format=","),
        ],
    )


def strategy_totals(frame: pd.DataFrame, budget: int, height: int = 180) -> alt.LayerChart:
    """Each strategy's output characters against the shared budget."""
    shown = frame[frame["available"]].astype({"output_chars": "int64", "tokens_estimate": "int64"})
    bars = (
        alt.Chart(shown)
        .mark_bar(color=TOTAL_COLOUR, size=28)
        .encode(
            y=alt.Y(
                "strategy:N",
                title=None,
                sort=list(shown["strategy"]),
                axis=alt.Axis(labelLimit=260),
            ),
            x=alt.X("output_chars:Q", title="Characters out", axis=alt.Axis(format=",d")),
            tooltip=[
                alt.Tooltip("strategy:N", title="Strategy"),
                alt.Tooltip("output_chars:Q", title="Characters out", format=","),
                alt.Tooltip("tokens_estimate:Q", title="Tokens (estimate)", format=","),
                alt.Tooltip("output_messages:Q", title="Messages out"),
                alt.Tooltip("cut_messages:Q", title="Messages cut"),
            ],
        )
    )
    return sized(alt.layer(bars, rule_line(budget, f"budget {budget:,}")), height)


# --- walkthrough ----------------------------------------------------------------------------


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
