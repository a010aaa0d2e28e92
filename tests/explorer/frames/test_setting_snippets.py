"""The setting as the explorer writes it: the sidebar's five parameters as a memory-compact
setting read back equal, the request it sends the service, the sidebar values a setting gives,
the agent snippets (valid Python that names the file and the setting) and a Corpus note."""

import ast

import pytest

from compactor.integrations import Setting, SettingError, setting_from_toml
from explorer.corpus import frames as corpus_frames
from explorer.frames import snippets
from tests.explorer.requests import rich_request

SIDEBAR = {
    "budget_chars": 1800,
    "keep_last_n": 4,
    "keep_roles": ["system", "tool"],
    "duplicate_threshold": 0.85,
    "max_message_chars": 250,
}


def test_the_sidebar_is_a_memory_compact_setting_that_reads_back_equal():
    setting = snippets.sidebar_setting(SIDEBAR, " bot ", "")
    assert setting.to_dict() == {
        "name": "bot",
        "strategy": "memory-compact",
        "budget_chars": 1800,
        "params": {k: v for k, v in SIDEBAR.items() if k != "budget_chars"},
    }
    assert setting_from_toml(snippets.setting_file(setting)) == setting


def test_a_sidebar_budget_over_the_contracts_is_an_agent_setting():
    assert snippets.sidebar_setting({**SIDEBAR, "budget_chars": 400_000}).limits is None
    setting = snippets.sidebar_setting({**SIDEBAR, "budget_chars": 1_500_000})
    assert setting.limits == "agent"
    assert setting_from_toml(snippets.setting_file(setting)) == setting


def test_the_services_request_is_the_sidebars_request():
    request = {**rich_request(), **SIDEBAR}
    setting = snippets.sidebar_setting(SIDEBAR)
    assert snippets.setting_request(request, setting) == request
    assert list(snippets.setting_request(request, setting)) == list(request)  # same JSON text


def test_a_setting_gives_the_sidebar_its_parameters_and_budget():
    setting = Setting(budget_chars=900, params={"keep_last_n": 1})
    assert snippets.sidebar_values(setting) == {"keep_last_n": 1, "budget_chars": 900}
    tokens = Setting(budget_tokens=300, params={"keep_roles": ["user"]})
    assert snippets.sidebar_values(tokens, 1234) == {"keep_roles": ["user"], "budget_chars": 1234}
    with pytest.raises(SettingError) as caught:
        snippets.sidebar_values(Setting(strategy="keep-last", budget_chars=900))
    assert caught.value.problems[0].path == "strategy"


@pytest.mark.parametrize("write", [snippets.shrink_snippet, snippets.langchain_snippet])
def test_the_agent_snippets_are_python_naming_the_file_and_the_setting(write):
    setting = snippets.sidebar_setting(SIDEBAR)
    code = write(setting, "my-setting.toml")
    ast.parse(code)
    assert '"my-setting.toml"' in code
    flat = " ".join(line.lstrip("# ") for line in code.splitlines())
    assert "memory-compact at 1,800 characters, keep_last_n 4, keep_roles system+tool" in flat
    assert all(len(line) <= 100 for line in code.splitlines())


def test_a_token_budget_is_said_in_tokens():
    setting = Setting(budget_tokens=2000, encoding="cl100k_base")
    assert snippets.setting_words(setting) == "memory-compact at 2,000 cl100k_base tokens"


def test_a_corpus_setting_note_says_where_and_how_it_did():
    summary = {
        "budget_met_rate": 0.5,
        "conversations": 12,
        "retention": 0.8125,
        "needed_recall": float("nan"),
    }
    assert corpus_frames.setting_note("runs.jsonl", summary) == (
        "chosen on the Corpus page over runs.jsonl (12 conversations): budget met 50.0%, "
        "anchors kept 81.2%"
    )
