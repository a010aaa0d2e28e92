""" "Download report" on Overview, Transcript and Strategies (issue 40): the file is the report of
the page's decision (the sidebar's parameters, the page's own lineup), named by the day, and the
Redacted choice leaves every message's content out; presentation mode on Transcript and Overview
puts the Walkthrough's large type on the page and folds the sidebar away."""

from __future__ import annotations

import re

import pytest

from compactor import validate
from compactor.strategies import compare_strategies
from explorer.widgets.tuning import PRESENTING_KEY, STAGE_KEY
from harness.apptest import assert_clean, downloads, on_page, set_param
from tests.explorer.requests import rich_request

LABEL = "Download report"
FILE = re.compile(r"^compaction-report-\d{4}-\d{2}-\d{2}\.html$")


def contents() -> list[str]:
    return [m["content"] for m in rich_request()["messages"]]


def styles(at) -> str:
    return "".join(h.value for h in at.html if h.value.startswith("<style>"))


def presents(at) -> None:
    """Presentation mode: the Walkthrough's large type on the page, the sidebar folded; off
    again, neither."""
    at.toggle(key=PRESENTING_KEY).set_value(True).run()
    assert_clean(at)
    css = styles(at)
    assert f".st-key-{STAGE_KEY} p" in css
    assert '[data-testid="stSidebar"]' in css and "display: none" in css
    at.toggle(key=PRESENTING_KEY).set_value(False).run()
    assert f".st-key-{STAGE_KEY}" not in styles(at)


def test_overview_downloads_the_report_and_its_redacted_variant_and_presents():
    with downloads() as found:
        at = on_page("pages/overview.py", rich_request())
        set_param(at, "budget_chars", 700)
        full = found[LABEL]
        at.toggle(key="overview_download_report_redacted").set_value(True).run()
        redacted = found[LABEL]
    assert_clean(at)
    assert FILE.match(full["file_name"]) and full["mime"] == "text/html"
    page = full["data"].decode("utf-8")
    assert "budget_chars = 700" in page and "The conversation before and after" in page
    hidden = redacted["data"].decode("utf-8")
    assert "budget_chars = 700" in hidden and "Redacted" in hidden
    long_ones = [c for c in contents() if len(c) > 30]
    assert long_ones and all(c in page for c in long_ones[:1])
    assert all(c not in hidden for c in contents())
    presents(at)


@pytest.mark.parametrize("path", ["pages/transcript.py", "pages/strategies.py"])
def test_transcript_and_strategies_download_the_same_decision_and_transcript_presents(path):
    with downloads() as found:
        at = on_page(path, rich_request())
        set_param(at, "budget_chars", 800)
    assert_clean(at)
    page = found[LABEL]["data"].decode("utf-8")
    assert "budget_chars = 800" in page
    if path == "pages/transcript.py":
        presents(at)
    request = validate({**rich_request(), "budget_chars": 800})
    for result in compare_strategies(request).results:  # the lineup at the sidebar's budget
        if result.available:
            assert f"<td>{result.output_chars:,}</td>" in page, result.name
