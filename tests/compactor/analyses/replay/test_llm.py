"""The seeds/003 loop replayed around LLM compact, through the real OpenAI client to the test
suite's language model server over loopback HTTP: summaries are new text, the kept messages are
the history's own, and a failing provider makes the loop send the last ten messages."""

import pytest

from compactor import validate
from compactor.analyses.replay._loop import replay
from compactor.analyses.replay._strategies import ProviderCompact, SeedLoop
from compactor.providers import OPENAI, ProviderConfig, provider_for
from compactor.strategies._context_trim import estimate_message_tokens
from compactor.strategies._llm_compact import LLMCompact
from tests.llm_server import KEY_ENV, SECRET, llm_fixture

llm = llm_fixture()


@pytest.fixture(autouse=True)
def key(monkeypatch):
    monkeypatch.setenv(KEY_ENV, SECRET)


def provider(llm):
    config = ProviderConfig(
        name="test",
        kind=OPENAI,
        base_url=llm.openai_url,
        api_key_env=KEY_ENV,
        max_retries=0,
        timeout_seconds=10.0,
    )
    return provider_for(config)


def chat(n):
    messages = [
        {"role": "user" if i % 2 == 0 else "assistant", "content": f"Step {i}: " + "word " * 60}
        for i in range(n)
    ]
    return validate({"messages": messages, "budget_chars": 1000})


@pytest.mark.slow
def test_the_loop_compacts_through_the_provider_over_the_limit(llm):
    typed = chat(12)
    compact = LLMCompact(provider(llm), "fake-small", keep_last_messages=2)
    result = replay(typed.messages, SeedLoop(ProviderCompact(compact), token_limit=250))
    over = [t for t in result.turns if t.compacted]
    assert over and len(llm.calls) == len(over)
    for turn, history in zip(result.turns, result.histories[1:], strict=True):
        sent = [*result.histories[turn.turn - 1], typed.messages[turn.turn]]  # X_t
        tokens = sum(estimate_message_tokens({"role": m.role, "content": m.content}) for m in sent)
        assert turn.compacted == (tokens > 250)
        if turn.compacted:
            summary, *kept = history
            assert summary.origin is None and summary.role == "user"
            assert [m.origin for m in kept] == [turn.turn - 1, turn.turn]
    assert result.strategy == "seed-loop(llm-compact(fake-small))"


def test_a_failing_provider_makes_the_loop_send_the_last_ten(llm):
    llm.behaviour.fail_status = 500
    typed = chat(14)
    compact = LLMCompact(provider(llm), "fake-small")
    result = replay(typed.messages, SeedLoop(ProviderCompact(compact), token_limit=250))
    assert llm.calls  # it was asked, and failed
    assert [m.origin for m in result.final][-10:] == list(range(4, 14))
    assert all(m.origin is not None for m in result.final)
