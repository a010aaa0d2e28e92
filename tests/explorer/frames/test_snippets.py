"""The curl command and the Python snippet send exactly the current request to the service."""

import ast
import json
import shlex
import subprocess
import types

import pytest
from fastapi.testclient import TestClient

from compactor import compact
from compactor.service import create_app
from explorer.frames import snippets
from tests.explorer.requests import HOSTILE, hostile_request, rich_request

URL = "http://127.0.0.1:8080/v1/memory-compact"


@pytest.mark.parametrize(
    ("base", "expected"),
    [
        ("http://127.0.0.1:8080", URL),
        ("http://127.0.0.1:8080/", URL),
        (
            "  https://compact.example.com/api  ",
            "https://compact.example.com/api/v1/memory-compact",
        ),
        ("ftp://host", None),
        ("127.0.0.1:8080", None),
        ("http://", None),
        ("http://host/?q=1", None),
        ("http://host/#x", None),
        ("http://ho st", None),
        ("", None),
    ],
)
def test_the_endpoint_is_under_an_http_base_url(base, expected):
    assert snippets.endpoint_url(base) == expected


def data_argument(command: str) -> str:
    words = shlex.split(command.replace("\\\n", " "))
    assert words[:5] == ["curl", "-sS", "-X", "POST", URL]
    return words[words.index("--data-binary") + 1]


def test_a_small_request_is_inlined_in_curl_exactly():
    request = hostile_request()  # quotes, <, $, backslashes: the shell must pass them unchanged
    body = data_argument(snippets.curl_command(URL, request, inline_limit=10**6))
    assert json.loads(body) == request


def test_bash_passes_the_inlined_body_unchanged():
    request = hostile_request()
    command = snippets.curl_command(URL, request, inline_limit=10**6)
    quoted = command.split("--data-binary ", 1)[1]
    printed = subprocess.run(
        ["bash", "-c", f"printf '%s' {quoted}"], capture_output=True, text=True, check=True
    ).stdout
    assert json.loads(printed) == request
    assert HOSTILE[3] in json.loads(printed)["messages"][7]["content"]


def test_a_large_request_is_read_from_the_downloaded_file():
    command = snippets.curl_command(URL, rich_request(), inline_limit=100)
    assert data_argument(command) == "@request.json"
    assert snippets.REQUEST_FILE == "request.json"


def test_the_downloaded_request_is_the_request():
    request = rich_request()
    assert json.loads(snippets.request_json(request)) == request


def literal_request(code: str):
    tree = ast.parse(code)
    (assign,) = [n for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "REQUEST"]
    return ast.literal_eval(assign.value)


def test_the_python_snippet_holds_a_small_request_as_a_literal():
    request = hostile_request()
    code = snippets.python_snippet(URL, request, inline_limit=10**6)
    assert literal_request(code) == request


def run_snippet(code: str, tmp_path, monkeypatch) -> tuple[list, dict]:
    """Run the snippet with httpx.post answered by the real service app, in-process."""
    client = TestClient(create_app())
    calls = []

    def post(url, json=None, timeout=None):
        calls.append((url, json))
        path = url.removeprefix("http://127.0.0.1:8080")
        return client.post(path, json=json)

    fake = types.ModuleType("httpx")
    fake.post = post
    monkeypatch.setitem(__import__("sys").modules, "httpx", fake)
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    exec(compile(code, "snippet.py", "exec"), namespace)
    return calls, namespace


@pytest.mark.parametrize("inline_limit", [10**6, 100])
def test_the_python_snippet_gets_the_engines_response_from_the_service(
    inline_limit, tmp_path, monkeypatch
):
    request = rich_request()
    (tmp_path / "request.json").write_text(snippets.request_json(request), "utf-8")
    code = snippets.python_snippet(URL, request, inline_limit=inline_limit)
    calls, namespace = run_snippet(code, tmp_path, monkeypatch)
    assert calls == [(URL, request)]
    assert namespace["result"] == compact(request)


def test_the_output_table_is_the_response_with_an_empty_id_where_there_is_none():
    request = rich_request()
    request["messages"][0]["id"] = "msg-0"
    response = compact(request)
    rows = snippets.output_rows(response)
    assert list(rows.columns) == list(snippets.OUTPUT_COLUMNS)
    assert len(rows) == len(response["messages"])
    for row, message in zip(rows.to_dict("records"), response["messages"], strict=True):
        wanted = {k: message[k] for k in snippets.OUTPUT_COLUMNS if k != "id"}
        assert row == {**wanted, "id": message.get("id", "")}
    ids = list(rows["id"])
    assert ids[0] == "msg-0" and set(ids[1:]) == {""}


def test_a_short_snippet_is_as_tall_as_it_is_and_a_long_one_scrolls_in_a_box():
    small = rich_request()
    small["messages"] = small["messages"][-2:]
    curl = snippets.curl_command(URL, small)
    assert len(curl.splitlines()) == 3
    assert snippets.snippet_height(curl) == "content"
    # wrapped at a tenth of the body's length, the command takes more screen lines than fit
    body = curl.splitlines()[-1]
    assert snippets.snippet_height(curl, wrap_at=-(-len(body) // 10)) == snippets.SNIPPET_HEIGHT
    assert snippets.snippet_height(curl, wrap_at=len(body)) == "content"
    python = snippets.python_snippet(URL, rich_request())
    assert len(python.splitlines()) > snippets.SNIPPET_LINES
    assert snippets.snippet_height(python) == snippets.SNIPPET_HEIGHT
    from_file = snippets.python_snippet(URL, rich_request(), inline_limit=0)
    assert snippets.snippet_height(from_file) == "content"
