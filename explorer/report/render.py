"""A report as one self-contained HTML file: its styles, its data, its charts and the libraries
that draw them all inside, so it opens from disk or an e-mail attachment with no network and no
server.

The page is a Jinja2 template with autoescaping on: every text of a report, message contents
above all (untrusted), is escaped, never markup. Each chart is Altair's own HTML export
(``to_html``) of its Vega-Lite spec, written as a JSON data block (``<``, ``>`` and ``&``
escaped, so no text inside it can close the block); Vega, Vega-Lite and Vega-Embed are inlined
once, the bundle Altair itself inlines with ``to_html(inline=True)`` (vl-convert-python's),
where Altair's default page would load them from a CDN. A content security policy lets only
the page's own two scripts run (a nonce) and loads nothing from anywhere.
"""

from __future__ import annotations

import json
import os
import secrets
from functools import cache
from pathlib import Path
from typing import Any

import altair as alt
import jinja2
from markupsafe import Markup

from explorer.report.contents import Report
from explorer.theme import FATE_COLOURS

TEMPLATE = "report.html"
#: The page around each chart's spec: a box to draw in and the spec as a data block (never run).
CHART_TEMPLATE = jinja2.Template(
    '<div class="chart" id="{{ output_div }}"></div>\n'
    '<script type="application/json" id="{{ output_div }}-spec">'
    '{"spec": {{ spec }}, "embed": {{ embed_options }}}</script>'
)
#: Vega-Embed's options: SVG (its marks can be counted), no action menu (its links leave the
#: file for the Vega editor).
EMBED_OPTIONS = {"renderer": "svg", "actions": False}


class ScriptSafeJSON(json.JSONEncoder):
    """JSON whose text cannot end the ``<script>`` block it sits in, nor start markup: ``<``,
    ``>`` and ``&`` (and the two line separators JavaScript reads as line ends) as escapes."""

    def encode(self, o: Any) -> str:
        text = super().encode(o)
        for char, escape in (
            ("<", "\\u003c"),
            (">", "\\u003e"),
            ("&", "\\u0026"),
            ("\u2028", "\\u2028"),
            ("\u2029", "\\u2029"),
        ):
            text = text.replace(char, escape)
        return text


def vega_version() -> str:
    """The Vega-Lite version Altair writes, as vl-convert names its bundles (``v6_4``)."""
    major, minor = alt.VEGALITE_VERSION.split(".")[:2]
    return f"v{major}_{minor}"


def bundle_file(version: str) -> Path:
    """Where a built bundle is kept between runs: building one takes vl-convert about ten
    seconds, reading it a millisecond (``$XDG_CACHE_HOME``, else ``~/.cache``)."""
    import vl_convert

    home = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(home) / "compaction-explorer" / f"vega-{vl_convert.__version__}-{version}.js"


@cache
def vega_bundle() -> str:
    """Vega, Vega-Lite and Vega-Embed in one script, the bundle Altair inlines
    (vl-convert-python's), for the Vega-Lite version Altair writes; built once and kept."""
    import vl_convert

    version = vega_version()
    path = bundle_file(version)
    try:
        bundle = path.read_text("utf-8")
    except OSError:
        bundle = vl_convert.javascript_bundle(vl_version=version)
        try:  # a cache: a machine that cannot keep it builds the bundle again next time
            path.parent.mkdir(parents=True, exist_ok=True)
            part = path.with_name(f"{path.name}.{os.getpid()}.part")
            part.write_text(bundle, "utf-8")
            part.replace(path)
        except OSError:
            pass
    if "</script" in bundle.lower():  # would end the block it is inlined in
        raise ValueError(f"the Vega bundle ({path}) holds '</script' and cannot be inlined")
    return bundle


def chart_html(chart: alt.TopLevelMixin, key: str) -> Markup:
    """One chart as Altair exports it, into a box with the id ``key``: its spec, not run; as
    wide as the page (the explorer's charts take the width Streamlit gives them)."""
    chart = chart.properties(width="container")
    return Markup(
        chart.to_html(
            output_div=key,
            fullhtml=False,
            template=CHART_TEMPLATE,
            embed_options=dict(EMBED_OPTIONS),
            json_kwds={"cls": ScriptSafeJSON},
        )
    )


@cache
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(Path(__file__).parent),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def render(report: Report) -> str:
    """The report as one HTML document, everything it needs inside."""
    charts = [
        [chart_html(chart, f"chart-{s}-{c}") for c, chart in enumerate(section.charts)]
        for s, section in enumerate(report.sections)
    ]
    return (
        _environment()
        .get_template(TEMPLATE)
        .render(
            report=report,
            charts=charts,
            nonce=secrets.token_urlsafe(16),
            bundle=Markup(vega_bundle()),
            colours=FATE_COLOURS,
            made=report.made.strftime("%Y-%m-%d %H:%M UTC"),
        )
    )
