"""Altair chart builders: a data frame in, an ``alt.Chart`` out, so tests can read the spec.

Every chart titles its axes, has a legend for its colours (fates always in the same colours, see
:mod:`explorer.theme`) and a tooltip. Tooltips show message previews as text: vega-tooltip (the
handler Streamlit's Vega embed uses) escapes ``&`` and ``<`` in every value by default.
"""

from __future__ import annotations

import math

import altair as alt
import pandas as pd

from explorer.charts.layout import LABEL_GAP, clear_of_rule, labelled_top, rule_line, sized
from explorer.frames.views import WATERFALL_KINDS
from explorer.theme import (
    CUT_COLOUR,
    FATE_COLOURS,
    INK,
    THRESHOLD_COLOUR,
    TOTAL_COLOUR,
    component_color,
    fate_color,
)

#: The name of the fate timeline's point selection (``event.selection[PICK]``).
PICK = "pick"
#: The fates a returned message can have.
SURVIVING = ("protected", "verbatim", "trimmed")
#: The trim chart gives each trimmed message a row up to this many, a column beyond.
TRIM_ROWS = 30
#: The fate timeline's bar heights: the characters on a linear or a logarithmic axis.
SCALES = {"linear": "linear", "log": "log scale"}
#: Every bar of the fate timeline is at least this many pixels tall, so it can be clicked.
MIN_BAR_PX = 8


def fate_strip(
    strip: pd.DataFrame, window: tuple[int, int] | None, height: int = 90
) -> alt.LayerChart | alt.Chart:
    """The whole conversation in runs of consecutive messages, each a column of its input
    characters stacked by fate, with the window the timeline below shows outlined."""
    bars = (
        alt.Chart(strip)
        .transform_calculate(end="datum.last + 1")
        .mark_bar()
        .encode(
            x=alt.X("first:Q", title="Message (input order), whole conversation"),
            x2="end:Q",
            y=alt.Y("sum(original_chars):Q", title="Characters", axis=alt.Axis(format="~s")),
            color=fate_color(),
            tooltip=[
                alt.Tooltip("span:N", title="Messages"),
                alt.Tooltip("fate:N", title="Fate"),
                alt.Tooltip("messages:Q", title="Messages of this fate"),
                alt.Tooltip("original_chars:Q", title="Characters in", format=","),
            ],
        )
    )
    if window is None:
        return sized(bars, height)
    shown = pd.DataFrame({"first": [window[0]], "end": [window[1] + 1]})
    box = (
        alt.Chart(shown)
        .mark_rect(fillOpacity=0, stroke=INK, strokeWidth=2)
        .encode(x="first:Q", x2="end:Q")
    )
    return sized(alt.layer(bars, box), height)


def _bar_floor(top: float, height: int, scale: str) -> float:
    """The characters a bar is drawn with at the least: :data:`MIN_BAR_PX` on an axis from 0
    (linear) or from 1 (log) to ``top``."""
    share = MIN_BAR_PX / height
    return top**share if scale == "log" else top * share


def fate_timeline(
    frame: pd.DataFrame, height: int = 260, selectable: bool = True, scale: str = "linear"
) -> alt.Chart:
    """Every input message in order, a bar as tall as its characters, coloured by its fate.

    A bar is never less than :data:`MIN_BAR_PX` tall (a 4-character tool result beside an
    8,000-character one would be a fraction of a pixel); the tooltip gives its exact length.
    ``scale`` is ``"linear"`` or ``"log"`` (:data:`SCALES`). With ``selectable``, clicking a bar
    selects it (point selection :data:`PICK` on ``index``) and outlines it.
    """
    top = max(int(frame["original_chars"].max()), 1) if len(frame) else 1
    floor = _bar_floor(top, height, scale)
    if scale == "log":  # ticks at the powers of ten (a log axis's own ticks crowd)
        axis_scale = alt.Scale(type="log", domain=[1, max(top, 2)], nice=False)
        tens = [10**k for k in range(len(str(top)))]
        axis = alt.Axis(values=tens, format=",d")
    else:
        axis_scale = alt.Scale(domain=[0, top], nice=False)
        axis = alt.Axis(format=",d")
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
    title = "Characters (input, log scale)" if scale == "log" else "Characters (input)"
    chart = (
        alt.Chart(frame)
        # only messages that reach the drop stage unprotected have a score ("null" otherwise)
        .transform_calculate(
            score_text="isValid(datum.score) ? format(datum.score, '.6~f') : 'not scored'",
            bar_chars=f"max(datum.original_chars, {floor!r})",
        )
        .mark_bar()
        .encode(
            x=alt.X(
                "index:O",
                title="Message (input order)",
                axis=alt.Axis(labelAngle=0, labelOverlap="greedy"),
            ),
            # one bar per message: nothing to stack (and a log axis cannot stack from 0)
            y=alt.Y("bar_chars:Q", title=title, scale=axis_scale, axis=axis, stack=None),
            color=fate_color(),
            tooltip=tooltip,
        )
    )
    chart = sized(chart, height)
    if selectable:
        pick = alt.selection_point(name=PICK, fields=["index"], on="click", empty=False)
        chart = chart.add_params(pick).encode(
            stroke=alt.condition(pick, alt.value(INK), alt.value(None)),
            strokeWidth=alt.condition(pick, alt.value(3), alt.value(0)),
        )
    return chart


#: The size of the waterfall's value labels.
WATERFALL_FONT = 12


def waterfall(frame: pd.DataFrame, budget: int, height: int = 260) -> alt.LayerChart:
    """Characters through the stages (input, dedupe, trim, drop, output), the budget as a rule.

    Each step's characters stand above its bar, or just above the budget rule where the rule
    would strike them through; the axis leaves room for them at the top.
    """
    colours = [TOTAL_COLOUR, FATE_COLOURS["duplicate"], FATE_COLOURS["trimmed"]]
    colours.append(FATE_COLOURS["dropped"])
    order = list(frame.sort_values("order")["step"])
    top = labelled_top(frame["high"], budget, height, WATERFALL_FONT)
    frame = frame.assign(
        label_at=clear_of_rule(list(frame["high"]), budget, top, height, WATERFALL_FONT)
    )
    base = alt.Chart(frame).encode(
        x=alt.X("step:N", sort=order, title="Stage", axis=alt.Axis(labelAngle=0))
    )
    bars = base.mark_bar(size=48).encode(
        y=alt.Y("low:Q", title="Characters", scale=alt.Scale(domain=[0, top], nice=False)),
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
    labels = base.mark_text(
        dy=-LABEL_GAP, fontSize=WATERFALL_FONT, fontWeight="bold", baseline="bottom", color=INK
    ).encode(y=alt.Y("label_at:Q"), text=alt.Text("chars:Q", format=","))
    rule = rule_line(budget, f"budget {budget:,}", "y")
    return sized(alt.layer(bars, rule, labels), height)


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
        # a thin line of ink between the messages, dark on the light theme, light on the dark
        .mark_bar(size=32, stroke=INK, strokeWidth=1, strokeOpacity=0.55)
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
        .mark_bar(color=TOTAL_COLOUR)
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
