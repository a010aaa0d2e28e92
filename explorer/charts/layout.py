"""What every chart shares: its size, the dashed rule lines, ink that follows the theme, labels
that keep clear of a rule, and y axes of one width so that stacked charts line up.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterable, Mapping, Sequence
from contextlib import nullcontext
from typing import Any

import altair as alt
import pandas as pd

from explorer.theme import BUDGET_COLOUR, CANVAS_INK, INK

#: Streamlit fits a chart's whole height (legends and axes included) by default, which squeezes
#: the plot of a chart with legends above and below; with "fit-x" a chart's height is its plot's.
_AUTOSIZE = alt.AutoSizeParams(type="fit-x", contains="padding")
#: Streamlit draws a chart with a dataset of more rows than this on a canvas, not as SVG.
CANVAS_ROWS = 2_000
#: A value label stands this many pixels above what it labels (a bar's top, a rule).
LABEL_GAP = 8
#: The width of one digit or comma of an axis label (Streamlit's 12 px font), generously.
_DIGIT_PX = 8
#: What Streamlit puts between an axis's labels and its title, and the title's own line.
_AXIS_PADDING_PX = 16


def sized(chart: alt.TopLevelMixin, height: int | alt.Step) -> alt.TopLevelMixin:
    """``chart`` filling the container's width, its plot ``height`` tall."""
    return chart.properties(height=height, autosize=_AUTOSIZE)


def ink(*frames: pd.DataFrame) -> str:
    """The ink of a chart over ``frames``: the page's text colour, or a mid grey when Streamlit
    will draw it on a canvas (which cannot take the page's colour)."""
    return CANVAS_INK if any(len(f) > CANVAS_ROWS for f in frames) else INK


def rule_data(value: float, label: str) -> pd.DataFrame:
    """The one row a :func:`rule_line` draws: where the rule stands and its name."""
    return pd.DataFrame({"value": [value], "label": [label]})


def rule_line(
    value: float,
    label: str,
    axis: str = "x",
    colour: str = BUDGET_COLOUR,
    named: str | None = None,
) -> alt.Chart:
    """A dashed rule across the chart at ``value`` (budget, threshold, ...), named in a legend.

    The name sits in a legend below the axis, so it never covers a bar or a label, and never
    competes for the row of legends above the plot (a narrow chart would cut it off there).
    With ``named``, the rule reads the dataset of that name (a :func:`rule_data` frame, filled in
    later: see :func:`template`) and ``value`` and ``label`` are not used.
    """
    data = alt.Data(name=named) if named else rule_data(value, label)
    position = alt.Y("value:Q") if axis == "y" else alt.X("value:Q")
    dash = alt.StrokeDash(
        "label:N",
        title=None,
        scale=alt.Scale(range=[[6, 4]]) if named else alt.Scale(domain=[label], range=[[6, 4]]),
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


def label_band(font_size: float) -> float:
    """Pixels from what a label stands on to the label's top: the gap and one line of text."""
    return LABEL_GAP + 1.25 * font_size


def labelled_top(tops: Iterable[float], rule: float, height: int, font_size: float) -> float:
    """The top of a y axis from 0 that leaves room for a label above the highest bar and above
    the rule, so no label is cut off at the top of the plot."""
    highest = max([rule, *tops])
    room = label_band(font_size) + 4
    return math.ceil(highest * height / max(height - room, 1)) if highest > 0 else 1


def clear_of_rule(
    tops: Sequence[float], rule: float, domain_top: float, height: int, font_size: float
) -> list[float]:
    """Where each bar's value label stands: on its bar's top, or on the rule when the rule would
    strike through the label there (then the label sits just above the rule, never under it).

    ``domain_top`` and ``height`` give the axis's pixels per unit (the axis starts at 0).
    """
    scale = height / domain_top
    band = label_band(font_size)
    placed = []
    for top in tops:
        above = (rule - top) * scale  # pixels from the bar's top up to the rule
        placed.append(rule if LABEL_GAP - 4 <= above <= band + 3 else top)
    return placed


def axis_extent(*values: Iterable[float]) -> int:
    """The width of a y axis's labels that fits every value's label (``1,600,000``): given to
    charts stacked above each other, their plots start at the same x and their x axes line up."""
    # 1.2 times: the axis may run on to the next round number (a maximum of 9,500 to 10,000)
    longest = max((len(f"{int(v * 1.2):,}") for vs in values for v in vs), default=1)
    return _DIGIT_PX * longest + _AXIS_PADDING_PX


# --- charts drawn often: a spec made once, data filled in on each rerun -----------------------


def template(chart: alt.TopLevelMixin) -> dict[str, Any]:
    """The Vega-Lite spec of ``chart`` (validated, as Streamlit converts it: without Altair's
    default theme), for a chart whose data are named (``alt.Data(name=...)``) and filled in by
    :func:`filled` on every rerun. Building and validating an Altair chart of three layers costs
    tens of milliseconds; a page that redraws on every slider move makes the spec once per shape.
    """
    theme = alt.theme.enable("none") if alt.theme.active == "default" else nullcontext()
    with theme:
        return chart.to_dict()


def filled(spec: Mapping[str, Any], **datasets: pd.DataFrame) -> dict[str, Any]:
    """A copy of the template ``spec`` with its named datasets (``name=frame``) filled in, for
    ``st.vega_lite_chart`` (which sends the frames as Arrow and may change the spec it is given)."""
    out = copy.deepcopy(dict(spec))
    out["datasets"] = {**out.get("datasets", {}), **datasets}
    return out
