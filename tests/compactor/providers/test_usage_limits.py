"""A provider's usage count no call can have used (10**30 tokens) is refused, read as not
reported, with a warning naming the field; the real clients against the local fake server
(issue 34, item 17)."""

import logging

import pytest

from compactor.providers import ANTHROPIC, OPENAI, ProviderConfig, provider_for
from compactor.providers._answers import MAX_REPORTED_TOKENS
from tests.llm_server import KEY_ENV, SECRET, llm_fixture

llm = llm_fixture()


@pytest.fixture(autouse=True)
def key(monkeypatch):
    monkeypatch.setenv(KEY_ENV, SECRET)


def provider(llm, kind):
    url = llm.openai_url if kind == OPENAI else llm.anthropic_url
    config = ProviderConfig(
        name=f"test-{kind}", kind=kind, base_url=url, api_key_env=KEY_ENV, max_retries=0
    )
    return provider_for(config)


@pytest.mark.parametrize("kind", [OPENAI, ANTHROPIC])
def test_an_absurd_usage_count_is_not_reported_and_said(llm, kind, caplog):
    huge = 10**30
    if kind == OPENAI:
        usage = {"prompt_tokens": huge, "completion_tokens": 7}
        llm.behaviour.answer = {"choices": [{"message": {"content": "S."}}], "usage": usage}
        field = "usage.prompt_tokens"
    else:
        usage = {"input_tokens": 5, "output_tokens": huge}
        llm.behaviour.answer = {"content": [{"type": "text", "text": "S."}], "usage": usage}
        field = "usage.output_tokens"
    with caplog.at_level(logging.WARNING, logger="compactor.providers"):
        completion = provider(llm, kind).complete(model="m", system="s", user="u", max_tokens=9)
    counts = (completion.prompt_tokens, completion.completion_tokens)
    assert counts == ((None, 7) if kind == OPENAI else (5, None))
    assert [r.getMessage() for r in caplog.records] == [
        f"the provider reported {field} of more than {MAX_REPORTED_TOKENS:,} tokens, more than "
        "any call uses; read as not reported"
    ]


@pytest.mark.parametrize("kind", [OPENAI, ANTHROPIC])
def test_a_large_but_possible_count_is_kept(llm, kind):
    if kind == OPENAI:
        usage = {"prompt_tokens": 2_000_000, "completion_tokens": 7}
        llm.behaviour.answer = {"choices": [{"message": {"content": "S."}}], "usage": usage}
    else:
        usage = {"input_tokens": 2_000_000, "output_tokens": 7}
        llm.behaviour.answer = {"content": [{"type": "text", "text": "S."}], "usage": usage}
    completion = provider(llm, kind).complete(model="m", system="s", user="u", max_tokens=9)
    assert (completion.prompt_tokens, completion.completion_tokens) == (2_000_000, 7)
