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

#: The budget (and other limits drawn as rule lines): dark, dashed, never a fate colour.
BUDGET_COLOUR = "#222222"
THRESHOLD_COLOUR = "#222222"
#: Totals in the waterfall (input, output): neutral.
TOTAL_COLOUR = "#8C8C8C"
#: The part of a trimmed message that was cut off.
CUT_COLOUR = "#D9D9D9"
#: The score components: greys, so they never read as fates.
COMPONENT_COLOURS: Mapping[str, str] = MappingProxyType(
    {"recency": "#3B3B3B", "role": "#8A8A8A", "topic overlap": "#C8C8C8"}
)
#: Background of shared words in a duplicate pair (a light tint of the duplicate colour).
SHARED_WORD_BACKGROUND = "#F5DCEB"
#: Background of the text a trim cut off (a light tint of the trimmed colour).
CUT_TEXT_BACKGROUND = "#FCEBCB"


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
