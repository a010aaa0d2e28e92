"""The compact strategy of seeds/003 against the test server, through the real client libraries."""

import copy
import json
import logging
import math
import re

import pytest

from compactor.errors import InvalidRequest
from compactor.providers import (
    ANTHROPIC,
    OPENAI,
    ProviderConfig,
    ProviderError,
    provider_for,
)
from compactor.strategies._chunked_summary import MAX_CHUNKS
from compactor.strategies._llm_compact import (
    DEFAULT_KEEP_LAST,
    CannotSummarize,
    LLMCompact,
    cache_key,
    llm_compact,
)
from compactor.strategies._summary_prompt import SYSTEM_PROMPT
from tests.llm_server import KEY_ENV, SECRET, expand, llm_fixture
from tests.paths import SEEDS

llm = llm_fixture()
NAME = "test"


@pytest.fixture(autouse=True)
def key(monkeypatch):
    monkeypatch.setenv(KEY_ENV, SECRET)


def provider(llm, kind=OPENAI, **fields):
    url = llm.openai_url if kind == OPENAI else llm.anthropic_url
    fields = {"api_key_env": KEY_ENV, "max_retries": 0, "timeout_seconds": 10.0, **fields}
    return provider_for(ProviderConfig(name=NAME, kind=kind, base_url=url, **fields))


def seed_request() -> dict:
    """The compact request published in seeds/003, its providerID ours."""
    text = (SEEDS / "003_b03bb14e4294d039.txt").read_text("utf-8")
    section = text[text.index("## Compact a conversation") :]
    body = re.search(r"-d '(\{.*?\})'\n", section, re.DOTALL).group(1)
    return json.loads(body.replace('"\'"$PROVIDER_ID"\'"', json.dumps(NAME)))


def chat(n: int, words: int = 30) -> list[dict]:
    """``n`` messages, user and assistant in turn, of a known length (no '#' in them)."""
    return [
        {"role": "user" if i % 2 == 0 else "assistant", "content": f"turn {i}: " + "lorem " * words}
        for i in range(n)
    ]


def request(messages, **fields) -> dict:
    return {"providerID": NAME, "model": "fake-small", "messages": messages, **fields}


def tokens(messages) -> int:
    return sum(math.ceil(len(m["content"]) / 4) for m in messages)


def pass_one(llm):
    return [c for c in llm.answered() if c.user.startswith("Summarise these messages")]


def test_the_seed_example_summarises_three_messages_and_keeps_two(llm):
    req = seed_request()
    out = llm_compact(req, provider(llm))
    kept = req["messages"][-2:]
    summary = {"role": "user", "content": "Summary of #0-#2."}
    (call,) = llm.calls
    assert out == {
        "messages": [summary, *kept],
        "stats": {
            "messagesBefore": 5,
            "messagesAfter": 3,
            "messagesDropped": 2,
            "tokensBeforeEstimate": tokens(req["messages"]),
            "tokensAfterEstimate": tokens([summary, *kept]),
        },
        "compaction": {
            "compacted": True,
            "chunksProcessed": 1,
            "passes": 1,
            "summarizerPromptTokens": call.usage[0],
            "summarizerCompletionTokens": call.usage[1],
            "targetTokensEstimate": 100,
        },
    }
    assert call.body["model"] == "gpt-4o-mini" and call.body["max_tokens"] == 200
    assert call.system.startswith(SYSTEM_PROMPT)
    assert "Aim for about 100 tokens" in call.system
    assert call.system.endswith(req["instructions"])
    for i, m in enumerate(req["messages"][:3]):
        assert f"[#{i} {m['role']}] {m['content']}" in call.user
    assert req["messages"][3]["content"] not in call.user


def test_the_default_prompt_asks_to_keep_identifiers_numbers_and_decisions():
    for words in ("identifiers", "numbers with their units", "dates and times", "decision"):
        assert words in SYSTEM_PROMPT


@pytest.mark.parametrize("kind", [OPENAI, ANTHROPIC])
def test_keep_last_defaults_to_four_on_either_kind(llm, kind):
    messages = chat(7)
    out = llm_compact(request(messages), provider(llm, kind))
    assert out["messages"][1:] == messages[-DEFAULT_KEEP_LAST:]
    assert out["messages"][0] == {"role": "user", "content": "Summary of #0-#2."}


def test_keep_last_zero_summarises_everything(llm):
    out = llm_compact(request(chat(3), keepLastMessages=0), provider(llm))
    assert out["messages"] == [{"role": "user", "content": "Summary of #0-#2."}]
    assert out["stats"]["messagesDropped"] == 2


@pytest.mark.parametrize(
    ("messages", "keep"),
    [
        (chat(3), 3),  # nothing is older than the kept messages
        (chat(3), 10),
        ([], 4),
        (  # nothing older has text
            [
                {"role": "user", "content": ""},
                {"role": "assistant", "parts": [{"type": "step-start"}]},
                *chat(2),
            ],
            2,
        ),
    ],
)
def test_nothing_to_summarise_passes_through_without_a_call(llm, messages, keep):
    out = llm_compact(request(messages, keepLastMessages=keep), provider(llm))
    assert out["messages"] == messages
    assert out["stats"]["messagesDropped"] == 0
    assert out["compaction"] == {
        "compacted": False,
        "chunksProcessed": 0,
        "passes": 0,
        "summarizerPromptTokens": None,
        "summarizerCompletionTokens": None,
        "targetTokensEstimate": None,
    }
    assert llm.calls == []


def test_a_conversation_over_the_window_is_chunked_then_merged(llm):
    window = 1200
    llm.behaviour.window = window  # the server refuses anything over it
    p = provider(llm, context_window_tokens=window, max_output_tokens=100)
    messages = chat(40)
    out = llm_compact(request(messages), p)
    older = len(messages) - DEFAULT_KEEP_LAST
    assert all(c.status == 200 for c in llm.calls)  # every chunk was planned to fit
    chunks = pass_one(llm)
    compaction = out["compaction"]
    assert compaction["chunksProcessed"] == len(chunks) > 1
    assert compaction["passes"] >= 2
    assert len(llm.calls) > len(chunks)  # the merges
    # Every older message is in exactly one chunk, in order, and the summary covers them all.
    seen = [int(n) for c in chunks for n in re.findall(r"^\[#(\d+) ", c.user, re.MULTILINE)]
    assert seen == list(range(older))
    assert expand(out["messages"][0]["content"]) == set(range(older))
    # As few chunks as fit: the next chunk's first message would not have fitted in this one.
    for this, following in zip(chunks, chunks[1:], strict=False):
        first = following.user.split("<messages>\n")[1].split("\n\n[#")[0]
        first = first.removesuffix("\n</messages>")
        grown = llm.tokens(this.system) + llm.tokens(this.user + "\n\n" + first)
        assert grown + this.body["max_tokens"] > window


def test_summaries_are_merged_in_as_many_passes_as_the_window_needs(llm):
    llm.behaviour.padding = 1300  # two summaries fit in one merge call, three do not
    p = provider(llm, context_window_tokens=1200, max_output_tokens=100)
    out = llm_compact(request(chat(100)), p)
    chunks, passes = out["compaction"]["chunksProcessed"], out["compaction"]["passes"]
    assert chunks >= 5
    assert passes == 1 + math.ceil(math.log2(chunks))
    merges = [c for c in llm.calls if c.user.startswith("These are summaries")]
    assert len(merges) == len(llm.calls) - chunks
    assert all(c.user.count("[summary ") <= 2 for c in merges)
    assert expand(out["messages"][0]["content"]) == set(range(96))


def test_usage_is_summed_over_every_summary_call(llm):
    p = provider(llm, context_window_tokens=1200, max_output_tokens=100)
    out = llm_compact(request(chat(40)), p)
    calls = llm.answered()
    assert len(calls) > 2
    assert out["compaction"]["summarizerPromptTokens"] == sum(c.usage[0] for c in calls)
    assert out["compaction"]["summarizerCompletionTokens"] == sum(c.usage[1] for c in calls)


def test_usage_is_null_when_the_provider_reports_none(llm):
    llm.behaviour.usage = False
    p = provider(llm, context_window_tokens=1200, max_output_tokens=100)
    compaction = llm_compact(request(chat(40)), p)["compaction"]
    assert compaction["compacted"] and compaction["passes"] >= 2
    assert compaction["summarizerPromptTokens"] is None
    assert compaction["summarizerCompletionTokens"] is None


@pytest.mark.parametrize("states_window", [True, False])
def test_the_provider_refusing_a_prompt_as_too_long_makes_smaller_chunks(llm, states_window):
    llm.behaviour.window, llm.behaviour.states_window = 900, states_window
    out = llm_compact(request(chat(30)), provider(llm, max_output_tokens=100))  # no window set
    assert llm.calls[0].status == 400  # the whole conversation in one call was refused
    assert out["compaction"]["chunksProcessed"] == len(pass_one(llm)) > 1
    assert expand(out["messages"][0]["content"]) == set(range(26))
    # Refused calls report no usage and are not counted.
    assert out["compaction"]["summarizerPromptTokens"] == sum(c.usage[0] for c in llm.answered())


def test_a_message_longer_than_a_chunk_is_split_into_parts(llm):
    long = {"role": "tool", "content": "result " * 2000}
    out = llm_compact(
        request([long, *chat(2)], keepLastMessages=2),
        provider(llm, context_window_tokens=1000, max_output_tokens=100),
    )
    parts = pass_one(llm)
    assert out["compaction"]["chunksProcessed"] == len(parts) > 1
    assert all("[#0 tool, characters " in c.user for c in parts)
    assert (
        "".join(c.user.split("] ", 1)[1].rsplit("\n</messages>")[0] for c in parts)
        == long["content"]
    )


def test_a_window_without_room_for_the_conversation_is_a_clear_error(llm):
    p = provider(llm, context_window_tokens=1024, max_output_tokens=1000)
    with pytest.raises(CannotSummarize) as caught:
        llm_compact(request(chat(8)), p)
    assert str(caught.value).startswith(
        "cannot summarise with provider 'test' and model 'fake-small' (context window 1,024 "
        "tokens): after the instructions"
    )
    assert llm.calls == []


def test_more_chunks_than_the_limit_is_refused_before_any_call(llm):
    p = provider(llm, context_window_tokens=800, max_output_tokens=100)
    with pytest.raises(CannotSummarize, match=f"more than {MAX_CHUNKS} chunks in one pass"):
        llm_compact(request(chat(200, words=400)), p)
    assert llm.calls == []


def test_summaries_too_long_to_merge_are_a_clear_error(llm):
    llm.behaviour.padding = 2000
    p = provider(llm, context_window_tokens=1200, max_output_tokens=100)
    with pytest.raises(CannotSummarize, match="too long to merge within the window"):
        llm_compact(request(chat(40)), p)


def test_a_provider_whose_window_is_too_small_for_any_chunk_is_a_clear_error(llm):
    llm.behaviour.window, llm.behaviour.states_window = 40, False
    with pytest.raises(CannotSummarize, match="fewer than 200 characters"):
        llm_compact(request(chat(8)), provider(llm, max_output_tokens=16))


def test_an_empty_summary_is_a_provider_error(llm):
    llm.behaviour.empty = True
    with pytest.raises(ProviderError, match="answered with an empty summary"):
        llm_compact(request(chat(8)), provider(llm))


def test_ai_sdk_v5_messages_get_a_v5_summary_and_tool_parts_are_read(llm):
    call = {"type": "tool-getWeather", "toolCallId": "call_9f2a", "input": {"city": "Porto"}}
    messages = [
        {"id": "m1", "role": "user", "parts": [{"type": "text", "text": "Weather in Porto?"}]},
        {"id": "m2", "role": "assistant", "parts": [call]},
        {"id": "m3", "role": "user", "parts": [{"type": "text", "text": "Thanks."}]},
    ]
    out = llm_compact(request(messages, keepLastMessages=1), provider(llm))
    summary = out["messages"][0]
    assert summary["role"] == "user" and summary["id"].startswith("summary-")
    assert summary["parts"] == [{"type": "text", "text": "Summary of #0-#1."}]
    assert out["messages"][1] is messages[2]
    assert '"toolCallId":"call_9f2a"' in llm.calls[0].user


@pytest.mark.parametrize(
    ("change", "path", "message"),
    [
        ({"providerID": None}, "providerID", "is required but missing"),
        ({"model": None}, "model", "is required but missing"),
        ({"model": ""}, "model", "must not be empty"),
        ({"instructions": "x" * 2001}, "instructions", "must be at most 2,000 characters long"),
        ({"targetTokensEstimate": 63}, "targetTokensEstimate", "must be at least 64; it is 63"),
        ({"keepLastMessages": -1}, "keepLastMessages", "must be at least 0; it is -1"),
        ({"keepLastMessages": True}, "keepLastMessages", "must be an integer, not a boolean"),
        ({"apiKey": SECRET}, "apiKey", "unknown field; allowed fields are providerID, model"),
        ({"messages": [{"role": "user"}]}, "messages[0]", "needs content or parts"),
        ({"providerID": "other"}, "providerID", "names another provider than the one given"),
    ],
)
def test_an_invalid_request_names_each_problem_and_calls_nothing(llm, change, path, message):
    req = request(chat(6))
    req.update(change)
    req = {k: v for k, v in req.items() if v is not None}
    with pytest.raises(InvalidRequest) as caught:
        llm_compact(req, provider(llm))
    (problem,) = caught.value.problems
    assert problem.path == path and problem.message.startswith(message)
    assert SECRET not in str(caught.value)
    assert llm.calls == []


def test_the_key_never_leaks_into_outputs_errors_or_logs(llm, caplog, capsys):
    caplog.set_level(logging.DEBUG)
    seen = []
    p = provider(llm, context_window_tokens=1200, max_output_tokens=100)
    seen.append(json.dumps(llm_compact(request(chat(40)), p)))
    seen.append(cache_key(request(chat(40)), p) + repr(p) + json.dumps(p.config.public()))
    llm.behaviour.window, llm.behaviour.states_window = 900, False
    seen.append(json.dumps(llm_compact(request(chat(30)), provider(llm, max_output_tokens=100))))
    llm.behaviour.window, llm.behaviour.fail_status, llm.behaviour.echo_key = None, 401, True
    for kind in (OPENAI, ANTHROPIC):
        with pytest.raises(ProviderError) as caught:
            llm_compact(request(chat(12)), provider(llm, kind))
        seen.append(str(caught.value) + repr(caught.value.problems))
    assert "[redacted]" in seen[-1]
    captured = capsys.readouterr()
    seen += [caplog.text, captured.out, captured.err]
    assert all(SECRET not in text for text in seen)
    assert any(SECRET in c.headers.get("authorization", "") for c in llm.calls)  # it was sent


def test_the_cache_key_follows_what_shapes_the_answer_and_holds_no_secret(llm):
    p = provider(llm, context_window_tokens=4096)
    req = request(chat(6))
    key = cache_key(req, p)
    assert key == cache_key(copy.deepcopy(req), p.config)
    assert key == cache_key({**req, "keepLastMessages": DEFAULT_KEEP_LAST}, p)  # the default
    assert key == cache_key(req, provider(llm, context_window_tokens=4096, timeout_seconds=1))
    others = [
        cache_key({**req, "model": "fake-large"}, p),
        cache_key({**req, "keepLastMessages": 2}, p),
        cache_key({**req, "instructions": "Keep prices."}, p),
        cache_key({**req, "targetTokensEstimate": 64}, p),
        cache_key({**req, "messages": chat(7)}, p),
        cache_key(req, provider(llm, context_window_tokens=8192)),
        cache_key(req, provider(llm, kind=ANTHROPIC, context_window_tokens=4096)),
    ]
    assert len({key, *others}) == len(others) + 1
    assert re.fullmatch(r"llm-compact-[0-9a-f]{64}", key)
    assert SECRET not in key and KEY_ENV not in key
    assert llm.calls == []


def test_the_callable_strategy_compacts_a_history_on_every_turn(llm):
    strategy = LLMCompact(provider(llm), "fake-small", keep_last_messages=2)
    recorded = chat(8)
    history = [recorded[0]]
    for turn in recorded[1:]:
        history = strategy([*history, turn])
        assert len(history) <= 3
        assert history[-1] is turn
    assert history[0]["role"] == "user" and history[0]["content"].startswith("Summary of")
    assert strategy.compact(history)["compaction"]["compacted"] is True
    assert strategy.cache_key(history) == cache_key(strategy.request(history), strategy.provider)
