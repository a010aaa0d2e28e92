"""The report of one decision and of a corpus: every figure the engine's, message contents
(untrusted) escaped into text that runs and loads nothing, the redacted variant without any
content or id, and the charts' specs unable to end the block they sit in."""

from __future__ import annotations

import html
import json
from datetime import UTC, datetime
from html.parser import HTMLParser

import pytest

from compactor import run, validate
from compactor.analyses.outcomes import continuation_check
from compactor.evaluation import CorpusItem, RunOptions, evaluate, grid_points, summarise
from compactor.wording import met_share, percent
from explorer.frames import transcript as transcript_frames
from explorer.report import CostColumn, corpus_report, decision_report, file_name, render
from explorer.report.render import ScriptSafeJSON
from tests.explorer.requests import HOSTILE, hostile_request, rich_request

MADE = datetime(2026, 12, 6, 21, 30, tzinfo=UTC)
#: Contents that would end a script block or open a link if anything wrote them as markup.
BREAKOUT = "</script><script>alert(3)</script> [x](javascript:alert(4)) <a href=x>a</a>"


def hostile() -> dict:
    request = hostile_request()
    request["messages"].append({"role": "user", "content": BREAKOUT, "id": "</script>"})
    return request


class Elements(HTMLParser):
    """Every start tag of a document with its attributes, and the text of each script."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self._in_script: dict[str, str | None] | None = None
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._in_script = dict(attrs)
            self.scripts.append((self._in_script, ""))

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = None

    def handle_data(self, data):
        if self._in_script is not None:
            attrs, text = self.scripts[-1]
            self.scripts[-1] = (attrs, text + data)
        else:
            self.text.append(data)


def parsed(page: str) -> Elements:
    elements = Elements()
    elements.feed(page)
    return elements


@pytest.fixture(scope="module")
def hostile_page() -> tuple[dict, str]:
    request = validate(hostile())
    return hostile(), render(decision_report(request, made=MADE))


@pytest.fixture(scope="module")
def redacted_page() -> tuple[dict, str]:
    request = validate(hostile())
    return hostile(), render(decision_report(request, redacted=True, made=MADE, name="secret.json"))


def test_hostile_contents_are_text_that_runs_and_loads_nothing(hostile_page):
    given, page = hostile_page
    found = parsed(page)
    tags = {tag for tag, _ in found.tags}
    assert not tags & {"img", "a", "iframe", "object", "embed", "link", "b", "i"}
    assert [(t, a) for t, a in found.tags if any(k.startswith("on") for k in a)] == []
    # the page's two scripts carry the nonce its policy allows; every other block is data
    nonce = next(a for t, a in found.tags if t == "meta" and a.get("http-equiv"))["content"]
    runnable = [a for a, _ in found.scripts if a.get("type") != "application/json"]
    assert len(runnable) == 2 and all(f"'nonce-{a['nonce']}'" in nonce for a in runnable)
    assert "default-src 'none'" in nonce
    for attrs, text in found.scripts:
        if attrs.get("type") == "application/json":
            json.loads(text)  # a whole JSON document: nothing inside it ended the block
    shown = "".join(found.text)
    for message in given["messages"]:
        assert message["content"] in shown  # every character as the reader typed it
    assert html.escape(HOSTILE[1]) in page and HOSTILE[1] not in page


def test_the_report_holds_the_engines_figures(hostile_page):
    given, page = hostile_page
    request = validate(given)
    result = run(request)
    shown = "".join(parsed(page).text)
    assert transcript_frames.summary(transcript_frames.transcript_frame(result)) in shown
    assert page.count('<article class="message') == len(result.messages)
    for trace in result.messages:
        note = transcript_frames.note(trace)
        assert note.split(" of #")[0] in shown
    check = continuation_check(request)
    if check.valid and check.setting is not None and check.setting.needs:
        assert percent(check.setting.recall) in shown and percent(check.keep_last.recall) in shown
    assert "Judge: needed-later recall" in shown
    for title in ("The setting", "What each stage removed", "The strategies at the same budget",
                  "The cost per turn", "The conversation before and after"):  # fmt: skip
        assert title in shown
    assert 'strategy = "memory-compact"' in shown and f"budget_chars = {given['budget_chars']}"
    assert "Made on 2026-12-06 21:30 UTC by compaction explorer" in shown


def test_the_redacted_report_holds_no_content_and_no_id(redacted_page):
    given, page = redacted_page
    shown = "".join(parsed(page).text)
    for message in given["messages"]:
        assert message["content"] not in page
        assert html.escape(message["content"]) not in page
        assert message.get("id") is None or f"({html.escape(message['id'])})" not in page
    assert "secret.json" not in page
    result = run(validate(given))
    first = result.messages[1]
    assert f"[{first.original_chars:,} characters, {first.fate.value}]" in shown
    assert "Redacted" in shown


def test_a_chart_spec_cannot_end_its_script_block():
    text = json.dumps({"a": "</script><b>&\u2028"}, cls=ScriptSafeJSON)
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == {"a": "</script><b>&\u2028"}


def test_a_cost_column_plugs_into_the_cost_per_turn():
    request = validate(rich_request())
    price = CostColumn("price", lambda t: f"{t.chars_out / 4 * 0.000003:.6f} USD")
    report = decision_report(request, cost_columns=[price], made=MADE)
    cost = next(s for s in report.sections if s.key == "cost")
    table = cost.tables[0]
    assert table.columns[-1] == "price" and len(table.rows) == len(request.messages) - 1
    assert report.file_name == file_name(MADE) == "compaction-report-2026-12-06.html"


def test_a_corpus_report_holds_the_setting_beside_keep_last_and_random():
    items = [CorpusItem(0, rich_request()), CorpusItem(1, hostile())]
    rows = evaluate(items, grid_points({}), [900], RunOptions(workers=1, future=3))
    summaries = summarise(rows)
    report = corpus_report(summaries, conversations=2, name="two", made=MADE)
    table = report.sections[0].tables[0]
    labels = [row[0] for row in table.rows]
    assert labels[0].startswith("memory-compact at 900 characters")
    # both forms of each baseline, each named by its form as the Corpus page names it
    assert sorted(labels[1:]) == [
        "keep-last, bare at 900 characters",
        "keep-last, system + pinned kept at 900 characters",
        "random, bare at 900 characters",
        "random, system + pinned kept at 900 characters",
    ]
    met = table.columns.index("budget met")
    ours = summaries[0]
    count = round(ours["budget_met_rate"] * ours["conversations"])
    assert table.rows[0][met] == met_share(count, 2)
    page = render(report)
    assert "Compaction report: a corpus" in page and "Corpus: two" in page
