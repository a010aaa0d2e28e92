"""Colours shared by every page: one colour per fate, defined once, always with a legend."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import altair as alt

from compactor import Fate

#: The fates in the order the pipeline decides them (and the order of every legend).
FATES: tuple[str, ...] = tuple(f.value for f in Fate)

# Okabe-Ito colours: distinguishable with the common colour-vision deficiencies and in print.
FATE_COLOURS: Mapping[str, str] = MappingProxyType(
    {
        Fate.PROTECTED.value: "#0072B2",  # blue
        Fate.VERBATIM.value: "#009E73",  # bluish green
        Fate.TRIMMED.value: "#E69F00",  # orange
        Fate.DUPLICATE.value: "#CC79A7",  # reddish purple
        Fate.DROPPED.value: "#D55E00",  # vermilion
    }
)
#: One line per fate, for legends in prose and for help texts.
FATE_MEANINGS: Mapping[str, str] = MappingProxyType(
    {
        Fate.PROTECTED.value: "kept whole because a pin rule protects it (pin, role or recent)",
        Fate.VERBATIM.value: "not protected, kept whole",
        Fate.TRIMMED.value: "not protected, kept as a prefix (cut at a sentence end or hard)",
        Fate.DUPLICATE.value: "removed by dedupe as a near-duplicate of an earlier message",
        Fate.DROPPED.value: "removed by drop, lowest score first, to meet the budget",
    }
)

#: Ink: the page's own text colour, so rules, labels, outlines and lines read on Streamlit's
#: light and dark themes alike, and follow a theme switch without a rerun. An SVG mark painted
#: "currentColor" takes the colour of the text around the chart; a canvas cannot, so a chart
#: that Streamlit draws on a canvas (thousands of rows) uses :data:`CANVAS_INK` instead.
INK = "currentColor"
#: Ink for a chart drawn on a canvas: a mid grey, readable on a white and a near-black page.
CANVAS_INK = "#8C8C8C"
#: The budget (and other limits drawn as rule lines): ink, dashed, never a fate colour.
BUDGET_COLOUR = INK
THRESHOLD_COLOUR = INK
#: Totals in the waterfall (input, output) and other neutral bars: a mid grey for both themes.
TOTAL_COLOUR = "#8C8C8C"
#: The part of a trimmed message that was cut off: a translucent grey, faint on either theme.
CUT_COLOUR = "rgba(140, 140, 140, 0.4)"
#: The diagonal "output = budget": light, dotted, never a fate colour.
DIAGONAL_COLOUR = "#9E9E9E"
#: A message the walkthrough has not decided yet (before drop): a neutral grey.
UNDECIDED_COLOUR = "#BDBDBD"
#: The walkthrough's running totals: steps done, and the step shown (in ink, so it stands out).
PHASE_COLOURS: Mapping[str, str] = MappingProxyType({"done": "#9E9E9E", "this step": INK})
#: The score components: greys, so they never read as fates; mid-tones that hold on both themes.
COMPONENT_COLOURS: Mapping[str, str] = MappingProxyType(
    {"recency": "#66707C", "role": "#9AA3AD", "topic overlap": "#CED3D9"}
)
#: Background of shared words in a duplicate pair: a translucent tint of the duplicate colour,
#: so the text on it keeps the theme's own colour and contrast.
SHARED_WORD_BACKGROUND = "rgba(204, 121, 167, 0.3)"
#: Background of the text a trim cut off: a translucent tint of the trimmed colour.
CUT_TEXT_BACKGROUND = "rgba(230, 159, 0, 0.22)"
#: Background of a row where A and B differ: a translucent yellow (no fate's colour), so the
#: row's text keeps the theme's colour on light and dark alike.
DIFF_ROW_BACKGROUND = "rgba(240, 228, 66, 0.3)"


def fate_color(
    field: str = "fate", title: str = "Fate", fates: tuple[str, ...] = FATES
) -> alt.Color:
    """The colour encoding of a fate field: the same colours, in the same order, everywhere.

    ``fates`` narrows the legend to the fates a chart can show (the output holds no duplicate).
    """
    return alt.Color(
        f"{field}:N",
        title=title,
        scale=alt.Scale(domain=list(fates), range=[FATE_COLOURS[f] for f in fates]),
        legend=alt.Legend(orient="top", title=title),
    )


def component_color(title: str = "Score component") -> alt.Color:
    names = list(COMPONENT_COLOURS)
    return alt.Color(
        "component:N",
        title=title,
        scale=alt.Scale(domain=names, range=[COMPONENT_COLOURS[n] for n in names]),
        legend=alt.Legend(orient="top", title=title),
        sort=names,
    )


#: Settings compared side by side (the Replay page's A and B): Paul Tol's "bright" blue and red,
#: told apart with the common colour-vision deficiencies, 3:1 or more on the light and the dark
#: theme alike, and never a fate's colour.
LOOP_COLOURS: tuple[str, ...] = ("#4477AA", "#EE6677")
