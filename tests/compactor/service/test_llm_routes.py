"""POST /v1/context/compact through the real ASGI app, its providers at the test server."""

import json
import logging
import time

import anthropic  # noqa: F401 - imported once here, so no timing below includes the import
import openai  # noqa: F401
import pytest
from fastapi.testclient import TestClient
from jsonschema import Draft202012Validator

from compactor import service
from compactor.providers import PROVIDERS_ENV, ProviderConfigError
from compactor.service._llm_routes import LLM_COMPACT_PATH, TITLES
from compactor.strategies._llm_compact import COMPACT_REQUEST_SCHEMA
from tests.llm_server import (
    ECHOES,
    KEY_ENV,
    SECRET,
    expand,
    llm_fixture,
    providers_toml,
    secret_forms,
)

llm = llm_fixture()
JSON = {"Content-Type": "application/json"}
ERROR = Draft202012Validator(service.ERROR_SCHEMA)
CHAT = [
    {"role": "user" if i % 2 == 0 else "assistant", "content": f"turn {i}: " + "lorem " * 30}
    for i in range(12)
]


@pytest.fixture
def app(llm, tmp_path, monkeypatch):
    """The service with the test server's providers (``openai`` and ``anthropic``)."""

    def build(**fields):
        toml = providers_toml(llm, tmp_path / "providers.toml", **{"max_retries": 0, **fields})
        monkeypatch.setenv(PROVIDERS_ENV, str(toml))
        monkeypatch.setenv(KEY_ENV, SECRET)
        return TestClient(service.create_app(), raise_server_exceptions=False)

    return build


def post(client, body, provider="openai"):
    if isinstance(body, list):
        body = {"providerID": provider, "model": "fake-small", "messages": body}
    return client.post(LLM_COMPACT_PATH, content=json.dumps(body).encode(), headers=JSON)


def problems(response, status, title=None):
    assert response.status_code == status
    body = response.json()
    assert list(ERROR.iter_errors(body)) == []
    assert body["error"]["status"] == status
    assert body["error"]["title"] == (title or service.TITLES[status])
    return body["error"]["problems"]


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_compact_answers_as_the_seed_says(app, llm, provider):
    response = post(app(), CHAT, provider)
    assert response.status_code == 200
    out = response.json()
    (call,) = llm.calls
    assert out["messages"] == [{"role": "user", "content": "Summary of #0-#7."}, *CHAT[-4:]]
    assert out["stats"]["messagesBefore"] == 12 and out["stats"]["messagesAfter"] == 5
    assert out["compaction"] == {
        "compacted": True,
        "chunksProcessed": 1,
        "passes": 1,
        "summarizerPromptTokens": call.usage[0],
        "summarizerCompletionTokens": call.usage[1],
        "targetTokensEstimate": None,
    }


def test_a_long_conversation_is_chunked_within_the_configured_window(app, llm):
    client = app(context_window_tokens=700, max_output_tokens=100)
    out = post(client, CHAT * 3).json()
    assert out["compaction"]["chunksProcessed"] > 1 and out["compaction"]["passes"] >= 2
    assert expand(out["messages"][0]["content"]) == set(range(32))


def test_nothing_older_passes_through_without_calling_the_provider(app, llm):
    body = {"providerID": "openai", "model": "m", "messages": CHAT[:3], "keepLastMessages": 3}
    out = post(app(), body).json()
    assert out["messages"] == CHAT[:3] and out["compaction"]["compacted"] is False
    assert llm.calls == []


def test_an_invalid_request_gets_422_with_every_violation(app, llm):
    body = {"providerID": "openai", "messages": CHAT, "targetTokensEstimate": 10, "apiKey": "x"}
    assert problems(post(app(), body), 422) == [
        {
            "path": "apiKey",
            "message": "unknown field; allowed fields are providerID, model, messages, "
            "keepLastMessages, instructions, targetTokensEstimate",
        },
        {"path": "model", "message": "is required but missing"},
        {"path": "targetTokensEstimate", "message": "must be at least 64; it is 10"},
    ]


def test_an_unknown_provider_gets_422_at_provider_id(app):
    assert problems(post(app(), CHAT, "gpt"), 422) == [
        {
            "path": "providerID",
            "message": "no provider is configured with this name; the configured ones are "
            "'anthropic', 'openai'",
        }
    ]


def test_without_providers_configured_422_says_how_to_configure_them(monkeypatch):
    monkeypatch.delenv(PROVIDERS_ENV, raising=False)
    client = TestClient(service.create_app())
    (problem,) = problems(post(client, CHAT), 422)
    assert PROVIDERS_ENV in problem["message"]


def test_a_broken_providers_file_stops_the_service_from_starting(tmp_path, monkeypatch):
    path = tmp_path / "p.toml"
    path.write_text('[providers.x]\nkind = "openai"\napi_key = "sk-1"\n', "utf-8")
    monkeypatch.setenv(PROVIDERS_ENV, str(path))
    with pytest.raises(ProviderConfigError, match="providers.x.api_key"):
        service.create_app()


def test_a_conversation_that_cannot_be_summarised_gets_400_with_the_reason(app, llm):
    (problem,) = problems(post(app(context_window_tokens=256), CHAT), 400, TITLES[400])
    assert problem["message"].startswith("cannot summarise with provider 'openai'")
    assert llm.calls == []


def test_a_model_the_provider_refuses_gets_400(app, llm):
    llm.behaviour.fail_status = 404
    (problem,) = problems(post(app(), CHAT), 400, TITLES[400])
    assert problem["message"].endswith("check the model name ('fake-small') and the base_url")


@pytest.mark.parametrize(
    ("behaviour", "status", "start", "deadline"),
    [
        # a failure that answers at once gets a deadline a loaded machine cannot overrun (the
        # deadline counts the client library's import and the client's creation)
        ({"fail_status": 503}, 502, "provider 'openai' answered HTTP 503", 10),
        ({"delay": 3.0}, 504, "provider 'openai' did not answer within 0.3 s (1 attempt)", 0.3),
        ({"garbage": True}, 502, "provider 'openai' gave an answer that is not", 10),
    ],
)
def test_provider_failures_get_502_or_504_in_the_one_shape(
    app, llm, behaviour, status, start, deadline
):
    for name, value in behaviour.items():
        setattr(llm.behaviour, name, value)
    (problem,) = problems(post(app(timeout_seconds=deadline), CHAT), status, TITLES[status])
    assert problem["message"].startswith(start)


@pytest.mark.timeout(60)
def test_a_trickling_provider_gets_504_within_its_deadline(app, llm):
    llm.behaviour.trickle = 0.2
    client = app(timeout_seconds=1.5, max_retries=2)
    started = time.monotonic()
    (problem,) = problems(post(client, CHAT), 504, TITLES[504])
    assert time.monotonic() - started < 1.5 + 2.0
    assert problem["message"] == (
        "provider 'openai' did not answer within 1.5 s (1 attempt); try again, or raise "
        "timeout_seconds in its configuration"
    )


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_huge_answer_gets_a_small_502(app, llm, provider):
    llm.behaviour.huge = 50_000_000
    response = post(app(), CHAT, provider)
    (problem,) = problems(response, 502, TITLES[502])
    assert problem["message"].startswith(f"provider {provider!r} answered with more than 1,048,576")
    assert len(response.content) < 1000


@pytest.mark.parametrize(
    ("provider", "answer"),
    [
        ("openai", {"choices": {"0": {"message": {"content": "x"}}}}),
        ("openai", {"choices": [{"message": {"content": ["x"]}}]}),
        ("anthropic", {"content": {"type": "text"}}),
        ("anthropic", [1, 2]),
    ],
)
def test_an_answer_of_the_wrong_shape_gets_502_never_500(app, llm, provider, answer):
    llm.behaviour.answer = answer
    (problem,) = problems(post(app(), CHAT, provider), 502, TITLES[502])
    assert "gave an answer that is not" in problem["message"]
    assert problem["message"].endswith("check its base_url")


@pytest.mark.parametrize("echo", ECHOES)
def test_a_key_echoed_in_any_form_is_redacted_from_the_502(app, llm, echo, caplog):
    caplog.set_level(logging.DEBUG)
    llm.behaviour.fail_status, llm.behaviour.echo_key = 401, echo
    client = app()
    for provider in ("openai", "anthropic"):
        response = post(client, CHAT, provider)
        (problem,) = problems(response, 502, TITLES[502])
        assert "[redacted]" in problem["message"]
        for form in secret_forms():
            assert form not in response.text and form not in caplog.text


@pytest.mark.parametrize("echo", ECHOES)
def test_a_key_echoed_in_a_successful_answer_is_redacted_from_the_200(app, llm, echo, caplog):
    caplog.set_level(logging.DEBUG)
    llm.behaviour.echo_key_in_answer = echo
    client = app()
    for provider in ("openai", "anthropic"):
        response = post(client, CHAT, provider)
        assert response.status_code == 200, response.text
        summary = response.json()["messages"][0]["content"]
        assert summary == "Summary of #0-#7. Your key is [redacted]."
        for form in secret_forms():
            assert form not in response.text and form not in caplog.text


def test_the_key_never_reaches_a_client_or_a_log(app, llm, caplog):
    caplog.set_level(logging.DEBUG)
    client = app()
    texts = [post(client, CHAT).text, client.get("/openapi.json").text]
    llm.behaviour.fail_status, llm.behaviour.echo_key = 401, True
    for provider in ("openai", "anthropic"):
        response = post(client, CHAT, provider)
        (problem,) = problems(response, 502, TITLES[502])
        assert "[redacted]" in problem["message"]
        texts += [response.text, str(response.headers)]
    assert all(SECRET not in text for text in [*texts, caplog.text])
    assert all(SECRET in c.headers["authorization"] for c in llm.calls)


def test_the_body_is_checked_at_the_edge_as_for_every_endpoint(app):
    client = app()
    response = client.post(LLM_COMPACT_PATH, content=b'{"messages": [', headers=JSON)
    assert problems(response, 400)[0]["line"] == 1
    response = client.post(LLM_COMPACT_PATH, content=b"{}", headers={"Content-Type": "text/plain"})
    problems(response, 415)


def test_openapi_documents_the_endpoint_with_its_schema_and_errors(app):
    doc = app().get("/openapi.json").json()
    operation = doc["paths"][LLM_COMPACT_PATH]["post"]
    media = operation["requestBody"]["content"]["application/json"]
    assert media["schema"] == COMPACT_REQUEST_SCHEMA
    assert list(Draft202012Validator(COMPACT_REQUEST_SCHEMA).iter_errors(media["example"])) == []
    responses = operation["responses"]
    assert set(responses) == {"200", "400", "413", "415", "422", "500", "502", "503", "504"}
    example = responses["200"]["content"]["application/json"]["example"]
    assert example["compaction"]["chunksProcessed"] == 1
    errors = [responses[s]["content"]["application/json"].get("example") for s in responses]
    errors += [
        e["value"] for e in responses["400"]["content"]["application/json"]["examples"].values()
    ]
    for body in filter(None, errors[1:]):
        assert list(ERROR.iter_errors(body)) == []
