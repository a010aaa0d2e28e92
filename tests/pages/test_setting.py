"""The setting file from the explorer to the command line: what "Download setting" saves is the
sidebar's setting (or a Corpus setting), ``compact --setting`` with it gives the response the
sidebar's request gives, the Output page's snippets read it, and a setting file uploaded on the
Conversation page (or "Use this setting" on the Corpus page) sets the sidebar."""

import json
import os
import subprocess
import sys

import pytest

from compactor import compact
from compactor.integrations import Setting, load_setting, setting_from_toml, setting_toml
from explorer.corpus import results as corpus_results
from explorer.frames import snippets
from explorer.session import state
from explorer.widgets import setting as setting_widgets
from harness.apptest import assert_clean, downloads, goto, on_page, params, request_of, set_param
from tests.explorer.requests import rich_request
from tests.paths import ROOT

LABEL = "Download setting"
TAU = ROOT / "tests" / "fixtures" / "real" / "tau_airline_3_records.json"


def compact_cli(request_path, setting_path):
    done = subprocess.run(
        [sys.executable, "-m", "compactor", "compact", str(request_path), "--setting"]
        + [str(setting_path)],
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr.decode()
    return json.loads(done.stdout)


def saved(found, tmp_path, name="compaction.toml"):
    """The download's file, written where the command line reads it."""
    button = found[LABEL]
    assert button["file_name"] == "compaction.toml" and button["mime"] == "application/toml"
    path = tmp_path / name
    path.write_text(button["data"], "utf-8")
    return path


@pytest.mark.parametrize("page", ["pages/overview.py", "pages/output.py"])
def test_the_downloaded_setting_gives_the_cli_the_sidebars_response(page, tmp_path):
    with downloads() as found:
        at = on_page(page, rich_request())
        set_param(at, "keep_last_n", 5)
        set_param(at, "keep_roles", ["system", "tool"])
        set_param(at, "budget_chars", 900)
    assert_clean(at)
    setting = load_setting(saved(found, tmp_path))
    assert setting == snippets.sidebar_setting(params(at))
    # the conversation alone (no parameters of its own): every parameter comes from the setting
    request = tmp_path / "conversation.json"
    request.write_text(json.dumps(rich_request()["messages"]), "utf-8")
    assert compact_cli(request, tmp_path / "compaction.toml") == compact(request_of(at))


def test_the_name_and_note_go_into_the_file_and_follow_to_the_other_page():
    with downloads() as found:
        at = on_page("pages/overview.py", rich_request())
        at.text_input(key=setting_widgets.NAME_KEY).set_value("support bot").run()
        at.text_input(key=setting_widgets.NOTE_KEY).set_value('chosen for "Acme" #2').run()
        overview = setting_from_toml(found[LABEL]["data"])
        goto(at, "pages/output.py")
    assert_clean(at)
    assert (overview.name, overview.note) == ("support bot", 'chosen for "Acme" #2')
    assert setting_from_toml(found[LABEL]["data"]) == overview


def test_the_output_pages_snippets_read_the_setting():
    with downloads() as found:
        at = on_page("pages/output.py", rich_request())
        set_param(at, "max_message_chars", 120)
    assert_clean(at)
    setting = setting_from_toml(found[LABEL]["data"])
    code = {c.language: c.value for c in at.code if c.language in ("toml",)}
    assert code["toml"] == found[LABEL]["data"].rstrip("\n")
    python = [c.value for c in at.code if c.language == "python"]
    assert snippets.shrink_snippet(setting).rstrip("\n") in python
    assert snippets.langchain_snippet(setting).rstrip("\n") in python
    assert "max_message_chars 120" in snippets.shrink_snippet(setting)
    # the service is sent the setting's request: the sidebar's
    assert snippets.setting_request(request_of(at), setting) == request_of(at)


def test_the_shrink_snippet_runs_with_the_downloaded_file(tmp_path, monkeypatch):
    with downloads() as found:
        at = on_page("pages/output.py", rich_request())
    saved(found, tmp_path)
    monkeypatch.chdir(tmp_path)
    setting = setting_from_toml(found[LABEL]["data"])
    scope: dict = {}
    exec(snippets.shrink_snippet(setting), scope)  # the snippet as the page shows it
    messages = rich_request()["messages"]
    shrunk = scope["history_to_send"]([{k: m[k] for k in ("role", "content")} for m in messages])
    response = compact(request_of(at))
    assert [m["content"] for m in shrunk] == [m["content"] for m in response["messages"]]


def upload(at, text, name="compaction.toml"):
    field = at.file_uploader(key=setting_widgets.UPLOAD_KEY)
    return field.set_value((name, text.encode("utf-8"), "application/toml")).run()


def test_an_uploaded_setting_file_sets_the_sidebar():
    at = on_page("pages/conversation.py", rich_request())
    chosen = Setting(
        budget_chars=1300, params={"keep_last_n": 4, "duplicate_threshold": 0.75}, name="x"
    )
    upload(at, setting_toml(chosen))
    assert_clean(at)
    shown = params(at)
    assert (shown["budget_chars"], shown["keep_last_n"], shown["duplicate_threshold"]) == (
        1300,
        4,
        0.75,
    )
    assert shown["max_message_chars"] == rich_request()["max_message_chars"]  # not in the file
    assert any("Applied compaction.toml to the sidebar" in s.value for s in at.success)


@pytest.mark.parametrize(
    "text, says",
    [
        ("budget_chars = 900\n\n[params]\nkeep_last_n = 99\n", "params.keep_last_n"),
        ('strategy = "keep-last"\nbudget_chars = 900\n', "names keep-last"),
        ("budget_chars = \n", "is not TOML"),
    ],
)
def test_an_uploaded_setting_that_cannot_be_used_says_where_and_changes_nothing(text, says):
    at = on_page("pages/conversation.py", rich_request())
    before = params(at)
    upload(at, text, "my setting.toml")
    assert_clean(at)
    assert params(at) == before
    assert any("cannot be used" in e.value for e in at.error)
    problems = "\n".join(str(v) for d in at.dataframe for v in d.value.to_numpy().ravel())
    assert says in problems and "my setting.toml" in problems


@pytest.fixture(scope="module")
def corpus_page():
    from tests.pages.test_corpus import load_path, on_corpus_page, run_grid

    with downloads() as found:
        at = run_grid(load_path(on_corpus_page(), TAU), budgets="2000,6000")
    assert_clean(at)
    return at, found


def test_a_corpus_setting_downloads_with_its_figures_and_gates_in_the_cli(corpus_page, tmp_path):
    at, found = corpus_page
    chosen = at.selectbox(key=corpus_results.SETTING_KEY).value
    setting = setting_from_toml(found[LABEL]["data"])
    assert chosen.startswith(
        f"budget {setting.budget_chars:,} · last {setting.params['keep_last_n']}"
    )
    assert setting.note.startswith("chosen on the Corpus page over tau_airline_3_records.json")
    met = at.metric[4].value  # "Budget met" of the chosen setting: "0 of 3, 0.0%"
    assert f"budget met {met}" in setting.note
    share = met.rsplit(", ", 1)[-1]  # the percentage, rounded down: a threshold the gate holds
    path = saved(found, tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "compactor", "evaluate", str(TAU), "--setting", str(path)]
        + ["--workers", "1", "--fail-under", f"budget_met={share}"],
        capture_output=True,
        cwd=ROOT,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stdout.decode() + done.stderr.decode()


def test_use_this_setting_puts_the_corpus_setting_into_the_sidebar(corpus_page):
    at, found = corpus_page
    setting = setting_from_toml(found[LABEL]["data"])
    at.button(key=corpus_results.USE_KEY).click().run()
    assert_clean(at)
    shown = params(at)
    assert shown == {
        "budget_chars": setting.budget_chars,
        **{k: list(v) if isinstance(v, tuple) else v for k, v in setting.params.items()},
    }
    assert any("The sidebar now holds this setting." in s.value for s in at.success)
    assert at.session_state[state.CONVERSATION_KEY] is not None


def test_the_corpus_report_holds_the_runs_summary_and_the_chosen_setting(corpus_page):
    # "Download report" beside "Download setting": the run's summaries and the same setting
    at, found = corpus_page
    report = found["Download report"]
    assert report["mime"] == "text/html" and report["file_name"].startswith("compaction-report-")
    page = report["data"].decode("utf-8")
    setting = setting_from_toml(found[LABEL]["data"])
    assert "The corpus summary" in page and "Corpus: tau_airline_3_records.json" in page
    assert f"budget_chars = {setting.budget_chars}" in page
    assert "keep-last, bare at 2,000 characters" in page
    assert "random, bare at 6,000 characters" in page
