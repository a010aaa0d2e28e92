"""Output: the compacted messages and the full response are the engine's; the snippets send it."""

import json
import shlex

import pytest

from compactor.engine import build_response
from explorer.frames import snippets
from harness.apptest import MOVES, assert_clean, follows_the_engine, on_page, request_of, table
from tests.explorer.requests import rich_request

PAGE = "pages/output.py"


def response_code(at) -> str:
    """The Full response block: JSON text that wraps at spaces, never inside a word."""
    blocks = [c for c in at.main.code if c.language == "json" and '"limits"' in c.value]
    assert len(blocks) == 1
    assert blocks[0].proto.wrap_lines
    return blocks[0].value


def reported(at):
    frame = table(at, "content")
    rows = list(zip(frame["index"], frame["kept"], frame["chars"], frame["content"], strict=True))
    return {"rows": rows, "response": json.loads(response_code(at))}


def service_snippets(at) -> tuple[str, ...]:
    """The curl command and the httpx script that send the request to the service."""
    return tuple(c.value for c in at.code if c.language == "bash" or "import httpx" in c.value)


def expected(result):
    response = build_response(result)
    rows = [(m["index"], m["kept"], m["chars"], m["content"]) for m in response["messages"]]
    return {"rows": rows, "response": response}


@pytest.mark.parametrize("move", MOVES, ids=lambda m: f"{m[0]}={m[1]}")
def test_the_output_follows_the_engine(move):
    follows_the_engine(PAGE, rich_request(), reported, expected, move)


def test_downloads_and_snippets_send_the_current_request():
    request = rich_request()
    request["messages"] = request["messages"] * 3  # over the inline limit
    at = on_page(PAGE, request)
    labels = [b.label for b in at.download_button]
    assert labels == [
        "Download request",
        "Download response",
        "Download compacted messages",
        *snippets.PROVIDERS.values(),
        "Download setting",
    ]
    curl, python = service_snippets(at)
    # a conversation that is neither a file nor a sample: its downloads start "conversation"
    assert curl.endswith("--data-binary @conversation.request.json")
    assert "http://127.0.0.1:8080/v1/memory-compact" in shlex.split(curl.replace("\\\n", ""))
    assert 'Path("conversation.request.json")' in python
    assert any("read it from conversation.request.json" in c.value for c in at.caption)
    url = "http://127.0.0.1:8080/v1/memory-compact"
    expected = snippets.python_snippet(
        url, request_of(at), request_file="conversation.request.json"
    )
    assert python == expected.rstrip("\n")


def test_a_small_request_is_inlined_and_the_base_url_is_configurable():
    request = rich_request()
    request["messages"] = request["messages"][-4:]
    at = on_page(PAGE, request)
    at.text_input(key="service_base_url").set_value("https://compact.example.com/").run()
    assert_clean(at)
    curl, _ = service_snippets(at)
    words = shlex.split(curl.replace("\\\n", ""))
    assert "https://compact.example.com/v1/memory-compact" in words
    assert json.loads(words[-1]) == request_of(at)


def test_a_bad_base_url_says_what_is_expected_and_shows_no_snippet():
    at = on_page(PAGE, rich_request())
    at.text_input(key="service_base_url").set_value("localhost:8080").run()
    assert_clean(at)
    assert any("must be an http:// or https:// address" in e.value for e in at.error)
    assert service_snippets(at) == ()  # no snippet for the service
    # the setting's own snippets do not need the service, and the full response is there
    assert [c.language for c in at.code] == ["python", "python", "toml", "json"]
