"""A language model server for the tests and benchmarks: OpenAI Chat Completions and Anthropic
Messages on loopback, with deterministic summaries and usage, a context window, and, on demand,
every way a provider can misbehave: failures, a silent wait, an answer trickled one byte at a
time, a huge answer, a 200 of the wrong shape, a key echoed back plain, URL-encoded,
JSON-escaped or masked (in an error or in a summary), and a redirect.

The summary of a prompt names the messages it covers: it collects every ``#N`` in the user
message (the message labels of a conversation chunk, or the names in earlier summaries) and
answers ``Summary of #0-#3, #5.``, so a test can check that a merged summary covers every
message. Tokens are counted as ``ceil(len(text) / chars_per_token)`` per message text.

Each call records when the client went away (``Call.gone``) if it did before the answer ended,
so a test can tell that a call was cancelled and not left to run.
"""

from __future__ import annotations

import json
import math
import re
import select
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import quote

OPENAI_PATH = "/v1/chat/completions"
ANTHROPIC_PATH = "/v1/messages"
_LABEL = re.compile(r"#(\d+)(?:-#(\d+))?")
#: How a key is echoed back in an error message (``Behaviour.echo_key``).
ECHOES = ("plain", "url", "url-every-byte", "json-escaped", "masked")
_CHUNK = 64 * 1024


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
    #: The ``Retry-After`` header of those failures (seconds, or an HTTP date), if any.
    retry_after: str | None = None
    #: Error messages repeat the key the client sent, as a careless provider might: True or
    #: "plain" as sent, "url" percent-encoded (``quote(key, safe="")``), "url-every-byte" every
    #: character as ``%xx``, "json-escaped" every character as ``\\uXXXX`` in the message,
    #: "masked" its first 8 and last 4 characters around ``****...`` (as OpenAI's 401 says).
    echo_key: bool | str = False
    #: Summaries (200 answers) repeat the key the client sent, in a form of ``echo_key``.
    echo_key_in_answer: bool | str = False
    #: Seconds to wait before answering (the client's going away is noticed meanwhile).
    delay: float = 0.0
    #: Seconds between the bytes of the answer, from its first (status line, headers, body).
    trickle: float = 0.0
    #: Answer 200 with a body that is not JSON.
    garbage: bool = False
    #: Answer 200 with exactly this JSON value (a wrong shape), whatever the request.
    answer: Any = None
    #: Answer with an empty summary.
    empty: bool = False
    #: Characters of filler added to every summary (summaries too long to merge).
    padding: int = 0
    #: Answer a summary of this many bytes, streamed; ``declare_length`` False sends no
    #: Content-Length (the body ends when the connection closes).
    huge: int = 0
    declare_length: bool = True
    #: Answer 307 to this URL (``{path}`` is replaced by the request's path).
    redirect: str | None = None


@dataclass
class Call:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    status: int = 0
    #: The usage the answer reported (prompt, completion), or None.
    usage: tuple[int, int] | None = None
    started: float = field(default_factory=time.monotonic)
    #: When the client was seen gone before its answer was complete (monotonic), else None.
    gone: float | None = None
    #: Bytes of the answer written before the answer ended or the client went away.
    sent: int = 0

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
        return [c for c in self.calls if c.status == 200 and c.gone is None]

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


def echoed(key: str, how: bool | str) -> str:
    """``key`` as a careless provider repeats it (see :attr:`Behaviour.echo_key`)."""
    if how in (True, "plain"):
        return key
    if how == "url":
        return quote(key, safe="")
    if how == "url-every-byte":
        return "".join(f"%{b:02x}" for b in key.encode())
    if how == "json-escaped":
        return "".join(f"\\u{ord(c):04x}" for c in key)
    if how == "masked":
        return f"{key[:8]}****...{key[-4:]}"
    raise ValueError(f"echo_key is one of {ECHOES}, not {how!r}")


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

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
        if b.delay and not self._wait(call, b.delay):
            return None
        failed_before = sum(1 for c in fake.calls[:-1] if c.status >= 400)
        if b.fail_status is not None and failed_before < b.fail_times:
            said = "something failed"
            if b.echo_key:
                said = f"Incorrect API key provided: {echoed(_key_of(call), b.echo_key)}"
            wait = {"Retry-After": b.retry_after} if b.retry_after is not None else None
            return self._send(call, b.fail_status, _error(anthropic, said, "api_error"), wait)
        if b.redirect is not None:
            return self._send(call, 307, {}, {"Location": b.redirect.format(path=self.path)})
        if b.garbage:
            return self._send(call, 200, "<html>not json</html>")
        if b.answer is not None:
            return self._send(call, 200, b.answer)
        if b.huge:
            return self._send_huge(call, anthropic, b)
        texts = ([body["system"]] if anthropic else []) + [m["content"] for m in body["messages"]]
        prompt = sum(fake.tokens(t) for t in texts)
        wanted = body["max_tokens"]
        if b.window is not None and prompt + wanted > b.window:
            return self._send(call, 400, _too_long(anthropic, prompt, wanted, b))
        text = "" if b.empty else summary_of(call.user) + " " * bool(b.padding) + "~" * b.padding
        if b.echo_key_in_answer:
            text += f" Your key is {echoed(_key_of(call), b.echo_key_in_answer)}."
        used = (prompt, fake.tokens(text))
        call.usage = used if b.usage else None
        return self._send(call, 200, _answer(anthropic, body["model"], text, used, b.usage))

    def _wait(self, call: Call, seconds: float) -> bool:
        """Wait ``seconds``, watching the connection; False when the client went or we stop."""
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            if self.server.fake.stopping.is_set():
                return False
            if self._client_gone(min(left, 0.05)):
                call.gone = time.monotonic()
                return False
        return True

    def _client_gone(self, timeout: float) -> bool:
        readable, _, _ = select.select([self.connection], [], [], timeout)
        if not readable:
            return False
        try:
            return self.connection.recv(1, socket.MSG_PEEK) == b""
        except OSError:
            return True

    def _send(
        self, call: Call, status: int, value: Any, headers: dict[str, str] | None = None
    ) -> None:
        call.status = status
        data = value.encode() if isinstance(value, str) else json.dumps(value).encode()
        head = [f"HTTP/1.1 {status} {self.responses.get(status, ('',))[0]}"]
        head += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
        head += [f"{k}: {v}" for k, v in (headers or {}).items()]
        self._write(call, [("\r\n".join(head) + "\r\n\r\n").encode(), data])

    def _send_huge(self, call: Call, anthropic: bool, b: Behaviour) -> None:
        """A 200 whose summary is ``b.huge`` bytes of ``~``, written a chunk at a time."""
        call.status = 200
        marker = "\x00"
        shell = json.dumps(_answer(anthropic, "fake", marker, (1, 1), False)).encode()
        before, after = shell.split(b"\\u0000")
        size = len(before) + b.huge + len(after)
        head = ["HTTP/1.1 200 OK", "Content-Type: application/json"]
        head += [f"Content-Length: {size}"] if b.declare_length else ["Connection: close"]
        if not b.declare_length:
            self.close_connection = True

        def pieces() -> Iterator[bytes]:
            yield ("\r\n".join(head) + "\r\n\r\n").encode()
            yield before
            left = b.huge
            while left > 0:
                yield b"~" * min(_CHUNK, left)
                left -= _CHUNK
            yield after

        self._write(call, pieces())

    def _write(self, call: Call, pieces: Any) -> None:
        """Write the answer (a byte at a time with ``trickle``); note a client that went."""
        trickle = self.server.fake.behaviour.trickle
        try:
            for piece in pieces:
                if not trickle:
                    self.wfile.write(piece)
                    call.sent += len(piece)
                    continue
                for i in range(len(piece)):
                    if not self._wait(call, trickle):
                        return
                    self.wfile.write(piece[i : i + 1])
                    self.wfile.flush()
                    call.sent += 1
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):  # the client gave up
            call.gone = time.monotonic()
            self.close_connection = True


def _key_of(call: Call) -> str:
    """The key the client sent (Anthropic's header or OpenAI's bearer token)."""
    key = call.headers.get("x-api-key") or call.headers.get("authorization", "")
    return key.removeprefix("Bearer ")


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
    # Hundreds of calls may connect at once (the benchmark's trickling calls).
    request_queue_size = 512
    fake: FakeLLM


@contextmanager
def running() -> Iterator[FakeLLM]:
    """A server on a free loopback port, stopped (and any waiting answer abandoned) on exit."""
    fake, httpd, thread = start()
    try:
        yield fake
    finally:
        fake.stopping.set()
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


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
