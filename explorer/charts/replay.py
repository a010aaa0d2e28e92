"""Charts of the Replay page: characters sent per turn against the budget, the cache-reusable
share per turn, and the drift (anchors lost so far) with each loss a point to click.

Each setting replayed is one line: the first in ink, the second in a mid grey and dashed, named in
a legend; fate colours are not used, since a line here is a setting, not a fate.
"""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import pandas as pd

from explorer.charts.layout import rule_line, sized
from explorer.theme import INK, TOTAL_COLOUR

#: The name of the drift chart's point selection (``event.selection[LOSS]``).
LOSS = "loss"
HEIGHT = 220
_COLOURS = [INK, TOTAL_COLOUR]
_DASHES = [[1, 0], [6, 3]]


def _scale(frame: pd.DataFrame) -> alt.Scale:
    settings: Sequence[str] = list(dict.fromkeys(frame["setting"]))
    return alt.Scale(domain=settings, range=_COLOURS[: len(settings)])


def _setting(frame: pd.DataFrame) -> tuple[alt.Color, alt.StrokeDash]:
    settings: Sequence[str] = list(dict.fromkeys(frame["setting"]))
    colour = alt.Color(
        "setting:N",
        title="Setting",
        scale=_scale(frame),
        legend=alt.Legend(orient="top", labelLimit=0),
    )
    dash = alt.StrokeDash(
        "setting:N",
        scale=alt.Scale(domain=settings, range=_DASHES[: len(settings)]),
        legend=None,
    )
    return colour, dash


_TURN = alt.X("turn:Q", title="Turn", axis=alt.Axis(format="d", tickMinStep=1))


def sent_chart(turns: pd.DataFrame, budget: int) -> alt.LayerChart:
    """Characters sent at each turn (``chars_out``), per setting, and the budget as a rule."""
    colour, dash = _setting(turns)
    line = (
        alt.Chart(turns)
        .mark_line(strokeWidth=2)
        .encode(
            x=_TURN,
            y=alt.Y("chars_out:Q", title="Characters sent", axis=alt.Axis(format=",d")),
            color=colour,
            strokeDash=dash,
            tooltip=[
                alt.Tooltip("setting:N", title="Setting"),
                alt.Tooltip("turn:Q", title="Turn"),
                alt.Tooltip("chars_in:Q", title="Characters in", format=","),
                alt.Tooltip("chars_out:Q", title="Characters sent", format=","),
                alt.Tooltip("messages_out:Q", title="Messages sent", format=","),
                alt.Tooltip("compacted:N", title="Compacted"),
            ],
        )
    )
    rule = rule_line(budget, f"budget_chars {budget:,}", axis="y")
    return sized(alt.layer(line, rule).resolve_scale(strokeDash="independent"), HEIGHT)


def prefix_chart(turns: pd.DataFrame) -> alt.Chart:
    """The share of each turn's characters sent that a prompt cache could reuse (its stable
    prefix), per setting."""
    colour, dash = _setting(turns)
    chart = (
        alt.Chart(turns)
        .mark_line(strokeWidth=2, interpolate="step-after")
        .encode(
            x=_TURN,
            y=alt.Y(
                "stable_share:Q",
                title="Stable prefix share",
                scale=alt.Scale(domain=[0, 1]),
                axis=alt.Axis(format="%"),
            ),
            color=colour,
            strokeDash=dash,
            tooltip=[
                alt.Tooltip("setting:N", title="Setting"),
                alt.Tooltip("turn:Q", title="Turn"),
                alt.Tooltip("stable_prefix_messages:Q", title="Stable messages", format=","),
                alt.Tooltip("stable_prefix_chars:Q", title="Stable characters", format=","),
                alt.Tooltip("chars_out:Q", title="Characters sent", format=","),
                alt.Tooltip("stable_share:Q", title="Share", format=".0%"),
            ],
        )
    )
    return sized(chart, HEIGHT)


def drift_chart(turns: pd.DataFrame, points: pd.DataFrame) -> alt.LayerChart:
    """Anchors lost so far at each turn, per setting; each message that lost anchors at a turn
    (:func:`explorer.frames.replay.loss_points`) a point on the line, which a click selects
    (point selection :data:`LOSS` on setting, turn and message ``index``)."""
    colour, dash = _setting(turns)
    line = (
        alt.Chart(turns)
        .mark_line(strokeWidth=2, interpolate="step-after")
        .encode(
            x=_TURN,
            y=alt.Y("anchors_lost:Q", title="Anchors lost so far", axis=alt.Axis(format="d")),
            color=colour,
            strokeDash=dash,
        )
    )
    pick = alt.selection_point(name=LOSS, fields=["setting", "turn", "index"], on="click")
    points = (
        alt.Chart(points)
        .mark_point(filled=True, size=90, shape="diamond")
        .encode(
            x=_TURN,
            y=alt.Y("lost_so_far:Q"),
            color=alt.Color("setting:N", scale=_scale(turns), legend=None),
            stroke=alt.condition(pick, alt.value(INK), alt.value(None)),
            strokeWidth=alt.condition(pick, alt.value(2), alt.value(0)),
            tooltip=[
                alt.Tooltip("setting:N", title="Setting"),
                alt.Tooltip("turn:Q", title="Lost at turn"),
                alt.Tooltip("anchors:Q", title="Anchors lost here", format=","),
                alt.Tooltip("first:N", title="The first"),
                alt.Tooltip("index:Q", title="Message"),
                alt.Tooltip("how:N", title="By the"),
            ],
        )
        .add_params(pick)
    )
    return sized(alt.layer(line, points), HEIGHT)
