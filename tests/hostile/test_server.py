"""The hostile corpus and the HTTP edges of issue 11 against the real server on loopback.

`python -m compactor serve --workers 2` on a free port, as an operator starts it (each worker
with its compute processes), driven by httpx and curl.
"""

import concurrent.futures
import json
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

import httpx
import pytest
from jsonschema import Draft202012Validator

from compactor import service
from compactor.errors import MAX_PROBLEMS
from compactor.service.docs import ASSETS
from tests.compactor.service.test_serve import free_port
from tests.hostile.cases import BY_NAME, CASES, COMPACT, LIMIT, MAX_ERROR_BYTES
from tests.paths import GOLDEN, ROOT

JSON = {"Content-Type": "application/json"}
ERROR = Draft202012Validator(service.ERROR_SCHEMA)


@pytest.fixture(scope="module")
def base():
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "compactor", "serve", "--port", str(port), "--workers", "2"]
        + ["--no-access-log"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        assert process.poll() is None, process.stdout.read().decode()
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                break
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, "the server did not answer /healthz within 60 s"
        time.sleep(0.2)
    yield url
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=60) == 0
    log = process.stdout.read().decode()
    assert "Traceback" not in log, log[-5000:]


@pytest.fixture(scope="module")
def client(base):
    with httpx.Client(base_url=base, timeout=60) as shared:
        yield shared


def where(problem):
    if "line" in problem:
        return f"line {problem['line']}, column {problem['column']}"
    return problem["path"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_every_hostile_body_gets_its_answer_and_the_connection_lives_on(client, case):
    response = client.post(case.route, content=case.body(), headers=JSON)
    assert response.status_code == case.status
    assert response.headers["x-content-type-options"] == "nosniff"
    if case.status != 200:
        assert len(response.content) < MAX_ERROR_BYTES
        body = response.json()
        assert list(ERROR.iter_errors(body)) == []
        problems = body["error"]["problems"]
        assert where(problems[0]) == case.where
        assert all(where(p) for p in problems) and len(problems) <= MAX_PROBLEMS + 1
    # The same keep-alive connection still answers (issue 11: a 500 reset the next request).
    assert client.get("/healthz").status_code == 200


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/v1/memory-compact/"),
        ("POST", "/v1/context/trim/"),
        ("GET", "/healthz/"),
        ("GET", "/docs/"),
        ("GET", "/v1/memory-compact//"),
    ],
)
def test_a_trailing_slash_is_a_404_not_a_redirect(client, method, path):
    response = client.request(method, path, content=b"{}", headers={**JSON, "Host": "evil.example"})
    assert response.status_code == 404
    assert "location" not in response.headers
    assert response.json()["error"]["problems"] == [
        {"message": f"there is no endpoint at {path}; see /docs for the endpoints"}
    ]


def test_a_declared_body_over_the_limit_reaches_every_httpx_client_as_a_413(base):
    body = b" " * (LIMIT + 1)
    statuses = []
    for _ in range(20):  # fresh connections, each sending the whole body before reading
        with httpx.Client(timeout=30) as fresh:
            response = fresh.post(f"{base}{COMPACT}", content=body, headers=JSON)
            statuses.append(response.status_code)
            assert response.json()["error"]["problems"][0]["message"].startswith(
                f"the body has {LIMIT + 1:,} bytes; this service accepts at most {LIMIT:,}"
            )
            # The rest of the body was discarded: the connection serves the next request.
            assert fresh.get(f"{base}/healthz").status_code == 200
    assert statuses == [413] * 20


def test_a_streamed_body_over_the_limit_is_a_413_for_httpx(base):
    chunks = (b" " * 65536 for _ in range(LIMIT // 65536 + 8))
    response = httpx.post(f"{base}{COMPACT}", content=chunks, headers=JSON, timeout=30)
    assert response.status_code == 413
    assert response.json()["error"]["problems"][0]["message"].startswith("the body has more")


@pytest.mark.skipif(shutil.which("curl") is None, reason="needs curl")
@pytest.mark.parametrize("expect", [None, ""], ids=["expect-100-continue", "no-expect"])
def test_a_body_over_the_limit_is_a_413_for_curl(base, tmp_path, expect):
    path = tmp_path / "big.json"
    path.write_bytes(b" " * (LIMIT + 1))
    command = ["curl", "-sS", "-o", str(tmp_path / "out"), "-w", "%{http_code}"]
    command += ["-H", "Content-Type: application/json", "--data-binary", f"@{path}"]
    if expect is not None:
        command += ["-H", "Expect:"]  # curl asks for 100 Continue by default for large bodies
    done = subprocess.run([*command, f"{base}{COMPACT}"], capture_output=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"413", b"")
    answer = json.loads((tmp_path / "out").read_bytes())
    assert answer["error"]["status"] == 413


def test_every_kind_of_response_says_nosniff(client):
    responses = [
        client.get("/healthz"),
        client.post(
            COMPACT, content=(GOLDEN / "dispatcher.request.json").read_bytes(), headers=JSON
        ),
        client.get("/nothing"),
        client.get(COMPACT),
        client.post(COMPACT, content=b"{}", headers={"Content-Type": "text/plain"}),
        client.get("/docs"),
        client.get("/openapi.json"),
        client.get("/docs/assets/swagger-ui.css"),
        client.get("/", follow_redirects=False),
    ]
    assert [r.headers.get("x-content-type-options") for r in responses] == ["nosniff"] * 9


def test_the_docs_page_loads_nothing_from_another_origin(client):
    page = client.get("/docs")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    html = page.text
    # Every script, style sheet and icon it loads is one of ours, on this origin.
    loaded = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sorted(loaded) == sorted(f"/docs/assets/{name}" for name in ASSETS)
    assert re.findall(r"https?://", html) == []
    assert '"validatorUrl": null' in html  # Swagger UI's online validator would call out
    assert "url: '/openapi.json'" in html
    for name, media in ASSETS.items():
        asset = client.get(f"/docs/assets/{name}")
        assert asset.status_code == 200 and asset.headers["content-type"] == media
        assert len(asset.content) > 100
    assert b"SwaggerUIBundle" in client.get("/docs/assets/swagger-ui-bundle.js").content
    assert client.get("/docs/assets/index.html").status_code == 404  # only the files listed


def test_the_amplification_body_is_answered_in_under_a_second(client):
    body = BY_NAME["amplification"].body()
    client.post(COMPACT, content=body, headers=JSON)  # the compute processes are warm
    times = []
    for _ in range(3):
        start = time.perf_counter()
        response = client.post(COMPACT, content=body, headers=JSON)
        times.append(time.perf_counter() - start)
        assert response.status_code == 422 and len(response.content) < MAX_ERROR_BYTES
    # The best of three, so that other work on a shared machine does not count (issue 11: 64 s).
    assert min(times) < 1.0, times


def test_healthz_stays_fast_while_four_amplification_bodies_run(base):
    body = BY_NAME["amplification"].body()
    answers: list[tuple[float, int, int]] = []
    latencies: list[float] = []
    done = threading.Event()

    def attack() -> None:
        with httpx.Client(timeout=60) as attacker:
            start = time.perf_counter()
            response = attacker.post(f"{base}{COMPACT}", content=body, headers=JSON)
            answers.append(
                (time.perf_counter() - start, response.status_code, len(response.content))
            )

    def probe() -> None:
        with httpx.Client(timeout=10) as prober:
            prober.get(f"{base}/healthz")  # open the connection before the attack starts
            while not done.is_set():
                start = time.perf_counter()
                assert prober.get(f"{base}/healthz").status_code == 200
                latencies.append(time.perf_counter() - start)
                time.sleep(0.01)

    prober = threading.Thread(target=probe)
    prober.start()
    time.sleep(0.2)
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        for future in [pool.submit(attack) for _ in range(4)]:
            future.result()
    done.set()
    prober.join()
    assert [status for _, status, _ in answers] == [422] * 4
    assert all(size < MAX_ERROR_BYTES for _, _, size in answers)
    # Four at once share two cores with the prober (and whatever else the machine runs): each
    # must still be bounded by its body (issue 11: 64 s each), not take a second per core.
    assert all(seconds < 5.0 for seconds, _, _ in answers), answers
    latencies.sort()
    assert len(latencies) >= 10
    # Issue 11: under 50 ms while they run (it was a 13 s timeout).
    assert latencies[len(latencies) * 9 // 10] < 0.050, latencies
