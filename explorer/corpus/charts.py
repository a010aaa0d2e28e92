"""Charts of the Corpus page: a data frame in, an ``alt.Chart`` out.

Settings on the frontier and conversations whose budget was missed are in ink (the page's text
colour); the others a mid grey. No fate colour is used: these charts show settings and
conversations, not the fates of messages.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
    recommended: str | None = None,
    recommended_point: Mapping[str, Any] | None = None,
) -> alt.LayerChart:
    """``measure`` (anchor retention, or needed-later recall) against characters out, one
    point per setting: characters out per conversation, and anchors kept of all anchors (or
    needs met of all needs), both axes from 0. A frontier per budget (the settings of that
    budget no other of it, nor keep-last or random at it, beats) is joined in order of
    characters. At most :data:`MAX_LABELS` points are labelled (the chosen setting, the
    ``recommended`` one, then frontier points spread over the characters; their setting,
    :func:`explorer.corpus.frames.point_labels`), placed by :func:`label_layout` so that no two
    overlap and none leaves the chart; every point names its setting on hover. The chosen
    setting is ringed, and the ``baselines`` (:func:`baseline_frame`: keep-last and random at
    each budget) drawn on the same axes as grey reference points, a shape each. A
    ``recommended_point`` (the Recommend page's winner on this corpus, of any strategy:
    ``chars_per_conversation``, the measures, ``setting``, ``label``) is drawn as a diamond in
    ink and labelled "recommended" first."""
    flag, title = MEASURES[measure]
    frame = summary.assign(place=summary[flag].map({True: FRONTIER, False: INSIDE}))
    colour = ink(frame)
    xmax = _x_extent(frame, baselines)
    point = _point_frame(recommended_point, measure)
    if point is not None:
        xmax = max(xmax, float(point["chars_per_conversation"].iloc[0]) * 1.05)
    x = alt.X(
        "chars_per_conversation:Q",
        title="Characters out per conversation (mean)",
        scale=alt.Scale(domain=[0, xmax], nice=False),
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
    named = label_layout(
        _labelled(frame, on, measure, chosen, recommended, point), measure, xmax, height=height
    )
    labels = [
        alt.Chart(named[(named["align"] == align) & (named["baseline"] == baseline)])
        .mark_text(
            align=align,
            baseline=baseline,
            dx=LABEL_DX if align == "left" else -LABEL_DX,
            dy=-LABEL_DY if baseline == "bottom" else LABEL_DY,
            fontSize=LABEL_FONT,
            color=colour,
        )
        .encode(x=x, y=y, text="text:N")
        for align in ("left", "right")
        for baseline in ("bottom", "top")
        if ((named["align"] == align) & (named["baseline"] == baseline)).any()
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
    if point is not None:
        layers.append(
            alt.Chart(point)
            .mark_point(shape="diamond", filled=True, size=160, color=colour)
            .encode(
                x=x,
                y=y,
                tooltip=[
                    alt.Tooltip("setting:N", title="Recommended"),
                    alt.Tooltip("chars_per_conversation:Q", title="Characters out", format=",.0f"),
                    alt.Tooltip(f"{measure}:Q", title=title, format=".1%"),
                ],
            )
        )
    if chosen is not None and (frame["setting"] == chosen).any():
        ring = (
            alt.Chart(frame[frame["setting"] == chosen])
            .mark_point(size=320, strokeWidth=2, color=colour, filled=False)
            .encode(x=x, y=y, tooltip=_SETTING_TOOLTIP)
        )
        layers.append(ring)
    return sized(alt.layer(*layers), height)


#: The most points the frontier chart labels; the others name their setting on hover.
MAX_LABELS = 5
#: The label's type size and its offset from its point, in pixels.
LABEL_FONT, LABEL_DX, LABEL_DY = 11, 6, 4
#: The narrowest plot the labels are laid out for (a wider one only spreads them further), and
#: the width of a character of the label's type, in pixels (a little over the average).
LAYOUT_WIDTH, CHAR_WIDTH = 480, 6.6


def _x_extent(frame: pd.DataFrame, baselines: pd.DataFrame | None) -> float:
    """The horizontal axis's end: a little past the widest point, baselines included."""
    widest = float(frame["chars_per_conversation"].max()) if len(frame) else 1.0
    if baselines is not None and len(baselines):
        widest = max(widest, float(baselines["chars_per_conversation"].max()))
    return max(1.0, widest * 1.05)


def _point_frame(point: Mapping[str, Any] | None, measure: str) -> pd.DataFrame | None:
    """The recommended point as a one-row frame, or None when it has no figure of ``measure``."""
    if point is None or point.get(measure) is None:
        return None
    return pd.DataFrame(
        [
            {
                "chars_per_conversation": float(point["chars_per_conversation"]),
                measure: float(point[measure]),
                "setting": point["setting"],
                "label": point["label"],
            }
        ]
    )


def _labelled(
    frame: pd.DataFrame,
    on: pd.DataFrame,
    measure: str,
    chosen: str | None,
    recommended: str | None,
    point: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """The points to label, in order of priority: the Recommend page's ``point`` (the user came
    for it), the chosen setting ("current"), the grid setting named ``recommended``, then
    frontier points spread evenly over the characters."""
    picked: list[dict] = []
    seen: set[str] = set()
    if point is not None:
        r = point.iloc[0]
        picked.append(
            {
                "chars_per_conversation": r["chars_per_conversation"],
                measure: r[measure],
                "text": f"recommended: {r['label']}",
            }
        )
    for name, said in ((chosen, "current"), (recommended, "recommended")):
        row = frame[frame["setting"] == name] if name is not None else frame.iloc[:0]
        if len(row) and name not in seen:
            r = row.iloc[0]
            picked.append(
                {
                    "chars_per_conversation": r["chars_per_conversation"],
                    measure: r[measure],
                    "text": f"{said}: {r['point']}",
                }
            )
            seen.add(name)
    rest = on[~on["setting"].isin(seen) & on[measure].notna()].sort_values("chars_per_conversation")
    room = max(0, MAX_LABELS - len(picked))
    if room and len(rest):
        spread = sorted({round(k * (len(rest) - 1) / max(1, room - 1)) for k in range(room)})
        for k in spread[:room]:
            r = rest.iloc[k]
            picked.append(
                {
                    "chars_per_conversation": r["chars_per_conversation"],
                    measure: r[measure],
                    "text": r["point"],
                }
            )
    return pd.DataFrame(picked, columns=["chars_per_conversation", measure, "text"])


def label_layout(
    points: pd.DataFrame,
    measure: str,
    xmax: float,
    *,
    height: int = 320,
    width: int = LAYOUT_WIDTH,
) -> pd.DataFrame:
    """Where each label goes: beside its point, right or left of it and above or below,
    the first of those places (in that order) whose box stays inside the plot and overlaps no
    label placed before; a label with no such place is left out (its point still names its
    setting on hover). Boxes are estimated in pixels of a plot ``width`` wide and ``height``
    tall (the chart is at least that wide); returns ``points`` with ``align``, ``baseline``
    and the box (``left``, ``right``, ``top``, ``bottom``, pixels from the top left)."""
    placed: list[dict] = []
    boxes: list[tuple[float, float, float, float]] = []
    for _, p in points.iterrows():
        if p[measure] != p[measure]:
            continue
        px = float(p["chars_per_conversation"]) / xmax * width
        py = (1 - float(p[measure])) * height
        w, h = len(str(p["text"])) * CHAR_WIDTH, LABEL_FONT + 2
        for align, baseline in (
            ("left", "bottom"),
            ("left", "top"),
            ("right", "bottom"),
            ("right", "top"),
        ):
            left = px + LABEL_DX if align == "left" else px - LABEL_DX - w
            top = py - LABEL_DY - h if baseline == "bottom" else py + LABEL_DY
            box = (left, left + w, top, top + h)
            inside = box[0] >= 0 and box[1] <= width and box[2] >= 0 and box[3] <= height
            if inside and not any(_overlap(box, other) for other in boxes):
                boxes.append(box)
                placed.append(
                    {
                        **p.to_dict(),
                        "align": align,
                        "baseline": baseline,
                        "left": box[0],
                        "right": box[1],
                        "top": box[2],
                        "bottom": box[3],
                    }
                )
                break
    columns = [*points.columns, "align", "baseline", "left", "right", "top", "bottom"]
    return pd.DataFrame(placed, columns=columns)


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[1] and b[0] < a[1] and a[2] < b[3] and b[2] < a[3]


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
