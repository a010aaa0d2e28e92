"""Strategies: LLM compact runs only on its button, through the configured provider (the test
server, over the real openai client), once per request; its losses are read from the anchors;
a provider failure is a message on the page; the key never reaches the page."""

from compactor import run, validate
from compactor.analyses.anchors._report import anchor_report
from compactor.providers import PROVIDERS_ENV
from harness.apptest import assert_clean, on_page, page_text, table
from tests.explorer.requests import rich_request
from tests.llm_server import SECRET

PAGE = "pages/strategies.py"


def test_without_providers_the_page_says_how_to_configure_one(monkeypatch):
    monkeypatch.delenv(PROVIDERS_ENV, raising=False)
    at = on_page(PAGE, rich_request())
    assert_clean(at)
    assert any(PROVIDERS_ENV in i.value for i in at.info)
    assert "llm_run" not in [b.key for b in at.button]


def test_it_runs_on_the_button_once_and_shows_what_the_summary_lost(configured):
    at = on_page(PAGE, rich_request())
    assert_clean(at)
    assert configured.calls == []  # drawing the page calls nobody
    at.button(key="llm_run").click().run()
    assert_clean(at)
    calls = len(configured.calls)
    assert calls >= 1
    totals = table(at, "anchors_kept")
    result = run(validate(rich_request()))
    report = anchor_report(result)
    assert totals.loc[totals["strategy"] == "memory-compact", "anchors_kept"].item() == (
        report.kept_count
    )
    at.run()  # a rerun (a slider move elsewhere) does not call again
    assert len(configured.calls) == calls
    assert at.button(key="llm_run").disabled  # the answer is kept for this request
    assert table(at, "anchors_kept") is not None
    assert SECRET not in page_text(at)


def test_a_provider_failure_is_a_message_and_the_page_keeps_working(configured):
    configured.behaviour.fail_status = 500
    at = on_page(PAGE, rich_request())
    at.button(key="llm_run").click().run()
    assert_clean(at)
    assert any("LLM compact did not run" in e.value for e in at.error)
    assert SECRET not in page_text(at)
    assert table(at, "tokens_estimate") is not None  # the other strategies are still there
