"""`python -m compactor summarize`: a real process against the test server, over loopback."""

import json
import os
import re
import subprocess
import sys
import time

import pytest

from tests.llm_server import (
    ECHOES,
    KEY_ENV,
    SECRET,
    expand,
    llm_fixture,
    providers_toml,
    secret_forms,
)
from tests.paths import ROOT

llm = llm_fixture()
CHAT = [
    {"role": "user" if i % 2 == 0 else "assistant", "content": f"turn {i}: " + "lorem " * 30}
    for i in range(12)
]


def cli(*args, stdin=b"", env=None):
    return subprocess.run(
        [sys.executable, "-m", "compactor", "summarize", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=120,
        env={**os.environ, KEY_ENV: SECRET, **(env or {})},
    )


def timed_out(seconds: str) -> str:
    """The line of a call past its deadline of ``seconds``, as a regular expression. The
    deadline holds the import of the client library (seconds on a loaded machine), so it may
    pass before the request is sent (in the import, or after it, before the send): the count
    says what was sent (never more than one)."""
    return (
        rf"provider 'command-line' did not answer within {re.escape(seconds)} s \((0 attempts(: "
        r"loading the openai library took all of it)?|1 attempt)\); try again, or raise "
        r"timeout_seconds in its configuration\n"
    )


def conversation(tmp_path, **fields):
    path = tmp_path / "chat.json"
    path.write_text(json.dumps({"messages": CHAT, **fields}), "utf-8")
    return str(path)


def no_secret(done):
    for form in secret_forms():
        assert form.encode() not in done.stdout + done.stderr
    assert b"Traceback" not in done.stderr


def one_line(done, code: int) -> str:
    """The one line of standard error of a command that exited ``code``, printing nothing."""
    assert done.returncode == code and done.stdout == b"", done.stderr
    (line,) = done.stderr.decode().splitlines()
    no_secret(done)
    return line


@pytest.mark.slow
def test_summarize_with_a_provider_of_the_file_prints_the_response(llm, tmp_path):
    toml = providers_toml(llm, tmp_path / "providers.toml")
    done = cli(conversation(tmp_path), "--providers", str(toml), "--provider", "anthropic")
    assert done.returncode == 0 and done.stderr == b""
    out = json.loads(done.stdout)
    assert list(out) == ["messages", "stats", "compaction"]
    assert out["messages"] == [{"role": "user", "content": "Summary of #0-#7."}, *CHAT[-4:]]
    (call,) = llm.calls
    assert out["compaction"] == {
        "compacted": True,
        "chunksProcessed": 1,
        "passes": 1,
        "summarizerPromptTokens": call.usage[0],
        "summarizerCompletionTokens": call.usage[1],
        "targetTokensEstimate": None,
    }
    assert call.body["model"] == "fake-small"  # the provider's default model
    no_secret(done)


@pytest.mark.slow
def test_base_url_stands_for_an_openai_compatible_provider(llm, tmp_path):
    done = cli(
        conversation(tmp_path),
        *("--base-url", llm.openai_url, "--api-key-env", KEY_ENV, "--model", "qwen"),
        *("--keep-last", "2", "--instructions", "Keep every price.", "--target-tokens", "80"),
        *("--indent", "0"),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count(b"\n") == 1
    out = json.loads(done.stdout)
    assert out["compaction"]["targetTokensEstimate"] == 80
    assert out["messages"][1:] == CHAT[-2:]
    (call,) = llm.calls
    assert (call.body["model"], call.body["max_tokens"]) == ("qwen", 160)
    assert call.system.endswith("Keep every price.")
    assert call.headers["authorization"] == f"Bearer {SECRET}"
    no_secret(done)


@pytest.mark.slow
def test_a_small_context_window_chunks_the_conversation(llm, tmp_path):
    toml = providers_toml(llm, tmp_path / "p.toml", max_output_tokens=100)
    path = conversation(tmp_path, providerID="openai")  # the file names its provider
    done = cli(path, "--context-window-tokens", "700", env={"COMPACTOR_PROVIDERS": str(toml)})
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["compaction"]["chunksProcessed"] > 1 and out["compaction"]["passes"] >= 2
    assert expand(out["messages"][0]["content"]) == set(range(8))


@pytest.mark.slow
def test_a_provider_failure_is_one_line_and_exit_1_never_a_traceback(llm, tmp_path):
    llm.behaviour.fail_status, llm.behaviour.echo_key = 401, True
    toml = providers_toml(llm, tmp_path / "p.toml", max_retries=0)
    done = cli(conversation(tmp_path), "--providers", str(toml), "--provider", "openai")
    assert done.returncode == 1 and done.stdout == b""
    (line,) = done.stderr.decode().splitlines()
    assert line.startswith("provider 'openai' answered HTTP 401: Incorrect API key provided:")
    assert "[redacted]" in line
    no_secret(done)


@pytest.mark.slow
def test_a_timeout_is_bounded_by_the_options(llm, tmp_path):
    llm.behaviour.delay = 5.0
    done = cli(
        conversation(tmp_path),
        *("--base-url", llm.openai_url, "--model", "m"),
        *("--timeout-seconds", "1", "--max-retries", "0"),
    )
    assert done.returncode == 1
    assert re.fullmatch(timed_out("1"), done.stderr.decode())


def test_a_window_too_small_to_summarise_exits_2_with_the_reason(llm, tmp_path):
    done = cli(
        conversation(tmp_path),
        *("--base-url", llm.openai_url, "--model", "m", "--context-window-tokens", "256"),
    )
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.startswith(b"cannot summarise with provider 'command-line' and model 'm'")
    assert llm.calls == []


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--provider", "nope"], "{toml} has no provider 'nope'; it has anthropic, openai"),
        ([], "name a provider: --provider NAME (of a providers file) or --base-url URL"),
        (
            ["--provider", "openai", "--max-retries", "9"],
            "--max-retries: must be at most 5; it is 9",
        ),
        (["--provider", "openai", "--api-key-env", "X"], "--api-key-env goes with --base-url"),
    ],
)
def test_provider_problems_exit_2(llm, tmp_path, args, line):
    toml = providers_toml(llm, tmp_path / "p.toml")
    done = cli(conversation(tmp_path), "--providers", str(toml), *args)
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode().startswith(line.format(toml=toml))
    assert llm.calls == []


def test_a_key_in_the_providers_file_is_refused_without_repeating_it(llm, tmp_path):
    toml = tmp_path / "p.toml"
    toml.write_text(f'[providers.x]\nkind = "openai"\napi_key = "{SECRET}"\n', "utf-8")
    done = cli(conversation(tmp_path), "--providers", str(toml), "--provider", "x")
    assert done.returncode == 2
    assert done.stderr.decode().startswith("providers.x.api_key: a key is never written")
    no_secret(done)


def test_an_invalid_request_prints_every_problem_by_path(llm, tmp_path):
    done = cli(
        "-",
        *("--base-url", llm.openai_url, "--model", "m", "--target-tokens", "10"),
        stdin=json.dumps({"messages": [{"role": "user"}]}).encode(),
    )
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode().splitlines() == [
        "messages[0]: needs content or parts; it has neither",
        "targetTokensEstimate: must be at least 64; it is 10",
    ]


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_trickling_provider_ends_at_the_deadline_with_exit_1(llm, tmp_path):
    llm.behaviour.trickle = 0.2  # its answer would take minutes, each byte well within 1.5 s
    started = time.monotonic()
    done = cli(
        conversation(tmp_path),
        *("--base-url", llm.openai_url, "--model", "m"),
        *("--timeout-seconds", "1.5", "--max-retries", "2"),
    )
    assert time.monotonic() - started < 30  # the interpreter's start, then 1.5 s
    assert re.fullmatch(timed_out("1.5"), one_line(done, 1) + "\n")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("behaviour", "line"),
    [
        (
            {"answer": {"choices": {"0": {"message": {"content": "x"}}}}},
            "provider 'openai' gave an answer that is not a Chat Completions response (choices "
            "is an object, not a list); check its base_url",
        ),
        (
            {"huge": 50_000_000},
            "provider 'openai' answered with more than 1,048,576 bytes (50,000,",
        ),
        (
            {"fail_status": 404},
            "provider 'openai' answered HTTP 404: something failed; check the model name "
            "('fake-small') and the base_url",
        ),
    ],
    ids=["wrong-shape", "huge", "unknown-model"],
)
def test_an_answer_that_cannot_be_used_or_a_refused_model_exits_2(llm, tmp_path, behaviour, line):
    for name, value in behaviour.items():
        setattr(llm.behaviour, name, value)
    toml = providers_toml(llm, tmp_path / "p.toml", max_retries=0)
    done = cli(conversation(tmp_path), "--providers", str(toml), "--provider", "openai")
    assert one_line(done, 2).startswith(line)


@pytest.mark.slow
@pytest.mark.parametrize("echo", ECHOES)
def test_a_key_echoed_in_any_form_never_reaches_standard_error(llm, tmp_path, echo):
    llm.behaviour.fail_status, llm.behaviour.echo_key = 401, echo
    toml = providers_toml(llm, tmp_path / "p.toml", max_retries=0)
    done = cli(conversation(tmp_path), "--providers", str(toml), "--provider", "anthropic")
    assert one_line(done, 1).startswith(
        "provider 'anthropic' answered HTTP 401: Incorrect API key provided: [redacted]"
    )


@pytest.mark.slow
@pytest.mark.parametrize(("echo", "kind"), [("plain", "openai"), ("masked", "anthropic")])
def test_a_key_echoed_in_a_successful_answer_is_redacted_from_the_output(llm, tmp_path, echo, kind):
    llm.behaviour.echo_key_in_answer = echo
    toml = providers_toml(llm, tmp_path / "p.toml", max_retries=0)
    done = cli(conversation(tmp_path), "--providers", str(toml), "--provider", kind)
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    summary = json.loads(done.stdout)["messages"][0]["content"]
    assert summary == "Summary of #0-#7. Your key is [redacted]."
    no_secret(done)
