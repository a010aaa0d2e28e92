"""Provider configuration: the TOML file, the command line, and no place for a key."""

from urllib.parse import quote

import pytest

from compactor.errors import InvalidRequest
from compactor.providers import (
    COMMAND_LINE,
    ProviderConfig,
    ProviderConfigError,
    ProviderRegistry,
    command_line_provider,
    load_providers,
    parse_providers,
)
from tests.llm_server import SECRET
from tests.paths import ROOT

EXAMPLE = """
[providers.local]
kind = "openai"
base_url = "http://localhost:11434/v1"
model = "llama3.2"
context_window_tokens = 8192

[providers.claude]
kind = "anthropic"
api_key_env = "ANTHROPIC_API_KEY"
timeout_seconds = 20
max_retries = 0
"""


def problems(text: str) -> list[str]:
    with pytest.raises(ProviderConfigError) as caught:
        parse_providers(text, "providers.toml")
    return [str(p) for p in caught.value.problems]


def test_the_readme_example_gives_two_providers_with_stated_defaults():
    configs = parse_providers(EXAMPLE)
    assert configs == {
        "local": ProviderConfig(
            name="local",
            kind="openai",
            base_url="http://localhost:11434/v1",
            model="llama3.2",
            context_window_tokens=8192,
        ),
        "claude": ProviderConfig(
            name="claude",
            kind="anthropic",
            base_url="https://api.anthropic.com",
            api_key_env="ANTHROPIC_API_KEY",
            timeout_seconds=20.0,
            max_retries=0,
        ),
    }
    local = configs["local"]
    assert (local.timeout_seconds, local.max_retries, local.max_output_tokens) == (60.0, 2, 1024)


def test_a_file_is_read_and_a_missing_one_says_so(tmp_path):
    path = tmp_path / "providers.toml"
    path.write_text(EXAMPLE, "utf-8")
    assert set(load_providers(path)) == {"local", "claude"}
    with pytest.raises(ProviderConfigError, match="cannot read the providers file"):
        load_providers(tmp_path / "missing.toml")


def test_toml_syntax_errors_name_line_and_column():
    assert problems('[providers.local\nkind = "openai"') == [
        "line 1, column 17: Expected ']' at the end of a table declaration (in providers.toml)"
    ]


def test_every_field_problem_is_reported_with_its_path():
    text = """
[providers.local]
kind = "mistral"
modle = "x"
timeout_seconds = 0
max_retries = 9
context_window_tokens = 10

[providers."bad name"]
kind = "openai"
"""
    assert problems(text) == [
        "providers.local.context_window_tokens: must be at least 256; it is 10 (in providers.toml)",
        'providers.local.kind: must be one of "openai", "anthropic", not "mistral" '
        "(in providers.toml)",
        "providers.local.max_retries: must be at most 5; it is 9 (in providers.toml)",
        "providers.local.modle: unknown field; allowed fields are kind, base_url, api_key_env, "
        "model, context_window_tokens, max_output_tokens, timeout_seconds, "
        "connect_timeout_seconds, max_retries, max_answer_bytes (in providers.toml)",
        "providers.local.timeout_seconds: must be at least 0.1; it is 0 (in providers.toml)",
        "providers[\"bad name\"]: a provider name is 1 to 64 letters, digits, '.', '_' or "
        "'-', starting with a letter or digit (in providers.toml)",
    ]


@pytest.mark.parametrize(
    "line",
    [
        f'api_key = "{SECRET}"',
        f'token = "{SECRET}"',
        f'api_key_env = "{SECRET}-x"',
        f'base_url = "https://user:{quote(SECRET, safe="")}@api.example.com/v1"',
        f'base_url = "https://api.example.com/v1?key={SECRET}"',
    ],
)
def test_a_key_in_the_file_is_refused_without_repeating_it(line):
    found = problems(f'[providers.p]\nkind = "openai"\n{line}\n')
    assert len(found) == 1
    assert "key" in found[0]
    assert SECRET not in found[0]


@pytest.mark.parametrize("url", ["localhost:11434", "ftp://host/v1", "http://", "http://h:port/"])
def test_a_base_url_must_be_http_with_a_host(url):
    assert problems(f'[providers.p]\nkind = "openai"\nbase_url = "{url}"\n')[0].startswith(
        "providers.p.base_url: "
    )


def test_the_command_line_provider_is_openai_compatible():
    config = command_line_provider("http://127.0.0.1:8000/v1", "VLLM_KEY", model="qwen")
    assert config == ProviderConfig(
        name=COMMAND_LINE,
        base_url="http://127.0.0.1:8000/v1",
        api_key_env="VLLM_KEY",
        model="qwen",
    )


def test_command_line_problems_name_the_option():
    with pytest.raises(ProviderConfigError) as caught:
        command_line_provider(f"http://u:{SECRET}@h/v1", SECRET, max_retries=6)
    text = str(caught.value)
    assert SECRET not in text
    assert [p.path for p in caught.value.problems] == [
        "--max-retries",
        "--api-key-env",
        "--base-url",
    ]


def test_public_holds_the_name_of_the_variable_not_a_key(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", SECRET)
    config = parse_providers(EXAMPLE)["claude"]
    assert config.public()["api_key_env"] == "ANTHROPIC_API_KEY"
    assert SECRET not in repr(config.public()) + repr(config)


def test_the_registry_resolves_names_and_refuses_others_at_provider_id():
    registry = ProviderRegistry(parse_providers(EXAMPLE))
    assert registry.resolve("local").config.model == "llama3.2"
    with pytest.raises(InvalidRequest) as caught:
        registry.resolve("gpt")
    assert [p.to_dict() for p in caught.value.problems] == [
        {
            "path": "providerID",
            "message": "no provider is configured with this name; the configured ones are "
            "'claude', 'local'",
        }
    ]


def test_the_registry_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.delenv("COMPACTOR_PROVIDERS", raising=False)
    with pytest.raises(InvalidRequest, match="COMPACTOR_PROVIDERS"):
        ProviderRegistry.from_environment().resolve("local")
    path = tmp_path / "p.toml"
    path.write_text(EXAMPLE, "utf-8")
    monkeypatch.setenv("COMPACTOR_PROVIDERS", str(path))
    assert sorted(ProviderRegistry.from_environment()) == ["claude", "local"]


def test_the_documented_configuration_is_valid():
    guide = (ROOT / "docs" / "llm-compact.md").read_text("utf-8")
    block = guide.split("```toml\n", 1)[1].split("```", 1)[0]
    configs = parse_providers(block, "docs/llm-compact.md")
    assert sorted(configs) == ["claude", "local", "openai"]
    assert configs["local"].base_url == "http://localhost:11434/v1"
    assert configs["openai"].base_url == "https://api.openai.com/v1"
    assert (configs["claude"].timeout_seconds, configs["claude"].max_retries) == (30.0, 1)
