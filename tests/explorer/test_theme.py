"""One colour per fate, distinct, and the other colours never taken for a fate."""

from compactor import Fate
from explorer import theme
from explorer.navigation import PAGES
from explorer.widgets import common
from explorer.widgets.params import threshold_format
from tests.paths import ROOT


def test_every_fate_has_its_own_colour_and_meaning():
    assert tuple(f.value for f in Fate) == theme.FATES
    colours = [theme.FATE_COLOURS[f] for f in theme.FATES]
    assert len(set(colours)) == 5
    others = {theme.BUDGET_COLOUR, theme.TOTAL_COLOUR, theme.CUT_COLOUR}
    others |= set(theme.COMPONENT_COLOURS.values())
    assert not others & set(colours)
    assert set(theme.FATE_MEANINGS) == set(theme.FATES)


def test_the_legend_lists_every_fate_in_its_colour():
    legend = common.fate_legend_html()
    for fate in theme.FATES:
        assert f">{fate}</span>" in legend
        assert theme.FATE_COLOURS[fate] in legend


def test_every_page_exists_and_one_is_the_default():
    assert all((ROOT / spec.path).is_file() for spec in PAGES)
    assert [spec.title for spec in PAGES if spec.default] == ["Overview"]
    assert [spec.url_path for spec in PAGES if spec.default] == [""]
    assert len({spec.path for spec in PAGES}) == len(PAGES)


def test_the_threshold_slider_shows_every_decimal():
    assert threshold_format(0.9) == "%.2f"
    assert threshold_format(1) == "%.2f"
    assert threshold_format(0.875) == "%.3f"
    assert threshold_format(0.123456789) == "%.6f"
