"""Charts of the Corpus page: a data frame in, an ``alt.Chart`` out.

Settings on the frontier and conversations whose budget was missed are in ink (the page's text
colour); the others a mid grey. No fate colour is used: these charts show settings and
conversations, not the fates of messages.
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from explorer.charts.layout import ink, sized
from explorer.theme import TOTAL_COLOUR

FRONTIER = "on the frontier"
INSIDE = "inside the frontier"
#: The frontier chart's vertical axes: the measure, its frontier flag within each budget
#: (:func:`explorer.corpus.frames.frontier_at_budget`), and its title.
MEASURES = {
    "retention": ("frontier_at_budget", "Anchors kept (of all anchors)"),
    "needed_recall": ("frontier_needed_at_budget", "Needed-later recall (needs met, of all)"),
}
#: The baselines drawn as reference points, one shape each.
BASELINE_SHAPES = {"keep-last": "square", "random": "triangle-up"}
MET = "budget met"
MISSED = "budget missed"

_SETTING_TOOLTIP = [
    alt.Tooltip("setting:N", title="Setting"),
    alt.Tooltip("chars_per_conversation:Q", title="Characters out per conversation", format=",.0f"),
    alt.Tooltip("output_chars_median:Q", title="Characters out, median", format=",.0f"),
    alt.Tooltip("retention:Q", title="Anchors kept, of all", format=".1%"),
    alt.Tooltip("anchor_retention_median:Q", title="Anchor retention, median", format=".1%"),
    alt.Tooltip("needed_recall:Q", title="Needed-later recall", format=".1%"),
    alt.Tooltip("budget_met_rate:Q", title="Budget met (rounded down)", format=".1%"),
    alt.Tooltip("place:N", title="Frontier of its budget"),
]


def _frontier_colour(colour: str) -> alt.Color:
    return alt.Color(
        "place:N",
        title=None,
        scale=alt.Scale(domain=[FRONTIER, INSIDE], range=[colour, TOTAL_COLOUR]),
        legend=alt.Legend(orient="top"),
    )


def frontier(
    summary: pd.DataFrame,
    chosen: str | None = None,
    height: int = 320,
    *,
    measure: str = "retention",
    baselines: pd.DataFrame | None = None,
) -> alt.LayerChart:
    """``measure`` (anchor retention, or needed-later recall) against characters out, one
    point per setting: characters out per conversation, and anchors kept of all anchors (or
    needs met of all needs), both axes from 0. A frontier per budget (the settings of that
    budget no other of it beats) is joined in order of characters and its points are labelled
    with their setting (:func:`explorer.corpus.frames.point_labels`); the chosen setting is
    ringed, and the ``baselines`` (:func:`baseline_frame`: keep-last and random at each
    budget) drawn as grey reference points, a shape each."""
    flag, title = MEASURES[measure]
    frame = summary.assign(place=summary[flag].map({True: FRONTIER, False: INSIDE}))
    colour = ink(frame)
    x = alt.X(
        "chars_per_conversation:Q",
        title="Characters out per conversation (mean)",
        scale=alt.Scale(zero=True),
        axis=alt.Axis(format=",d"),
    )
    y = alt.Y(
        f"{measure}:Q", title=title, scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format="%")
    )
    on = frame[frame[flag]].sort_values(["budget_chars", "chars_per_conversation"])
    line = (
        alt.Chart(on)
        .mark_line(color=colour, strokeWidth=1.5, interpolate="step-after")
        .encode(x=x, y=y, detail="budget_chars:O")
    )
    points = (
        alt.Chart(frame)
        .mark_point(filled=True, size=80, opacity=0.9)
        .encode(x=x, y=y, color=_frontier_colour(colour), tooltip=_SETTING_TOOLTIP)
    )
    named = _point_names(on, measure)
    labels = [
        alt.Chart(named[named["above"] == above])
        .mark_text(align="left", baseline=baseline, dx=6, dy=dy, fontSize=11, color=colour)
        .encode(x=x, y=y, text="point:N")
        for above, baseline, dy in ((True, "bottom", -4), (False, "top", 4))
    ]
    layers = [line, points, *labels]
    if baselines is not None and not baselines[measure].isna().all():
        shown = baselines[baselines[measure].notna()]
        reference = (
            alt.Chart(shown)
            .mark_point(filled=False, size=70, color=TOTAL_COLOUR, strokeWidth=1.5)
            .encode(
                x=x,
                y=y,
                shape=alt.Shape(
                    "strategy:N",
                    title="Baselines",
                    scale=alt.Scale(
                        domain=list(BASELINE_SHAPES), range=list(BASELINE_SHAPES.values())
                    ),
                    legend=alt.Legend(orient="top"),
                ),
                tooltip=[
                    alt.Tooltip("setting:N", title="Baseline"),
                    alt.Tooltip("chars_per_conversation:Q", title="Characters out", format=",.0f"),
                    alt.Tooltip(f"{measure}:Q", title=title, format=".1%"),
                ],
            )
        )
        layers.insert(0, reference)
    if chosen is not None and (frame["setting"] == chosen).any():
        ring = (
            alt.Chart(frame[frame["setting"] == chosen])
            .mark_point(size=320, strokeWidth=2, color=colour, filled=False)
            .encode(x=x, y=y, tooltip=_SETTING_TOOLTIP)
        )
        layers.append(ring)
    return sized(alt.layer(*layers), height)


def _point_names(on: pd.DataFrame, measure: str) -> pd.DataFrame:
    """The frontier's labels: one per place (settings drawn at the same point share one label,
    ``a / b``), in order of characters, above and below their points in turn so that
    neighbours do not write over each other."""
    at = on.assign(x=on["chars_per_conversation"].round(6), y=on[measure].round(6))
    named = (
        at.groupby(["x", "y"], sort=True)["point"]
        .agg(lambda names: " / ".join(dict.fromkeys(names)))
        .reset_index()
        .rename(columns={"x": "chars_per_conversation", "y": measure})
    )
    named["above"] = [k % 2 == 0 for k in range(len(named))]
    return named


def budget_met(summary: pd.DataFrame) -> alt.Chart:
    """The share of conversations whose budget was met, one bar per setting (in the summary's
    order), the frontier's in ink."""
    frame = summary.assign(place=summary["frontier"].map({True: FRONTIER, False: INSIDE}))
    chart = (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X(
                "budget_met_rate:Q",
                title="Conversations whose budget was met",
                scale=alt.Scale(domain=[0, 1]),
                axis=alt.Axis(format="%"),
            ),
            y=alt.Y("setting:N", title=None, sort=None, axis=alt.Axis(labelLimit=420)),
            color=_frontier_colour(ink(frame)),
            tooltip=_SETTING_TOOLTIP,
        )
    )
    return sized(chart, alt.Step(20))


def _met_colour(colour: str) -> alt.Color:
    return alt.Color(
        "met:N",
        title=None,
        scale=alt.Scale(domain=[MISSED, MET], range=[colour, TOTAL_COLOUR]),
        legend=alt.Legend(orient="top"),
    )


def _with_met(rows: pd.DataFrame) -> pd.DataFrame:
    return rows.assign(met=rows["budget_met"].map({True: MET, False: MISSED}))


def retention_histogram(rows: pd.DataFrame, height: int = 220) -> alt.Chart:
    """How many conversations keep what share of their anchors under one setting (tenths),
    stacked by whether the budget was met; conversations without anchors are left out."""
    x = alt.X(
        "retention:Q",
        title="Anchor retention of a conversation",
        bin=alt.Bin(extent=[0, 1], step=0.1),
        axis=alt.Axis(format="%"),
    )
    return _histogram(rows[rows["retention"].notna()], x, height)


def output_histogram(rows: pd.DataFrame, height: int = 220) -> alt.Chart:
    """How many conversations return how many characters under one setting, stacked by whether
    the budget was met."""
    x = alt.X(
        "output_chars:Q",
        title="Characters out of a conversation",
        bin=alt.Bin(maxbins=20),
        axis=alt.Axis(format=",d"),
    )
    return _histogram(rows, x, height)


def _histogram(rows: pd.DataFrame, x: alt.X, height: int) -> alt.Chart:
    """Conversations counted in the bins of ``x``, stacked by whether the budget was met."""
    frame = _with_met(rows)
    chart = (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=x,
            y=alt.Y("count():Q", title="Conversations", axis=alt.Axis(tickMinStep=1)),
            color=_met_colour(ink(frame)),
            tooltip=[
                alt.Tooltip("count():Q", title="Conversations"),
                alt.Tooltip("met:N", title="Budget"),
            ],
        )
    )
    return sized(chart, height)
