"""POST /v1/context/compact on the real service (``python -m compactor serve`` on loopback, as an
operator starts it) while its providers hold calls open: a client that goes away cancels its
call, a worker waits on a bounded number of calls (503 with Retry-After at once beyond), and a
healthy call is answered while trickling calls are in flight."""

import json
import socket
import time
from contextlib import ExitStack, contextmanager

import httpx
import pytest

from harness.service import serving
from tests.llm_server import KEY_ENV, SECRET, running

pytestmark = pytest.mark.slow
PATH = "/v1/context/compact"
CHAT = [
    {"role": "user" if i % 2 == 0 else "assistant", "content": f"turn {i}: " + "lorem " * 30}
    for i in range(8)
]


def body(provider: str, messages=CHAT) -> bytes:
    return json.dumps({"providerID": provider, "model": "m", "messages": messages}).encode()


@contextmanager
def service(tmp_path, monkeypatch, access_log=False, **env):
    """The service with two providers: ``slow`` (its calls held open, deadline 30 s) and
    ``healthy``, each at a test server of its own; its output in ``tmp_path / "server.log"``."""
    with ExitStack() as stack:
        slow, healthy = stack.enter_context(running()), stack.enter_context(running())
        lines = []
        for name, fake in (("slow", slow), ("healthy", healthy)):
            lines += [f"[providers.{name}]", 'kind = "openai"', f'base_url = "{fake.openai_url}"']
            lines += [f'api_key_env = "{KEY_ENV}"', "timeout_seconds = 30", "max_retries = 0", ""]
        (tmp_path / "providers.toml").write_text("\n".join(lines), "utf-8")
        monkeypatch.setenv("COMPACTOR_PROVIDERS", str(tmp_path / "providers.toml"))
        monkeypatch.setenv(KEY_ENV, SECRET)
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        options = ("--processes", "0", *([] if access_log else ["--no-access-log"]))
        running_service = stack.enter_context(serving(*options, log=tmp_path / "server.log"))
        yield running_service, slow, healthy
    assert "Traceback" not in (tmp_path / "server.log").read_text("utf-8", errors="replace")


def send_and_hold(url: str, data: bytes) -> socket.socket:
    """A request sent on a connection of its own, whose answer is never read."""
    host, port = url.removeprefix("http://").split(":")
    connection = socket.create_connection((host, int(port)))
    head = (
        f"POST {PATH} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(data)}\r\n\r\n"
    )
    connection.sendall(head.encode() + data)
    return connection


def wait_for(condition, seconds: float = 20.0) -> bool:
    end = time.monotonic() + seconds
    while not condition() and time.monotonic() < end:
        time.sleep(0.02)
    return condition()


@pytest.mark.timeout(180)
def test_a_client_that_goes_away_cancels_its_provider_call(tmp_path, monkeypatch):
    with service(tmp_path, monkeypatch) as (server, slow, _):
        slow.behaviour.delay = 60.0
        held = send_and_hold(server.url, body("slow"))
        assert wait_for(lambda: len(slow.calls) == 1)
        left = time.monotonic()
        held.close()
        (call,) = slow.calls
        assert wait_for(lambda: call.gone is not None, 10.0)
        assert call.gone - left < 3.0  # noticed at once, not at the provider's deadline (30 s)


@pytest.mark.timeout(180)
def test_the_access_log_shows_499_for_each_client_that_went_away(tmp_path, monkeypatch):
    log = tmp_path / "server.log"
    with service(tmp_path, monkeypatch, access_log=True) as (server, slow, _):
        slow.behaviour.delay = 60.0
        for n in range(1, 4):
            held = send_and_hold(server.url, body("slow"))
            assert wait_for(lambda n=n: len(slow.calls) == n)
            port = held.getsockname()[1]
            held.close()
            line = f'127.0.0.1:{port} - "POST {PATH} HTTP/1.1" 499'
            assert wait_for(lambda line=line: line in log.read_text("utf-8"), 10.0), log.read_text(
                "utf-8"
            )[-2000:]
        with httpx.Client(base_url=server.url, timeout=20) as client:  # answered: logged as ever
            client.post(PATH, content=body("healthy"), headers={"Content-Type": "application/json"})
        assert wait_for(lambda: f'"POST {PATH} HTTP/1.1" 200' in log.read_text("utf-8"), 10.0)
    text = log.read_text("utf-8")
    assert text.count(" 499") == 3, text[-2000:]


@pytest.mark.timeout(180)
def test_over_the_bound_the_service_answers_503_with_retry_after_at_once(tmp_path, monkeypatch):
    with service(tmp_path, monkeypatch, COMPACTOR_MAX_PROVIDER_CALLS="2") as (server, slow, _):
        slow.behaviour.delay = 60.0
        held = [send_and_hold(server.url, body("slow")) for _ in range(2)]
        assert wait_for(lambda: len(slow.calls) == 2)
        headers = {"Content-Type": "application/json"}
        with httpx.Client(base_url=server.url, timeout=20) as client:
            busy = client.post(PATH, content=body("healthy"), headers=headers)
            assert busy.status_code == 503 and busy.headers["Retry-After"] == "1"
            (problem,) = busy.json()["error"]["problems"]
            assert problem["message"].startswith("this worker already waits on 2 language")
            assert all(c.gone is None for c in slow.calls)  # both still wait on the provider
            # a request that needs no call passes through even at the bound
            passing = client.post(PATH, content=body("healthy", CHAT[:2]), headers=headers)
            assert passing.status_code == 200
            for connection in held:  # their clients go: their calls end, their slots free
                connection.close()
            assert wait_for(lambda: all(c.gone is not None for c in slow.calls), 10.0)
            again = client.post(PATH, content=body("healthy"), headers=headers)
            assert again.status_code == 200


@pytest.mark.timeout(240)
def test_a_healthy_call_is_answered_while_50_trickling_calls_are_in_flight(tmp_path, monkeypatch):
    with service(tmp_path, monkeypatch) as (server, slow, healthy):
        slow.behaviour.trickle = 0.5  # each call alive until its 30 s deadline
        started = time.monotonic()
        held = [send_and_hold(server.url, body("slow")) for _ in range(50)]
        assert wait_for(lambda: len(slow.calls) == 50, 60.0)
        headers = {"Content-Type": "application/json"}
        answer = httpx.post(f"{server.url}{PATH}", content=body("healthy"), headers=headers)
        answered = time.monotonic()
        assert answer.status_code == 200
        assert answer.json()["messages"][0]["content"] == "Summary of #0-#3."
        # answered beside them, not after them: none of the 50 has reached its deadline or gone
        assert answered - started < 30 and all(c.gone is None for c in slow.calls)
        assert len(healthy.calls) == 1
        for connection in held:
            connection.close()
