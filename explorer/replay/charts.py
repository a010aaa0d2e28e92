"""Charts of the Replay page: characters sent per turn against the budget, the cache-reusable
share per turn (smoothed, each turn faint behind), and the drift (anchors lost so far, never
falling, beside those not in what is sent now) with each loss a point to click.

Each loop replayed has its own colour (:data:`explorer.theme.LOOP_COLOURS`), named in a
legend of one entry per line, so a long name is never cut off in a half-width chart; fate colours
are not used, since a line here is a loop, not a fate.

The page redraws these on every parameter move, so each chart is built over named data once per
shape (its loops, the budget) and kept as a spec (:func:`explorer.charts.layout.template`);
``*_spec`` fills in the frames for ``st.vega_lite_chart``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import altair as alt
import pandas as pd

from explorer.charts.layout import filled, rule_data, rule_line, sized, template
from explorer.theme import INK, LOOP_COLOURS

#: The name of the drift chart's point selection (``event.selection[LOSS]``).
LOSS = "loss"
#: The names of the charts' datasets: the turns frame and the loss points frame.
TURNS, POINTS, BUDGET = "turns", "loss_points", "budget"
HEIGHT = 220
#: The drift chart's two lines, by the column each draws, as its legend names them.
DRIFT_LINES = {
    "anchors_lost_ever": "lost so far (never falls)",
    "anchors_missing": "not in what is sent now",
}
_DASHES = [[1, 0], [5, 3]]


def picked_loss(event: Any) -> tuple[str, int, int] | None:
    """The loss a click on the drift chart picked, ``(loop, turn, message index)``, from the
    event ``st.vega_lite_chart`` returns; None when nothing usable is selected."""
    points = ((event or {}).get("selection") or {}).get(LOSS) or []
    for point in points:
        try:
            return str(point["loop"]), int(point["turn"]), int(point["index"])
        except (KeyError, TypeError, ValueError):
            continue
    return None


def loops_of(turns: pd.DataFrame) -> tuple[str, ...]:
    """The loops of a turns frame, in their order."""
    return tuple(dict.fromkeys(turns["loop"]))


def _scale(loops: Sequence[str]) -> alt.Scale:
    return alt.Scale(domain=list(loops), range=list(LOOP_COLOURS[: len(loops)]))


def _loop_colour(loops: Sequence[str]) -> alt.Color:
    """Colour by loop, one legend entry per line above the plot, no label cut short."""
    return alt.Color(
        "loop:N",
        title="Loop",
        scale=_scale(loops),
        legend=alt.Legend(
            orient="top",
            direction="vertical",
            labelLimit=0,
            symbolType="stroke",
            symbolOpacity=1,  # a faint layer's opacity would fade the legend
            symbolStrokeWidth=2.5,
        ),
    )


_TURN = alt.X("turn:Q", title="Turn", axis=alt.Axis(format="d", tickMinStep=1))


def sent_chart(loops: Sequence[str]) -> alt.LayerChart:
    """Characters sent at each turn (``chars_out``, dataset :data:`TURNS`), per loop, and the
    budget as a rule (dataset :data:`BUDGET`, a :func:`rule_data` frame)."""
    line = (
        alt.Chart(alt.Data(name=TURNS))
        .mark_line(strokeWidth=2)
        .encode(
            x=_TURN,
            y=alt.Y("chars_out:Q", title="Characters sent", axis=alt.Axis(format=",d")),
            color=_loop_colour(loops),
            tooltip=[
                alt.Tooltip("loop:N", title="Loop"),
                alt.Tooltip("turn:Q", title="Turn"),
                alt.Tooltip("chars_in:Q", title="Characters in", format=","),
                alt.Tooltip("chars_out:Q", title="Characters sent", format=","),
                alt.Tooltip("messages_out:Q", title="Messages sent", format=","),
                alt.Tooltip("compacted:N", title="Compacted"),
            ],
        )
    )
    rule = rule_line(0, "", axis="y", named=BUDGET)
    return sized(alt.layer(line, rule).resolve_scale(strokeDash="independent"), HEIGHT)


def prefix_chart(loops: Sequence[str]) -> alt.LayerChart:
    """The share of the characters sent that a prompt cache could reuse (the stable prefix), per
    loop (dataset :data:`TURNS`): bold, over the last few turns (``stable_share_smoothed``,
    :func:`explorer.replay.frames.smoothing_window`); faint behind it, each turn's own
    (``stable_share``), whose comb of ups and downs would hide one loop behind the other."""
    share = alt.Y(
        "stable_share:Q",
        title="Stable prefix share",
        scale=alt.Scale(domain=[0, 1]),
        axis=alt.Axis(format="%"),
    )
    each = (
        alt.Chart(alt.Data(name=TURNS))
        .mark_line(strokeWidth=1, opacity=0.3, interpolate="step-after")
        .encode(x=_TURN, y=share, color=_loop_colour(loops))
    )
    smoothed = (
        alt.Chart(alt.Data(name=TURNS))
        .mark_line(strokeWidth=2.5)
        .encode(
            x=_TURN,
            y=alt.Y("stable_share_smoothed:Q"),
            color=_loop_colour(loops),
            tooltip=[
                alt.Tooltip("loop:N", title="Loop"),
                alt.Tooltip("turn:Q", title="Turn"),
                alt.Tooltip("stable_share_smoothed:Q", title="Share, recent turns", format=".0%"),
                alt.Tooltip("stable_share:Q", title="Share, this turn", format=".0%"),
                alt.Tooltip("stable_prefix_messages:Q", title="Stable messages", format=","),
                alt.Tooltip("stable_prefix_chars:Q", title="Stable characters", format=","),
                alt.Tooltip("chars_out:Q", title="Characters sent", format=","),
            ],
        )
    )
    return sized(alt.layer(each, smoothed), HEIGHT)


def drift_chart(loops: Sequence[str]) -> alt.LayerChart:
    """Per loop (dataset :data:`TURNS`), the anchors lost at some turn so far (solid, never
    falls) and those not whole in what is sent at the turn (dashed: it falls when a new message
    repeats missing anchors); each message that lost anchors at a turn
    (:func:`explorer.replay.frames.loss_points`, dataset :data:`POINTS`) a point on the solid
    line, which a click selects (point selection :data:`LOSS` on loop, turn and message
    ``index``)."""
    names = list(DRIFT_LINES.values())
    label = " : ".join(f"datum.measure == '{c}' ? '{n}'" for c, n in DRIFT_LINES.items())
    line = (
        alt.Chart(alt.Data(name=TURNS))
        .transform_fold(list(DRIFT_LINES), as_=["measure", "anchors"])
        .transform_calculate(line=f"{label} : datum.measure")
        .mark_line(strokeWidth=2, interpolate="step-after")
        .encode(
            x=_TURN,
            y=alt.Y("anchors:Q", title="Anchors", axis=alt.Axis(format="d")),
            color=_loop_colour(loops),
            strokeDash=alt.StrokeDash(
                "line:N",
                title=None,
                scale=alt.Scale(domain=names, range=_DASHES),
                legend=alt.Legend(
                    orient="top", direction="vertical", labelLimit=0, symbolType="stroke"
                ),
            ),
            tooltip=[
                alt.Tooltip("loop:N", title="Loop"),
                alt.Tooltip("turn:Q", title="Turn"),
                alt.Tooltip("anchors_lost_ever:Q", title="Lost so far", format=","),
                alt.Tooltip("anchors_missing:Q", title="Not in what is sent", format=","),
                alt.Tooltip("anchors_back:Q", title="Back with this turn's message", format=","),
            ],
        )
    )
    pick = alt.selection_point(name=LOSS, fields=["loop", "turn", "index"], on="click")
    points = (
        alt.Chart(alt.Data(name=POINTS))
        .mark_point(filled=True, size=90, shape="diamond")
        .encode(
            x=_TURN,
            y=alt.Y("lost_so_far:Q"),
            color=alt.Color("loop:N", scale=_scale(loops), legend=None),
            stroke=alt.condition(pick, alt.value(INK), alt.value(None)),
            strokeWidth=alt.condition(pick, alt.value(2), alt.value(0)),
            tooltip=[
                alt.Tooltip("loop:N", title="Loop"),
                alt.Tooltip("turn:Q", title="Lost at turn"),
                alt.Tooltip("anchors:Q", title="Anchors lost here", format=","),
                alt.Tooltip("again:Q", title="Of them, lost before", format=","),
                alt.Tooltip("first:N", title="The first"),
                alt.Tooltip("index:Q", title="Message"),
                alt.Tooltip("how:N", title="By the"),
            ],
        )
        .add_params(pick)
    )
    return sized(alt.layer(line, points), HEIGHT)


_CHARTS = {"sent": sent_chart, "prefix": prefix_chart, "drift": drift_chart}


@lru_cache(maxsize=32)
def _template(kind: str, loops: tuple[str, ...]) -> dict[str, Any]:
    return template(_CHARTS[kind](loops))


def sent_spec(turns: pd.DataFrame, budget: int) -> dict[str, Any]:
    """:func:`sent_chart` over ``turns`` and ``budget``, as a Vega-Lite spec."""
    rule = rule_data(budget, f"budget_chars {budget:,}")
    return filled(_template("sent", loops_of(turns)), **{TURNS: turns, BUDGET: rule})


def prefix_spec(turns: pd.DataFrame) -> dict[str, Any]:
    """:func:`prefix_chart` over ``turns``, as a Vega-Lite spec."""
    return filled(_template("prefix", loops_of(turns)), **{TURNS: turns})


def drift_spec(turns: pd.DataFrame, points: pd.DataFrame) -> dict[str, Any]:
    """:func:`drift_chart` over ``turns`` and the loss ``points``, as a Vega-Lite spec."""
    return filled(_template("drift", loops_of(turns)), **{TURNS: turns, POINTS: points})
