"""`python -m compactor serve`: the real server process on a free loopback port, and its CLI."""

import json
import os
import signal
import subprocess
import sys

import httpx
import pytest

from compactor import compact
from harness.service import free_port, serving
from tests.paths import GOLDEN, ROOT

LIMIT = 4096
# Run the CLI as if FastAPI and uvicorn were not installed: importing them fails.
WITHOUT_SERVICE_EXTRA = (
    "import sys; sys.modules['fastapi'] = sys.modules['uvicorn'] = None; "
    "from compactor.cli import main; sys.exit(main(sys.argv[1:]))"
)


def cli(*args, code=None, env=None):
    command = ["-c", code, *args] if code else ["-m", "compactor", *args]
    return subprocess.run(
        [sys.executable, *command], capture_output=True, cwd=ROOT, timeout=60, env=env
    )


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The service as `python -m compactor serve` starts it; stopped with Ctrl-C (SIGINT)."""
    log = tmp_path_factory.mktemp("serve") / "server.log"
    with serving("--max-body-bytes", str(LIMIT), log=log) as service:
        yield service


def test_the_real_server_compacts_the_dispatcher_request_and_stops_cleanly(server):
    base, process = server.url, server.process
    body = (GOLDEN / "dispatcher.request.json").read_bytes()
    response = httpx.post(
        f"{base}/v1/memory-compact",
        content=body,
        headers={"Content-Type": "application/json"},
        timeout=10,
    )
    assert response.status_code == 200
    assert response.json() == compact(json.loads(body))

    # A streamed (chunked) body over --max-body-bytes is refused; the connection is kept and
    # the rest of the body discarded (closing at once reset clients still sending: issue 11).
    chunks = (b"x" * 1000 for _ in range(10))
    refused = httpx.post(
        f"{base}/v1/context/trim",
        content=chunks,
        headers={"Content-Type": "application/json"},
        timeout=10,
    )
    assert refused.status_code == 413
    assert "connection" not in refused.headers
    assert f"at most {LIMIT:,} bytes" in refused.json()["error"]["problems"][0]["message"]

    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=30) == 0
    log = server.log_text()
    assert f"Uvicorn running on http://127.0.0.1:{base.rsplit(':', 1)[1]}" in log
    assert "Finished server process" in log
    assert "Traceback" not in log


def test_serve_without_the_service_extra_says_how_to_install_it():
    done = cli("serve", code=WITHOUT_SERVICE_EXTRA)
    assert done.returncode == 2 and done.stdout == b""
    message = done.stderr.decode()
    assert "fastapi, uvicorn" in message
    assert 'pip install -e ".[service]"' in message
    assert "Traceback" not in message


def test_the_rest_of_the_cli_works_without_the_service_extra():
    path = GOLDEN / "dispatcher.request.json"
    done = cli("compact", str(path), "--indent", "0", code=WITHOUT_SERVICE_EXTRA)
    assert done.returncode == 0, done.stderr.decode()
    assert json.loads(done.stdout) == compact(json.loads(path.read_bytes()))


def test_serve_help_explains_the_options():
    done = cli("serve", "--help")
    assert done.returncode == 0
    text = done.stdout.decode()
    for option in ("--host", "--port", "--workers", "--max-body-bytes"):
        assert option in text
    assert "default 127.0.0.1" in text and "/v1/memory-compact" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--port", "70000"], "the port must be at most 65535, not 70000"),
        (["--workers", "0"], "workers must be at least 1, not 0"),
        (["--max-body-bytes", "4MiB"], "the body limit must be a whole number, not '4MiB'"),
    ],
)
def test_serve_refuses_bad_options(args, message):
    done = cli("serve", *args)
    assert done.returncode == 2
    assert message in done.stderr.decode()


def test_serve_refuses_a_bad_limit_in_the_environment():
    env = {**os.environ, "COMPACTOR_MAX_BODY_BYTES": "lots"}
    done = cli("serve", "--port", str(free_port()), env=env)
    assert done.returncode == 2
    assert "COMPACTOR_MAX_BODY_BYTES must be a whole number, not 'lots'" in done.stderr.decode()


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize(
    "text, says",
    [
        ('[providers.local]\nkind = "telepathy"\n', "providers.local.kind"),
        ("[providers.local\n", "line 1"),
        (None, "cannot read the providers file"),
    ],
    ids=["bad kind", "not TOML", "missing"],
)
def test_a_broken_providers_file_stops_serve_at_once_with_the_reason(workers, text, says, tmp_path):
    path = tmp_path / "providers.toml"
    if text is not None:
        path.write_text(text)
    env = {**os.environ, "COMPACTOR_PROVIDERS": str(path)}
    done = cli("serve", "--port", str(free_port()), "--workers", workers, env=env)
    said = done.stderr.decode() + done.stdout.decode()
    assert done.returncode == 2, said
    assert f"the providers file {path} (COMPACTOR_PROVIDERS) cannot be used" in said
    assert says in said, said
    assert "Traceback" not in said and "Uvicorn running" not in said
