"""A language model server for the tests: OpenAI Chat Completions and Anthropic Messages on
loopback, with deterministic summaries and usage, a context window, and failures on demand.

The summary of a prompt names the messages it covers: it collects every ``#N`` in the user
message (the message labels of a conversation chunk, or the names in earlier summaries) and
answers ``Summary of #0-#3, #5.``, so a test can check that a merged summary covers every
message. Tokens are counted as ``ceil(len(text) / chars_per_token)`` per message text.
"""

from __future__ import annotations

import json
import math
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

OPENAI_PATH = "/v1/chat/completions"
ANTHROPIC_PATH = "/v1/messages"
_LABEL = re.compile(r"#(\d+)(?:-#(\d+))?")


@dataclass
class Behaviour:
    """What the server does; a test changes it before calling."""

    #: Prompt plus max_tokens above this many tokens get a context-length error.
    window: int | None = None
    #: Whether the context-length error states the window (OpenAI does; llama.cpp does not).
    states_window: bool = True
    chars_per_token: int = 4
    #: Whether answers report usage.
    usage: bool = True
    #: Answer this HTTP status (with an error body) to the first ``fail_times`` calls.
    fail_status: int | None = None
    fail_times: int = 1_000_000
    #: Error messages repeat the key the client sent, as a careless provider might.
    echo_key: bool = False
    #: Seconds to wait before answering.
    delay: float = 0.0
    #: Answer 200 with a body that is not JSON.
    garbage: bool = False
    #: Answer with an empty summary.
    empty: bool = False
    #: Characters of filler added to every summary (summaries too long to merge).
    padding: int = 0


@dataclass
class Call:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    status: int = 0
    #: The usage the answer reported (prompt, completion), or None.
    usage: tuple[int, int] | None = None

    @property
    def user(self) -> str:
        """The user message's text."""
        return self.body["messages"][-1]["content"]

    @property
    def system(self) -> str:
        if "system" in self.body:
            return self.body["system"]
        return self.body["messages"][0]["content"]


@dataclass
class FakeLLM:
    """The running server: its base URLs, what it does, and every call it received."""

    host: str
    port: int
    behaviour: Behaviour = field(default_factory=Behaviour)
    calls: list[Call] = field(default_factory=list)
    stopping: threading.Event = field(default_factory=threading.Event)

    @property
    def openai_url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    @property
    def anthropic_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def answered(self) -> list[Call]:
        """The calls that got a summary."""
        return [c for c in self.calls if c.status == 200]

    def tokens(self, text: str) -> int:
        return math.ceil(len(text) / self.behaviour.chars_per_token)


def summary_of(text: str) -> str:
    """``Summary of #0-#3, #5.`` for the message numbers named in ``text``."""
    numbers = sorted(expand(text))
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    named = [f"#{r[0]}" if len(r) == 1 else f"#{r[0]}-#{r[-1]}" for r in runs]
    return f"Summary of {', '.join(named) or 'nothing'}."


def expand(text: str) -> set[int]:
    """The message numbers named in ``text``: ``#3`` or a range ``#0-#3`` (as summaries say)."""
    covered: set[int] = set()
    for start, end in _LABEL.findall(text):
        covered.update(range(int(start), int(end or start) + 1))
    return covered


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def do_POST(self) -> None:
        fake = self.server.fake
        length = int(self.headers.get("Content-Length", 0))
        body = json.loads(self.rfile.read(length) or b"{}")
        call = Call(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
        fake.calls.append(call)
        anthropic = self.path == ANTHROPIC_PATH
        if self.path not in (OPENAI_PATH, ANTHROPIC_PATH):
            return self._send(call, 404, {"error": {"message": f"no route {self.path}"}})
        b = fake.behaviour
        if b.delay and fake.stopping.wait(b.delay):
            return None
        failed_before = sum(1 for c in fake.calls[:-1] if c.status >= 400)
        if b.fail_status is not None and failed_before < b.fail_times:
            key = call.headers.get("x-api-key") or call.headers.get("authorization", "")
            said = f"Incorrect API key provided: {key}" if b.echo_key else "something failed"
            return self._send(call, b.fail_status, _error(anthropic, said, "api_error"))
        if b.garbage:
            return self._send(call, 200, "<html>not json</html>")
        texts = ([body["system"]] if anthropic else []) + [m["content"] for m in body["messages"]]
        prompt = sum(fake.tokens(t) for t in texts)
        wanted = body["max_tokens"]
        if b.window is not None and prompt + wanted > b.window:
            return self._send(call, 400, _too_long(anthropic, prompt, wanted, b))
        text = "" if b.empty else summary_of(call.user) + " " * bool(b.padding) + "~" * b.padding
        used = (prompt, fake.tokens(text))
        call.usage = used if b.usage else None
        return self._send(call, 200, _answer(anthropic, body["model"], text, used, b.usage))

    def _send(self, call: Call, status: int, value: Any) -> None:
        call.status = status
        data = value.encode() if isinstance(value, str) else json.dumps(value).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout test)
            pass


def _error(anthropic: bool, message: str, kind: str, code: str | None = None) -> dict[str, Any]:
    if anthropic:
        return {"type": "error", "error": {"type": kind, "message": message}}
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


def _too_long(anthropic: bool, prompt: int, wanted: int, b: Behaviour) -> dict[str, Any]:
    if not b.states_window:  # llama.cpp's server
        return _error(
            anthropic,
            "the request exceeds the available context size, try increasing it",
            "exceed_context_size_error",
        )
    if anthropic:
        message = (
            f"input length and `max_tokens` exceed context limit: {prompt} + {wanted} > "
            f"{b.window}, decrease input length or `max_tokens` and try again"
        )
        return _error(True, message, "invalid_request_error")
    message = (
        f"This model's maximum context length is {b.window} tokens. However, you requested "
        f"{prompt + wanted} tokens ({prompt} in the messages, {wanted} in the completion). "
        "Please reduce the length of the messages or completion."
    )
    return _error(False, message, "invalid_request_error", "context_length_exceeded")


def _answer(
    anthropic: bool, model: str, text: str, used: tuple[int, int], usage: bool
) -> dict[str, Any]:
    prompt, completion = used
    if anthropic:
        out: dict[str, Any] = {
            "id": "msg_fake",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
        }
        if usage:
            out["usage"] = {"input_tokens": prompt, "output_tokens": completion}
        return out
    out = {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop",
            }
        ],
    }
    if usage:
        out["usage"] = {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        }
    return out


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    fake: FakeLLM


def start() -> tuple[FakeLLM, _Server, threading.Thread]:
    httpd = _Server(("127.0.0.1", 0), _Handler)
    host, port = httpd.server_address[:2]
    httpd.fake = FakeLLM(str(host), int(port))
    # A short poll interval: shutdown() waits for the next poll, once per test.
    thread = threading.Thread(
        target=httpd.serve_forever, args=(0.02,), name="fake-llm", daemon=True
    )
    thread.start()
    return httpd.fake, httpd, thread
