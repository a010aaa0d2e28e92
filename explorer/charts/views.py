"""Altair chart builders: a data frame in, an ``alt.Chart`` out, so tests can read the spec.

Every chart titles its axes, has a legend for its colours (fates always in the same colours, see
:mod:`explorer.theme`) and a tooltip. Tooltips show message previews as text: vega-tooltip (the
handler Streamlit's Vega embed uses) escapes ``&`` and ``<`` in every value by default.
"""

from __future__ import annotations

import math

import altair as alt
import pandas as pd

from explorer.frames.views import WATERFALL_KINDS
from explorer.theme import (
    BUDGET_COLOUR,
    CUT_COLOUR,
    FATE_COLOURS,
    THRESHOLD_COLOUR,
    TOTAL_COLOUR,
    component_color,
    fate_color,
)

#: The name of the fate timeline's point selection (``event.selection[PICK]``).
PICK = "pick"
#: The fates a returned message can have.
SURVIVING = ("protected", "verbatim", "trimmed")
_TOPIC_COLOUR = "#5A5A5A"
#: The trim chart gives each trimmed message a row up to this many, a column beyond.
TRIM_ROWS = 30
#: Streamlit fits a chart's whole height (legends and axes included) by default, which squeezes
#: the plot of a chart with legends above and below; with "fit-x" a chart's height is its plot's.
_AUTOSIZE = alt.AutoSizeParams(type="fit-x", contains="padding")


def sized(chart: alt.TopLevelMixin, height: int | alt.Step) -> alt.TopLevelMixin:
    """``chart`` filling the container's width, its plot ``height`` tall."""
    return chart.properties(height=height, autosize=_AUTOSIZE)


def rule_line(value: float, label: str, axis: str = "x", colour: str = BUDGET_COLOUR) -> alt.Chart:
    """A dashed rule across the chart at ``value`` (budget, threshold, ...), named in a legend.

    The name sits in a legend below the axis, so it never covers a bar or a label, and never
    competes for the row of legends above the plot (a narrow chart would cut it off there).
    """
    data = pd.DataFrame({"value": [value], "label": [label]})
    position = alt.Y("value:Q") if axis == "y" else alt.X("value:Q")
    dash = alt.StrokeDash(
        "label:N",
        title=None,
        scale=alt.Scale(domain=[label], range=[[6, 4]]),
        legend=alt.Legend(
            orient="bottom",
            symbolType="stroke",
            symbolStrokeColor=colour,
            symbolStrokeWidth=2,
            labelLimit=0,
        ),
    )
    return (
        alt.Chart(data)
        .mark_rule(color=colour, strokeWidth=2)
        .encode(position, strokeDash=dash, tooltip=[alt.Tooltip("label:N", title="Line")])
    )


def fate_timeline(frame: pd.DataFrame, height: int = 260, selectable: bool = True) -> alt.Chart:
    """Every input message in order, a bar as tall as its characters, coloured by its fate.

    With ``selectable``, clicking a bar selects it (point selection :data:`PICK` on ``index``)
    and outlines it.
    """
    tooltip = [
        alt.Tooltip("message:N", title="Message"),
        alt.Tooltip("role:N", title="Role"),
        alt.Tooltip("fate:N", title="Fate"),
        alt.Tooltip("reasons:N", title="Protected because"),
        alt.Tooltip("original_chars:Q", title="Characters in", format=","),
        alt.Tooltip("chars:Q", title="Characters out", format=","),
        alt.Tooltip("score_text:N", title="Score"),
        alt.Tooltip("preview:N", title="Text"),
    ]
    chart = (
        alt.Chart(frame)
        # only messages that reach the drop stage unprotected have a score ("null" otherwise)
        .transform_calculate(
            score_text="isValid(datum.score) ? format(datum.score, '.6~f') : 'not scored'"
        )
        .mark_bar()
        .encode(
            x=alt.X(
                "index:O",
                title="Message (input order)",
                axis=alt.Axis(labelAngle=0, labelOverlap="greedy"),
            ),
            y=alt.Y("original_chars:Q", title="Characters (input)"),
            color=fate_color(),
            tooltip=tooltip,
        )
    )
    chart = sized(chart, height)
    if selectable:
        pick = alt.selection_point(name=PICK, fields=["index"], on="click", empty=False)
        chart = chart.add_params(pick).encode(
            stroke=alt.condition(pick, alt.value("#000000"), alt.value(None)),
            strokeWidth=alt.condition(pick, alt.value(3), alt.value(0)),
        )
    return chart


def waterfall(frame: pd.DataFrame, budget: int, height: int = 260) -> alt.LayerChart:
    """Characters through the stages (input, dedupe, trim, drop, output), the budget as a rule.

    Each step's characters stand above its bar, over the budget rule with a white halo, so the
    rule never strikes a number through.
    """
    colours = [TOTAL_COLOUR, FATE_COLOURS["duplicate"], FATE_COLOURS["trimmed"]]
    colours.append(FATE_COLOURS["dropped"])
    order = list(frame.sort_values("order")["step"])
    base = alt.Chart(frame).encode(
        x=alt.X("step:N", sort=order, title="Stage", axis=alt.Axis(labelAngle=0))
    )
    bars = base.mark_bar(size=48).encode(
        y=alt.Y("low:Q", title="Characters"),
        y2="high:Q",
        color=alt.Color(
            "kind:N",
            title="Characters",
            scale=alt.Scale(domain=list(WATERFALL_KINDS), range=colours),
            legend=alt.Legend(orient="top"),
        ),
        tooltip=[
            alt.Tooltip("step:N", title="Stage"),
            alt.Tooltip("kind:N", title="What"),
            alt.Tooltip("chars:Q", title="Characters", format=","),
            alt.Tooltip("after:Q", title="Characters after", format=","),
        ],
    )
    label = {"dy": -8, "fontWeight": "bold", "baseline": "bottom"}
    position = {"y": alt.Y("high:Q"), "text": alt.Text("chars:Q", format=",")}
    halo = base.mark_text(stroke="#FFFFFF", strokeWidth=4, strokeJoin="round", **label)
    labels = base.mark_text(**label)
    rule = rule_line(budget, f"budget {budget:,}", "y")
    return sized(alt.layer(bars, rule, halo.encode(**position), labels.encode(**position)), height)


def _length_axis(frame: pd.DataFrame, budget: int, title: str) -> alt.X:
    """The character axis of a one-bar chart: room past the bar and the budget, so the rule and
    the last tick label are never on the chart's edge."""
    top = max([budget, *frame["end"]])
    return alt.X("start:Q", title=title, scale=alt.Scale(domainMax=math.ceil(top * 1.08)))


def output_against_budget(frame: pd.DataFrame, budget: int, height: int = 44) -> alt.LayerChart:
    """The output's characters by fate, protected first, in one bar against the budget rule."""
    bars = (
        alt.Chart(frame)
        .mark_bar(size=32)
        .encode(
            x=_length_axis(frame, budget, "Characters in the output"),
            x2="end:Q",
            y=alt.Y("row:N", title=None),
            color=fate_color(fates=SURVIVING),
            tooltip=[
                alt.Tooltip("fate:N", title="Fate"),
                alt.Tooltip("messages:Q", title="Messages"),
                alt.Tooltip("chars:Q", title="Characters", format=","),
            ],
        )
        .transform_calculate(row="'output'")
    )
    return sized(alt.layer(bars, rule_line(budget, f"budget {budget:,}", "x")), height)


def protected_against_budget(frame: pd.DataFrame, budget: int, height: int = 44) -> alt.LayerChart:
    """Each protected message as a segment of one bar, their total against the budget rule."""
    bars = (
        alt.Chart(frame)
        .mark_bar(size=32, stroke="#FFFFFF", strokeWidth=1)
        .encode(
            x=_length_axis(frame, budget, "Characters of the protected messages"),
            x2="end:Q",
            y=alt.Y("row:N", title=None),
            color=alt.Color(
                "fate:N",
                title="Fate",
                scale=alt.Scale(domain=["protected"], range=[FATE_COLOURS["protected"]]),
                legend=alt.Legend(orient="top"),
            ),
            tooltip=[
                alt.Tooltip("message:N", title="Message"),
                alt.Tooltip("role:N", title="Role"),
                alt.Tooltip("reasons:N", title="Protected because"),
                alt.Tooltip("chars:Q", title="Characters", format=","),
                alt.Tooltip("end:Q", title="Running total", format=","),
            ],
        )
        .transform_calculate(fate="'protected'", row="'protected'")
    )
    return sized(alt.layer(bars, rule_line(budget, f"budget {budget:,}", "x")), height)


def scores(
    parts: pd.DataFrame, line: float | None, by: str = "index", height: int = 260
) -> alt.LayerChart:
    """Stacked weighted components per scored message; dropped ones marked; the drop line.

    ``by`` orders the bars: ``"index"`` (input order) or ``"score"`` (the order drop removes
    them in).
    """
    # an explicit order: layers with different data would make Vega-Lite drop a sort by field
    order = parts.drop_duplicates("index").sort_values("drop_order" if by == "score" else "index")
    outline = len(order) <= 40  # outlines of many thin bars would hide their components
    x = alt.X(
        "message:N",
        sort=list(order["message"]),
        title="Message (unprotected, scored)",
        axis=alt.Axis(labelAngle=0, labelOverlap="greedy"),
    )
    bars = (
        alt.Chart(parts)
        .mark_bar()
        .encode(
            x=x,
            y=alt.Y("value:Q", title="Score (sum of weighted components)", stack="zero"),
            color=component_color(),
            order=alt.Order("stack:Q"),
            stroke=alt.condition(
                "datum.dropped", alt.value(FATE_COLOURS["dropped"]), alt.value(None)
            ),
            strokeWidth=alt.condition(
                "datum.dropped", alt.value(2 if outline else 0), alt.value(0)
            ),
            tooltip=[
                alt.Tooltip("message:N", title="Message"),
                alt.Tooltip("role:N", title="Role"),
                alt.Tooltip("component:N", title="Component"),
                alt.Tooltip("value:Q", title="Weighted part", format=".4f"),
                alt.Tooltip("score:Q", title="Score", format=".6~f"),
                alt.Tooltip("fate:N", title="Fate"),
            ],
        )
    )
    totals = parts.drop_duplicates("index")
    marks = (
        alt.Chart(totals[totals["dropped"]].assign(mark="dropped"))
        .mark_point(shape="triangle-down", filled=True, size=90, yOffset=-8)
        .encode(
            x=x,
            y=alt.Y("score:Q"),
            color=alt.Color(
                "mark:N",
                title="Marked",
                scale=alt.Scale(domain=["dropped"], range=[FATE_COLOURS["dropped"]]),
                legend=alt.Legend(orient="top"),
            ),
            tooltip=[
                alt.Tooltip("message:N", title="Dropped"),
                alt.Tooltip("score:Q", title="Score"),
            ],
        )
    )
    layers = [bars, marks]
    if line is not None:
        layers.append(rule_line(line, f"drop line {line:g}", "y", FATE_COLOURS["dropped"]))
    return sized(alt.layer(*layers).resolve_scale(color="independent"), height)


def topic_terms(frame: pd.DataFrame) -> alt.Chart:
    """The topic terms and how often each occurs in the whole history."""
    chart = (
        alt.Chart(frame)
        .mark_bar(color=_TOPIC_COLOUR)
        .encode(
            y=alt.Y(
                "term:N",
                sort=list(frame.sort_values("rank")["term"]),
                title="Topic term",
                axis=alt.Axis(labelOverlap=False),
            ),
            x=alt.X(
                "count:Q",
                title="Occurrences in the whole history",
                axis=alt.Axis(format="d", tickMinStep=1),
            ),
            tooltip=[
                alt.Tooltip("rank:Q", title="Rank"),
                alt.Tooltip("term:N", title="Term"),
                alt.Tooltip("count:Q", title="Occurrences", format=","),
            ],
        )
    )
    return sized(chart, 22 * len(frame))


def similarity(frame: pd.DataFrame, threshold: float, height: int = 240) -> alt.LayerChart:
    """Each message's best same-role similarity, coloured by fate, with the threshold as a rule.

    The message axis starts at message 0 and ends just past the last point, half a message of
    room on either side, so no tick names a message that cannot exist.
    """
    points = (
        alt.Chart(frame)
        .mark_circle(size=110, opacity=0.9)
        .encode(
            x=alt.X(
                "index:Q",
                title="Message (input order)",
                axis=alt.Axis(tickMinStep=1, format="d"),
                scale=alt.Scale(domain=[-0.5, int(frame["index"].max()) + 0.5], nice=False),
            ),
            y=alt.Y(
                "similarity:Q",
                title="Best same-role similarity",
                scale=alt.Scale(domain=[0, 1]),
            ),
            color=fate_color(),
            tooltip=[
                alt.Tooltip("message:N", title="Message"),
                alt.Tooltip("role:N", title="Role"),
                alt.Tooltip("nearest:Q", title="Closest earlier message"),
                alt.Tooltip("similarity:Q", title="Similarity", format=".3f"),
                alt.Tooltip("fate:N", title="Fate"),
                alt.Tooltip("preview:N", title="Text"),
            ],
        )
    )
    label = f"duplicate_threshold {threshold:g}"
    return sized(alt.layer(points, rule_line(threshold, label, "y", THRESHOLD_COLOUR)), height)


def trims(bars: pd.DataFrame, limit: int) -> alt.LayerChart:
    """Each trimmed message's kept and cut-off characters, with max_message_chars as a rule.

    Up to :data:`TRIM_ROWS` trimmed messages get a labelled row each; more get a column each in
    input order (as the fate timeline), so the chart stays one screen tall.
    """
    order = list(bars.drop_duplicates("index").sort_values("index")["message"])
    rows = len(order) <= TRIM_ROWS
    message = {"field": "message", "type": "nominal", "sort": order, "title": "Trimmed message"}
    length = {"field": "start", "type": "quantitative", "title": "Characters"}
    if rows:
        position = {"y": alt.Y(**message), "x": alt.X(**length), "x2": alt.X2("end:Q")}
    else:
        axis = alt.Axis(labelAngle=0, labelOverlap="greedy")
        position = {"x": alt.X(**message, axis=axis), "y": alt.Y(**length), "y2": alt.Y2("end:Q")}
    chart = (
        alt.Chart(bars)
        .mark_bar()
        .encode(
            **position,
            color=alt.Color(
                "part:N",
                title="Characters",
                scale=alt.Scale(
                    domain=["kept", "cut off"], range=[FATE_COLOURS["trimmed"], CUT_COLOUR]
                ),
                legend=alt.Legend(orient="top"),
            ),
            tooltip=[
                alt.Tooltip("message:N", title="Message"),
                alt.Tooltip("part:N", title="Part"),
                alt.Tooltip("chars:Q", title="Characters", format=","),
                alt.Tooltip("cut:N", title="Cut"),
            ],
        )
    )
    rule = rule_line(limit, f"max_message_chars {limit:,}", "x" if rows else "y")
    return sized(alt.layer(chart, rule), 30 * len(order) if rows else 260)
