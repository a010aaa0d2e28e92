"""Charts of the A/B and Strategies pages: message strips coloured by what each side kept.

What a strategy keeps of a message (verbatim, cut, removed) borrows the colours of the fates
that mean the same (verbatim, trimmed, dropped).
"""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import pandas as pd

from explorer.charts.layout import rule_line, sized
from explorer.theme import FATE_COLOURS, INK, TOTAL_COLOUR, fate_color

#: A Vega expression that writes a boolean field as yes or no (a tooltip never says "true").
YES_NO = "datum.{field} ? 'yes' : 'no'"
#: A strategy's handling of a message, in the colours of the fates that mean the same.
KEPT_COLOURS = {
    "verbatim": FATE_COLOURS["verbatim"],
    "cut": FATE_COLOURS["trimmed"],
    # a clearing strategy's placeholder in place of the content: Okabe-Ito's sky blue, no fate's
    "replaced": "#56B4E9",
    "removed": FATE_COLOURS["dropped"],
}
#: How the legend names each of :data:`KEPT_COLOURS` (issue 40: cleared cells were white, with
#: no legend entry).
KEPT_LABELS = {"replaced": "replaced by a placeholder (cleared)"}
#: A strategy's output bar: within the budget in the neutral grey, over it in ink-dark grey.
MET_COLOURS = {"within the budget": TOTAL_COLOUR, "over the budget": "#4D4D4D"}


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
        encoding["stroke"] = alt.condition(f"datum.{outline}", alt.value(INK), alt.value(None))
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
    named = " : ".join(f"datum.label == '{k}' ? '{v}'" for k, v in KEPT_LABELS.items())
    return alt.Color(
        "kept:N",
        title=title,
        scale=alt.Scale(domain=names, range=[KEPT_COLOURS[n] for n in names]),
        legend=alt.Legend(orient="top", title=title, labelExpr=f"{named} : datum.label"),
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


def strategy_runs_strip(frame: pd.DataFrame, order: Sequence[str]) -> alt.Chart:
    """:func:`strategy_strip` of a long conversation: a cell per run of consecutive messages
    (:func:`explorer.frames.compare.strategy_runs`), coloured by what most of them got."""
    return _strip(
        frame,
        "strategy",
        "Strategy",
        order,
        kept_color(),
        [
            alt.Tooltip("strategy:N", title="Strategy"),
            alt.Tooltip("message:N", title="Messages"),
            alt.Tooltip("kept:N", title="Most of them"),
            alt.Tooltip("counts:N", title="Each"),
            alt.Tooltip("original_chars:Q", title="Characters in", format=","),
            alt.Tooltip("chars:Q", title="Characters out", format=","),
        ],
    )


def strategy_totals(
    frame: pd.DataFrame, budget: int, height: int | alt.Step | None = None
) -> alt.LayerChart:
    """Each strategy's output characters against the shared budget: one bar per strategy with
    a gap between bars, over the budget in a darker grey (and said in the legend)."""
    shown = frame[frame["available"]].astype({"output_chars": "int64", "tokens_estimate": "int64"})
    names = list(MET_COLOURS)
    shown = shown.assign(met=[names[0] if o <= budget else names[1] for o in shown["output_chars"]])
    bars = (
        alt.Chart(shown)
        .mark_bar()
        .encode(
            y=alt.Y(
                "strategy:N",
                title=None,
                sort=list(shown["strategy"]),
                scale=alt.Scale(paddingInner=0.3),
                axis=alt.Axis(labelLimit=260),
            ),
            x=alt.X("output_chars:Q", title="Characters out", axis=alt.Axis(format=",d")),
            color=alt.Color(
                "met:N",
                scale=alt.Scale(domain=names, range=[MET_COLOURS[n] for n in names]),
                legend=alt.Legend(orient="top", title="Output"),
            ),
            tooltip=[
                alt.Tooltip("strategy:N", title="Strategy"),
                alt.Tooltip("output_chars:Q", title="Characters out", format=","),
                alt.Tooltip("tokens_estimate:Q", title="Tokens (estimate)", format=","),
                alt.Tooltip("output_messages:Q", title="Messages out"),
                alt.Tooltip("cut_messages:Q", title="Messages cut"),
            ],
        )
    )
    # a band per strategy, however many (a fixed height with a fixed bar left no gaps)
    chart = alt.layer(bars, rule_line(budget, f"budget {budget:,}"))
    return sized(chart, alt.Step(30) if height is None else height)
