"""Outcome charts (SPEC part D): a frame of :mod:`explorer.frames.outcomes` in, an ``alt.Chart``
out. Strategies and roles get colours of their own, never a fate's: the setting in ink, keep-last
in grey, random in olive with its 2.5-97.5% band."""

from __future__ import annotations

import json
from collections.abc import Mapping

import altair as alt
import pandas as pd

from explorer.charts.layout import ink, rule_line, sized
from explorer.theme import TOTAL_COLOUR

#: Olive: no fate has it, and it stands out at 3:1 or more on the light and the dark theme.
RANDOM_COLOUR = "#6F7F00"
#: The lines of the recall curve, as its legend names them.
CURVE_LINES: Mapping[str, str] = {
    "setting": "this setting",
    "keep_last": "keep-last",
    "random": "random (mean)",
}
#: The two bars of each role in the role balance.
SIDES: Mapping[str, str] = {"input": TOTAL_COLOUR, "output": RANDOM_COLOUR}
#: Roles in the misses chart (Paul Tol's muted colours, clear of the fates'): schema order.
ROLE_COLOURS: Mapping[str, str] = {
    "system": "#88CCEE",
    "user": "#44AA99",
    "assistant": "#999933",
    "tool": "#DDCC77",
}


def role_balance(frame: pd.DataFrame, height: int = 30) -> alt.Chart:
    """Each role's share of the input's and of the output's characters, side by side (a
    :func:`~explorer.frames.outcomes.balance_frame`); ``height`` is per bar."""
    roles = list(dict.fromkeys(frame["role"]))
    return sized(
        alt.Chart(frame)
        .mark_bar()
        .encode(
            y=alt.Y("role:N", title=None, sort=roles),
            yOffset=alt.YOffset("side:N", sort=list(SIDES)),
            x=alt.X(
                "share:Q",
                title="Share of the characters",
                axis=alt.Axis(format="%"),
                scale=alt.Scale(domain=[0, 1]),
            ),
            color=alt.Color(
                "side:N",
                title=None,
                scale=alt.Scale(domain=list(SIDES), range=list(SIDES.values())),
                legend=alt.Legend(orient="top", labelLimit=0),
            ),
            tooltip=[
                alt.Tooltip("role:N", title="Role"),
                alt.Tooltip("side:N", title="Of the"),
                alt.Tooltip("share:Q", title="Share", format=".1%"),
                alt.Tooltip("chars:Q", title="Characters", format=","),
            ],
        ),
        alt.Step(height / 2),
    )


def recall_curve(
    frame: pd.DataFrame,
    current: int,
    domain: tuple[int, int] | None = None,
    extent: int | None = None,
    height: int = 240,
    title: str = "Needed-later recall",
    names: Mapping[str, str] | None = None,
) -> alt.LayerChart:
    """A recall against the budget (a :func:`~explorer.frames.outcomes.curve_frame`, or a
    probe recall's :func:`~explorer.frames.outcomes.probe_curve_frame`, named by ``title``):
    the setting, keep-last and random's mean as step lines, random's band, the current budget.
    ``domain`` and ``extent`` line it up with the Budget sweep's other charts; ``names``
    replaces the legend's names (the baselines' form: "keep-last, system prompt kept")."""
    colour = ink(frame)
    named = {**CURVE_LINES, **(names or {})}
    low, high = domain or (int(frame["budget"].min()), int(frame["budget"].max()))
    x = alt.X(
        "budget:Q",
        title="budget_chars",
        scale=alt.Scale(domain=[low, high], nice=False),
        axis=alt.Axis(format=",d"),
    )
    widths = {} if extent is None else {"minExtent": extent, "maxExtent": extent}
    y_axis = alt.Axis(format="%", **widths)
    band = (
        alt.Chart(frame)
        .mark_area(interpolate="step-after", color=RANDOM_COLOUR, opacity=0.25)
        .encode(
            x=x,
            y=alt.Y("random_low:Q", title=title, axis=y_axis),
            y2="random_high:Q",
        )
    )
    lines = (
        alt.Chart(frame)
        .transform_fold(list(named), as_=["measure", "recall"])
        .transform_calculate(line=f"{json.dumps(named)}[datum.measure]")
        .mark_line(interpolate="step-after", strokeWidth=2.5)
        .encode(
            x=x,
            y=alt.Y("recall:Q", scale=alt.Scale(domain=[0, 1]), axis=y_axis),
            color=alt.Color(
                "line:N",
                title=None,
                scale=alt.Scale(
                    domain=list(named.values()),
                    range=[colour, TOTAL_COLOUR, RANDOM_COLOUR],
                ),
                legend=alt.Legend(orient="top", symbolType="stroke", labelLimit=0),
            ),
            tooltip=[
                alt.Tooltip("budget:Q", title="From budget", format=","),
                alt.Tooltip("to_budget:Q", title="To budget", format=","),
                alt.Tooltip("line:N", title="Strategy"),
                alt.Tooltip("recall:Q", title=title, format=".1%"),
                alt.Tooltip("random_low:Q", title="Random 2.5%", format=".1%"),
                alt.Tooltip("random_high:Q", title="Random 97.5%", format=".1%"),
            ],
        )
    )
    rule = rule_line(current, f"current budget {current:,}", colour=colour)
    return sized(alt.layer(band, lines, rule), height)


def misses_per_turn(frame: pd.DataFrame, height: int = 160) -> alt.Chart:
    """Replay misses per turn, stacked by the role of the message that missed (a
    :func:`~explorer.frames.outcomes.misses_frame`), one row of bars per replayed loop."""
    roles = [r for r in ROLE_COLOURS if r in set(frame["role"])] or list(ROLE_COLOURS)
    return (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X("turn:Q", title="Turn", axis=alt.Axis(tickMinStep=1, format="d")),
            y=alt.Y("sum(misses):Q", title="Needs missed", axis=alt.Axis(tickMinStep=1)),
            color=alt.Color(
                "role:N",
                title="Role of the message",
                scale=alt.Scale(domain=roles, range=[ROLE_COLOURS[r] for r in roles]),
                legend=alt.Legend(orient="top", labelLimit=0),
            ),
            row=alt.Row("loop:N", title=None, header=alt.Header(labelAngle=0, labelAlign="left")),
            tooltip=[
                alt.Tooltip("loop:N", title="Loop"),
                alt.Tooltip("turn:Q", title="Turn"),
                alt.Tooltip("role:N", title="Role"),
                alt.Tooltip("misses:Q", title="Needs missed"),
            ],
        )
        .properties(height=height)
    )
