"""Providers that misbehave, through the real openai and anthropic clients, against the test
server on loopback: a trickled answer, a silent one, a huge one, a 200 of the wrong shape, the
key echoed in any form, a redirect. Each call ends within its deadline with a clear error."""

import asyncio
import logging
import os
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from urllib.parse import quote

import anthropic  # noqa: F401 - imported once here, so no timing below includes the import
import openai  # noqa: F401
import pytest

from compactor.providers import (
    ANTHROPIC,
    OPENAI,
    ProviderAnswerInvalid,
    ProviderConfig,
    ProviderError,
    ProviderTimeout,
    provider_for,
)
from compactor.providers._redaction import REDACTED, WITHHELD, Redactor
from tests.llm_server import ECHOES, KEY_ENV, SECRET, llm_fixture, running, secret_forms
from tests.paths import ROOT

llm = llm_fixture()
KINDS = [OPENAI, ANTHROPIC]
LABELS = {OPENAI: "a Chat Completions", ANTHROPIC: "an Anthropic Messages"}
#: What a call may take beyond its deadline: closing the connection, a loaded machine.
SLACK = 2.0


@pytest.fixture(autouse=True)
def key(monkeypatch):
    monkeypatch.setenv(KEY_ENV, SECRET)


def provider(llm, kind, **fields):
    url = llm.openai_url if kind == OPENAI else llm.anthropic_url
    fields = {"api_key_env": KEY_ENV, "timeout_seconds": 5.0, "max_retries": 0, **fields}
    return provider_for(ProviderConfig(name=f"test-{kind}", kind=kind, base_url=url, **fields))


def failure(p, kind=ProviderError) -> str:
    with pytest.raises(kind) as caught:
        p.complete(model="fake-small", system="Summarise.", user="[#0 user] hi", max_tokens=50)
    error = caught.value
    assert error.__cause__ is None and (error.__context__ is None or error.__suppress_context__)
    return str(error)


def gone(call, within=2.0) -> bool:
    """Whether the server saw the client close the call's connection (waiting a little)."""
    end = time.monotonic() + within
    while call.gone is None and time.monotonic() < end:
        time.sleep(0.02)
    return call.gone is not None


@pytest.mark.timeout(60)
@pytest.mark.parametrize("retries", [0, 2])
@pytest.mark.parametrize("kind", KINDS)
def test_a_trickling_answer_ends_at_the_deadline_after_one_attempt(llm, kind, retries):
    llm.behaviour.trickle = 0.2  # a byte every 0.2 s: no read ever waits long
    p = provider(llm, kind, timeout_seconds=1.5, max_retries=retries)
    started = time.monotonic()
    message = failure(p, ProviderTimeout)
    assert time.monotonic() - started < 1.5 + SLACK
    assert message == (
        f"provider 'test-{kind}' did not answer within 1.5 s (1 attempt); try again, or raise "
        "timeout_seconds in its configuration"
    )
    (call,) = llm.calls  # the deadline covers the retries: none was sent after it
    assert gone(call) and call.gone - started < 1.5 + SLACK


@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", KINDS)
def test_a_silent_provider_ends_at_the_deadline(llm, kind):
    llm.behaviour.delay = 30.0
    started = time.monotonic()
    failure(provider(llm, kind, timeout_seconds=1.0, max_retries=3), ProviderTimeout)
    assert time.monotonic() - started < 1.0 + SLACK
    assert gone(llm.calls[0])


@pytest.mark.timeout(60)
def test_the_attempts_said_are_the_attempts_sent(llm):
    llm.behaviour.fail_status = 503
    message = failure(provider(llm, OPENAI, max_retries=2))
    assert message.endswith("it failed on its side (3 attempts); try again later")
    assert len(llm.calls) == 3
    # a deadline that falls during the backoff: the message counts what was sent
    llm.calls.clear()
    message = failure(provider(llm, ANTHROPIC, timeout_seconds=0.8, max_retries=5))
    sent = len(llm.calls)
    assert 1 <= sent < 6
    assert f"({sent} attempt{'s' if sent > 1 else ''})" in message


@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", KINDS)
def test_cancelling_a_call_closes_its_connection(llm, kind):
    llm.behaviour.delay = 30.0
    p = provider(llm, kind, timeout_seconds=60.0)

    async def cancel_soon():
        task = asyncio.ensure_future(
            p.acomplete(model="m", system="s", user="[#0 user] hi", max_tokens=50)
        )
        await asyncio.sleep(0.5)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    started = time.monotonic()
    asyncio.run(cancel_soon())
    (call,) = llm.calls
    assert gone(call) and call.gone - started < 0.5 + SLACK


@pytest.mark.timeout(60)
@pytest.mark.parametrize("declared", [True, False], ids=["content-length", "until-close"])
@pytest.mark.parametrize("kind", KINDS)
def test_an_answer_over_the_size_limit_is_refused_without_reading_it(llm, kind, declared):
    llm.behaviour.huge, llm.behaviour.declare_length = 50_000_000, declared
    message = failure(provider(llm, kind), ProviderAnswerInvalid)
    assert message.startswith(f"provider 'test-{kind}' answered with more than 1,048,576 bytes")
    assert message.endswith(
        "the most its configuration accepts (max_answer_bytes); the answer was refused"
    )
    assert (" declared)" in message) == declared
    (call,) = llm.calls
    assert gone(call)
    assert call.sent < 16 * 1024 * 1024  # what the socket buffers took, not the 50 MB


@pytest.mark.parametrize("kind", KINDS)
def test_an_answer_within_a_raised_limit_is_taken(llm, kind):
    llm.behaviour.huge = 2_000_000
    p = provider(llm, kind, max_answer_bytes=4_000_000)
    completion = p.complete(model="m", system="s", user="[#0 user] hi", max_tokens=50)
    assert completion.text == "~" * 2_000_000


WRONG_SHAPES = [
    (OPENAI, {"choices": {"0": {"message": {"content": "x"}}}}, "choices is an object, not a list"),
    (OPENAI, {"choices": []}, "choices is empty"),
    (OPENAI, {"choices": ["x"]}, "choices[0] is a string, not an object"),
    (OPENAI, {"choices": [{"message": "x"}]}, "choices[0].message is a string, not an object"),
    (
        OPENAI,
        {"choices": [{"message": {"content": 5}}]},
        "choices[0].message.content is a number, not a string",
    ),
    (OPENAI, [], "the answer is a list, not an object"),
    (OPENAI, {"id": "x"}, "choices is missing"),
    (ANTHROPIC, {"content": {"type": "text", "text": "x"}}, "content is an object, not a list"),
    (ANTHROPIC, {"content": [5]}, "content[0] is a number, not an object"),
    (
        ANTHROPIC,
        {"content": [{"type": "text", "text": None}]},
        "content[0].text is null, not a string",
    ),
    (ANTHROPIC, {"content": [{"text": "x"}]}, "content[0].type is missing"),
    (ANTHROPIC, 7, "the answer is a number, not an object"),
    (ANTHROPIC, {"type": "message"}, "content is missing"),
]


@pytest.mark.parametrize(("kind", "answer", "what"), WRONG_SHAPES)
def test_an_answer_of_the_wrong_shape_is_a_clear_error(llm, kind, answer, what):
    llm.behaviour.answer = answer
    assert failure(provider(llm, kind), ProviderAnswerInvalid) == (
        f"provider 'test-{kind}' gave an answer that is not {LABELS[kind]} response ({what}); "
        "check its base_url"
    )


@pytest.mark.parametrize("kind", KINDS)
def test_usage_of_the_wrong_shape_is_no_usage(llm, kind):
    usage = {"prompt_tokens": "9", "input_tokens": -1, "completion_tokens": True}
    if kind == OPENAI:
        llm.behaviour.answer = {"choices": [{"message": {"content": "S."}}], "usage": usage}
    else:
        llm.behaviour.answer = {"content": [{"type": "text", "text": "S."}], "usage": usage}
    completion = provider(llm, kind).complete(model="m", system="s", user="u", max_tokens=9)
    assert (completion.text, completion.prompt_tokens, completion.completion_tokens) == (
        "S.",
        None,
        None,
    )


@pytest.mark.parametrize("echo", ECHOES)
@pytest.mark.parametrize("kind", KINDS)
def test_a_key_echoed_in_any_form_is_redacted(llm, kind, echo, caplog):
    caplog.set_level(logging.DEBUG)
    llm.behaviour.fail_status, llm.behaviour.echo_key = 401, echo
    message = failure(provider(llm, kind))
    assert message.startswith(
        f"provider 'test-{kind}' answered HTTP 401: Incorrect API key provided: {REDACTED}"
    )
    for form in secret_forms():
        assert form not in message and form not in caplog.text


def test_the_redactor_finds_the_key_in_mixed_and_nested_forms():
    redact = Redactor(SECRET)
    mixed = "".join(
        c if i % 3 == 0 else quote(c, safe="") if i % 3 == 1 else f"\\u{ord(c):04X}"
        for i, c in enumerate(SECRET)
    )
    assert redact(f"key {mixed}!") == f"key {REDACTED}!"
    assert redact(f"key={quote(quote(SECRET, safe=''), safe='')}") == WITHHELD
    assert redact(f"{{&quot;k&quot;: &quot;{SECRET[:4]}&#x{ord(SECRET[4]):x};{SECRET[5:]}") == (
        WITHHELD
    )
    assert redact("nothing here") == "nothing here"
    assert Redactor(None)(SECRET) == SECRET  # no key configured: nothing to hide


@pytest.mark.parametrize("kind", KINDS)
def test_a_redirect_is_not_followed_so_the_key_goes_nowhere_else(llm, kind):
    with running() as elsewhere:
        llm.behaviour.redirect = f"http://127.0.0.1:{elsewhere.port}{{path}}"
        message = failure(provider(llm, kind), ProviderAnswerInvalid)
        assert elsewhere.calls == []
    assert message == (
        f"provider 'test-{kind}' answered HTTP 307; a redirect, which is not followed (a key is "
        "never sent on to another address); set base_url to the address it points to"
    )


def test_the_redactor_finds_masked_copies_and_parts_of_the_key():
    redact = Redactor(SECRET)
    start, end = SECRET[:8], SECRET[-4:]
    for masked in (
        f"{start}****...{end}",  # OpenAI's 401
        f"{SECRET[:4]}••••{end}",
        f"{start}…",
        f"***{SECRET[-6:]}",
        f"{SECRET[:12]}...",
    ):
        assert redact(f"Incorrect API key provided: {masked}, see the docs.") == (
            f"Incorrect API key provided: {REDACTED}, see the docs."
        ), masked
    middle = SECRET[10:19]
    assert redact(f"a part {middle} of it") == f"a part {REDACTED} of it"
    assert redact(f"key={quote(SECRET[:8], safe='')}****") == WITHHELD  # a part, encoded
    # what is not the key stays: short runs of its characters, masks beside other words
    kept = f"{SECRET[:3]} and {SECRET[5:9]}, so on... notes *** here, {SECRET[-3:]}."
    assert redact(kept) == kept


def refused_at_once(p, within: float = 1.0) -> str:
    started = time.monotonic()
    with pytest.raises(ProviderError) as caught:
        p.complete(model="fake-small", system="Summarise.", user="[#0 user] hi", max_tokens=50)
    assert time.monotonic() - started < within
    assert not isinstance(caught.value, ProviderTimeout), caught.value
    return str(caught.value)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("retry_after", ["9999", "30", "an hour from now"])
@pytest.mark.parametrize("kind", KINDS)
def test_a_wait_asked_past_the_deadline_is_reported_at_once_as_what_it_is(llm, kind, retry_after):
    if retry_after == "an hour from now":  # Retry-After as an HTTP date
        retry_after = format_datetime(datetime.now(UTC) + timedelta(hours=1), usegmt=True)
    llm.behaviour.fail_status, llm.behaviour.retry_after = 429, retry_after
    message = refused_at_once(provider(llm, kind, max_retries=2))
    assert message.startswith(f"provider 'test-{kind}' answered HTTP 429: something failed; ")
    assert "it is rate limiting or out of quota (1 attempt); try again in " in message
    assert message.endswith(" s, as it asks")
    assert len(llm.calls) == 1


@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", KINDS)
def test_a_wait_asked_within_the_deadline_is_waited_and_the_call_retried(llm, kind):
    llm.behaviour.fail_status, llm.behaviour.retry_after = 503, "0.2"
    message = refused_at_once(provider(llm, kind, max_retries=2), within=3.0)
    assert message.endswith("it failed on its side (3 attempts); try again in 1 s, as it asks")
    assert len(llm.calls) == 3


#: One call in a fresh process, timed from its start: the client library is not imported yet.
FIRST_CALL = """
import sys, time
from compactor.providers import ProviderConfig, ProviderTimeout, provider_for
assert sys.argv[1] not in sys.modules
config = ProviderConfig(name="first", kind=sys.argv[1], base_url=sys.argv[2],
                        api_key_env=sys.argv[3], timeout_seconds=float(sys.argv[4]))
started = time.monotonic()
try:
    provider_for(config).complete(model="m", system="S", user="[#0 user] hi", max_tokens=9)
except ProviderTimeout as error:
    print(time.monotonic() - started, error, sep="\\n")
"""


@pytest.mark.timeout(120)
@pytest.mark.parametrize("kind", KINDS)
def test_the_first_call_of_a_process_holds_its_deadline_with_the_import_inside(llm, kind):
    llm.behaviour.delay = 60.0  # never answers within the deadline
    url = llm.openai_url if kind == OPENAI else llm.anthropic_url
    deadline = 0.5  # importing the library alone takes longer (0.5 s to 4 s)
    done = subprocess.run(
        [sys.executable, "-c", FIRST_CALL, kind, url, KEY_ENV, str(deadline)],
        capture_output=True,
        cwd=ROOT,
        timeout=100,
        env={**os.environ, KEY_ENV: SECRET},
    )
    assert done.returncode == 0 and done.stderr == b"", done.stderr.decode()
    seconds, message = done.stdout.decode().splitlines()
    assert float(seconds) < deadline + 0.4, seconds
    assert message.startswith("provider 'first' did not answer within 0.5 s (")
