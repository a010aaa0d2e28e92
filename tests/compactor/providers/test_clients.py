"""The providers through the real openai and anthropic clients, against the test server."""

import logging
import time

import pytest

from compactor.providers import (
    ANTHROPIC,
    OPENAI,
    Completion,
    ContextWindowExceeded,
    ProviderConfig,
    ProviderError,
    ProviderRefused,
    ProviderTimeout,
    provider_for,
)
from tests.llm_server import ANTHROPIC_PATH, KEY_ENV, OPENAI_PATH, SECRET, llm_fixture

llm = llm_fixture()
KINDS = [OPENAI, ANTHROPIC]
USER = "[#0 user] I need running shoes.\n\n[#1 assistant] Cushioning or ground feel?"


@pytest.fixture(autouse=True)
def key(monkeypatch):
    monkeypatch.setenv(KEY_ENV, SECRET)


def provider(llm, kind, **fields):
    url = llm.openai_url if kind == OPENAI else llm.anthropic_url
    fields = {"api_key_env": KEY_ENV, "timeout_seconds": 5.0, "max_retries": 0, **fields}
    return provider_for(ProviderConfig(name=f"test-{kind}", kind=kind, base_url=url, **fields))


def complete(p, user=USER, max_tokens=50):
    return p.complete(model="fake-small", system="Summarise.", user=user, max_tokens=max_tokens)


def failure(p, kind=ProviderError) -> str:
    with pytest.raises(kind) as caught:
        complete(p)
    error = caught.value  # the library's exception (with the request headers) is not kept
    assert error.__cause__ is None and (error.__context__ is None or error.__suppress_context__)
    return str(caught.value)


@pytest.mark.parametrize("kind", KINDS)
def test_one_call_returns_the_summary_and_the_reported_usage(llm, kind):
    assert complete(provider(llm, kind)) == Completion(
        "Summary of #0-#1.",
        llm.tokens("Summarise.") + llm.tokens(USER),
        llm.tokens("Summary of #0-#1."),
    )
    (call,) = llm.calls
    assert call.path == (OPENAI_PATH if kind == OPENAI else ANTHROPIC_PATH)
    assert (call.body["model"], call.body["max_tokens"], call.system, call.user) == (
        "fake-small",
        50,
        "Summarise.",
        USER,
    )


@pytest.mark.parametrize("kind", KINDS)
def test_the_key_goes_in_a_header_and_nowhere_else(llm, kind):
    complete(provider(llm, kind))
    (call,) = llm.calls
    sent = {name: value for name, value in call.headers.items() if SECRET in value}
    assert set(sent) <= {"authorization", "x-api-key"} and sent
    assert SECRET not in call.path and SECRET not in str(call.body)


@pytest.mark.parametrize("kind", KINDS)
def test_without_api_key_env_a_placeholder_is_sent(llm, kind):
    complete(provider(llm, kind, api_key_env=None))
    assert SECRET not in str(llm.calls[0].headers)


def test_an_answer_without_usage_reports_none(llm):
    llm.behaviour.usage = False
    for kind in KINDS:
        assert complete(provider(llm, kind)).prompt_tokens is None


@pytest.mark.parametrize("kind", KINDS)
def test_a_prompt_over_the_window_is_its_own_error_with_the_stated_window(llm, kind):
    llm.behaviour.window = 20
    with pytest.raises(ContextWindowExceeded) as caught:
        complete(provider(llm, kind))
    assert caught.value.window_tokens == 20
    llm.behaviour.states_window = False  # llama.cpp's server says it without a number
    with pytest.raises(ContextWindowExceeded) as caught:
        complete(provider(llm, kind))
    assert caught.value.window_tokens is None


@pytest.mark.parametrize("kind", KINDS)
def test_a_slow_provider_times_out_after_the_configured_seconds(llm, kind):
    llm.behaviour.delay = 3.0
    started = time.monotonic()
    message = failure(provider(llm, kind, timeout_seconds=0.3), ProviderTimeout)
    assert time.monotonic() - started < 2.5
    assert message == (
        f"provider 'test-{kind}' did not answer within 0.3 s (1 attempt); try again, or raise "
        "timeout_seconds in its configuration"
    )


def test_failed_attempts_are_retried_up_to_max_retries(llm):
    llm.behaviour.fail_status, llm.behaviour.fail_times = 503, 1
    assert complete(provider(llm, OPENAI, max_retries=1)).text == "Summary of #0-#1."
    assert [c.status for c in llm.calls] == [503, 200]
    llm.behaviour.fail_times = 10
    message = failure(provider(llm, ANTHROPIC, max_retries=1))
    assert message == (
        "provider 'test-anthropic' answered HTTP 503: something failed; it failed on its side "
        "(2 attempts); try again later"
    )
    assert [c.status for c in llm.calls[2:]] == [503, 503]


@pytest.mark.parametrize("kind", KINDS)
def test_a_provider_that_repeats_the_key_is_redacted(llm, kind, caplog):
    caplog.set_level(logging.DEBUG)
    llm.behaviour.fail_status, llm.behaviour.echo_key = 401, True
    message = failure(provider(llm, kind))
    assert message.startswith(f"provider 'test-{kind}' answered HTTP 401: Incorrect API key")
    assert "[redacted]" in message and message.endswith(f"environment variable {KEY_ENV}")
    assert SECRET not in message
    assert SECRET not in caplog.text
    assert any(r.name.startswith(kind) for r in caplog.records)  # the client's logs were seen


@pytest.mark.parametrize(
    ("status", "kind", "advice"),
    [
        (404, ProviderRefused, "check the model name ('fake-small') and the base_url"),
        (422, ProviderRefused, "it refused the request as asked"),
        (429, ProviderError, "it is rate limiting or out of quota (1 attempt); try again later"),
    ],
)
def test_status_errors_say_what_to_do(llm, status, kind, advice):
    llm.behaviour.fail_status = status
    assert failure(provider(llm, OPENAI), kind).endswith(advice)


def test_an_unreachable_provider_is_an_error_not_a_traceback(llm):
    dead = provider_for(
        ProviderConfig(name="dead", base_url="http://127.0.0.1:9/v1", max_retries=0)
    )
    assert failure(dead) == (
        "provider 'dead' could not be reached (1 attempt); check that it is running and that "
        "its base_url is right"
    )


@pytest.mark.parametrize("kind", KINDS)
def test_an_answer_that_is_not_json_is_an_error(llm, kind):
    llm.behaviour.garbage = True
    assert "gave an answer that is not" in failure(provider(llm, kind))


def test_a_missing_key_variable_is_named_not_guessed(llm, monkeypatch):
    monkeypatch.delenv(KEY_ENV)
    assert failure(provider(llm, OPENAI)) == (
        f"provider 'test-openai' reads its key from the environment variable {KEY_ENV}, which "
        "is not set; set it in the environment of this process"
    )
    assert llm.calls == []


def test_without_the_llm_extra_the_error_says_how_to_install_it(llm, monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "openai", None)
    assert failure(provider(llm, OPENAI)).endswith(
        'install the llm extra: .venv/bin/pip install -e ".[llm]"'
    )
