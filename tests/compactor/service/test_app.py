"""The HTTP service through its real ASGI app: every endpoint, every status code, the docs."""

import asyncio
import json

import pytest
from fastapi.testclient import TestClient
from jsonschema import Draft202012Validator

from compactor import compact, service
from compactor.contract import INPUT_SCHEMA, REQUEST_EXAMPLE
from compactor.errors import InvalidRequest
from compactor.input._jsonio import dumps
from compactor.service import _app as service_app
from compactor.strategies._context_trim import TRIM_REQUEST_SCHEMA, trim_context
from tests.compactor.strategies.test_context_trim import seed_example
from tests.compactor.test_golden import CASES, comparable
from tests.paths import GOLDEN

COMPACT = "/v1/memory-compact"
TRIM = "/v1/context/trim"
JSON = {"Content-Type": "application/json"}
ERROR = Draft202012Validator(service.ERROR_SCHEMA)


@pytest.fixture(scope="module")
def client():
    with TestClient(service.create_app(), raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def small():
    """The service with a 1,000-byte body limit."""
    with TestClient(service.create_app(max_body_bytes=1000)) as test_client:
        yield test_client


def post(client, path, body, headers=JSON):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    return client.post(path, content=data, headers=headers)


def problems(response, status):
    """The problems of an error response, after checking it has the documented shape."""
    assert response.status_code == status
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert list(ERROR.iter_errors(body)) == []
    assert body["error"]["status"] == status
    assert body["error"]["title"] == service.TITLES[status]
    return body["error"]["problems"]


def invalid(engine, request):
    with pytest.raises(InvalidRequest) as caught:
        engine(request)
    return [p.to_dict() for p in caught.value.problems]


def test_healthz(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


@pytest.mark.parametrize("case", CASES)
def test_golden_cases_through_http_are_exactly_compacts_response(client, case):
    body = (GOLDEN / f"{case}.request.json").read_bytes()
    response = post(client, COMPACT, body)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    expected = compact(json.loads(body))
    # Byte for byte what the CLI prints with --indent 0 (UTF-8, not \u-escaped).
    assert response.content == dumps(expected, None).encode("utf-8")
    golden = json.loads((GOLDEN / f"{case}.response.json").read_text("utf-8"))
    assert comparable(response.json()) == comparable(golden)


def test_the_same_request_gives_the_same_bytes(client):
    first = post(client, COMPACT, REQUEST_EXAMPLE)
    second = post(client, COMPACT, REQUEST_EXAMPLE)
    assert first.status_code == second.status_code == 200
    assert first.content == second.content


@pytest.mark.parametrize(
    "content_type",
    [
        "application/json",
        "Application/JSON",
        "application/json; charset=UTF-8",
        'application/json;charset="utf-8"',
    ],
)
def test_json_content_types_are_accepted(client, content_type):
    response = post(client, COMPACT, REQUEST_EXAMPLE, {"Content-Type": content_type})
    assert response.status_code == 200


def test_a_utf8_byte_order_mark_is_accepted(client):
    body = b"\xef\xbb\xbf" + json.dumps(REQUEST_EXAMPLE).encode()
    assert post(client, COMPACT, body).json() == compact(dict(REQUEST_EXAMPLE))


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            b'{"messages": [\n  {"role": "user",, }]}',
            [
                {
                    "line": 2,
                    "column": 19,
                    "message": "Expecting property name enclosed in double quotes",
                }
            ],
        ),
        (
            b"",
            [{"line": 1, "column": 1, "message": "the input is empty; expected a JSON document"}],
        ),
        (
            b'{"a":\n "\xff"}',
            [
                {
                    "line": 2,
                    "column": 3,
                    "message": "not UTF-8 text (byte 0xff); save the file as UTF-8",
                }
            ],
        ),
        (
            b'{"messages": [{"role": "user", "content": "\\ud800"}]}',
            [
                {
                    "path": "messages[0].content",
                    "message": "contains an unpaired surrogate (U+D800), which is not Unicode text",
                }
            ],
        ),
    ],
)
@pytest.mark.parametrize("path", [COMPACT, TRIM])
def test_a_body_that_is_not_json_gets_400_with_where(client, path, body, expected):
    assert problems(post(client, path, body), 400) == expected


def test_a_number_too_long_to_convert_gets_400_not_500(client):
    body = b'{"budget_chars": ' + b"9" * 5000 + b"}"
    assert problems(post(client, COMPACT, body), 400) == [
        {
            "line": 1,
            "column": 18,
            "message": "a number has more than 4,300 digits; no field takes that many",
        }
    ]


@pytest.mark.parametrize(
    "request_",
    [
        {"messages": [{"role": "bot", "content": ""}], "budget_chars": 50, "extra": True},
        {"messages": [{"role": "user", "content": "x"}] * 2, "budget_chars": True},
        {**REQUEST_EXAMPLE, "duplicate_threshold": 2, "keep_roles": ["system", "boss"]},
        [],
        "a string",
    ],
)
def test_a_request_that_breaks_the_schema_gets_422_with_every_violation(client, request_):
    assert problems(post(client, COMPACT, request_), 422) == invalid(compact, request_)


def test_422_lists_every_violation_with_its_path(client):
    request = {"messages": [{"role": "bot", "content": ""}], "budget_chars": 50, "extra": True}
    assert [p["path"] for p in problems(post(client, COMPACT, request), 422)] == [
        "budget_chars",
        "extra",
        "messages",
        "messages[0].content",
        "messages[0].role",
    ]


def test_nan_is_not_json_and_is_refused_with_its_path(client):
    body = json.dumps({**REQUEST_EXAMPLE, "duplicate_threshold": float("nan")}).encode()
    assert b"NaN" in body
    assert problems(post(client, COMPACT, body), 400) == [
        {"path": "duplicate_threshold", "message": "NaN is not a JSON number; use a finite number"}
    ]
    trim = json.dumps({"messages": [{"role": "user", "content": "x", "n": float("-inf")}]})
    assert problems(post(client, TRIM, trim.encode()), 400) == [
        {"path": "messages[0].n", "message": "-Infinity is not a JSON number; use a finite number"}
    ]


def test_trim_returns_the_seed_example_with_its_stats(client):
    request, published = seed_example()
    response = post(client, TRIM, request)
    assert response.status_code == 200
    assert response.content == dumps(trim_context(request), None).encode("utf-8")
    body = response.json()
    assert body["messages"] == published["messages"]
    assert set(body["stats"]) == set(published["stats"])
    assert body["stats"]["messagesDropped"] == published["stats"]["messagesDropped"] == 3


@pytest.mark.parametrize(
    "request_",
    [
        {"messages": [{"role": "user"}], "keepLastMessages": -1, "extra": 1},
        {"messages": "hello"},
    ],
)
def test_trim_gets_422_with_every_violation(client, request_):
    assert problems(post(client, TRIM, request_), 422) == invalid(trim_context, request_)


def test_a_body_over_the_limit_gets_413(small):
    body = b'{"pad": "' + b"x" * 1000 + b'"}'
    [problem] = problems(post(small, COMPACT, body), 413)
    assert problem["message"].startswith("the body has 1,011 bytes; this service accepts at most")
    assert "1,000 bytes" in problem["message"]
    response = post(small, TRIM, body)
    problems(response, 413)
    # Issue 11: closing at once reset clients still sending; the rest is discarded instead.
    assert "connection" not in response.headers


def test_a_body_at_the_limit_is_read(small):
    body = b'{"pad": "' + b"x" * 989 + b'"}'
    assert len(body) == 1000
    assert [p["path"] for p in problems(post(small, COMPACT, body), 422)] == [
        "budget_chars",
        "messages",
        "pad",
    ]


def asgi_post(app, chunks, headers):
    """POST ``chunks`` to the ASGI app as a streamed body; (status, body, chunks it read)."""
    read = 0
    sent = []

    async def receive():
        nonlocal read
        if read < len(chunks):
            read += 1
            return {
                "type": "http.request",
                "body": chunks[read - 1],
                "more_body": read < len(chunks),
            }
        return {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": COMPACT,
        "raw_path": COMPACT.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"content-type", b"application/json"), *headers],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8080),
    }
    asyncio.run(app(scope, receive, send))
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, json.loads(body), read


def test_a_declared_length_over_the_limit_is_refused_before_reading_the_body():
    app = service.create_app(max_body_bytes=1000)
    status, body, read = asgi_post(app, [b"x" * 600] * 10, [(b"content-length", b"6000")])
    assert (status, read) == (413, 0)
    assert body["error"]["problems"][0]["message"].startswith("the body has 6,000 bytes")


def test_a_streamed_body_is_refused_at_the_first_chunk_over_the_limit():
    app = service.create_app(max_body_bytes=1000)
    status, body, read = asgi_post(app, [b"x" * 600] * 10, [(b"transfer-encoding", b"chunked")])
    assert (status, read) == (413, 2)
    assert body["error"]["problems"][0]["message"].startswith("the body has more; this service")


def test_a_streamed_body_within_the_limit_is_compacted():
    app = service.create_app()
    data = json.dumps(REQUEST_EXAMPLE).encode()
    chunks = [data[i : i + 100] for i in range(0, len(data), 100)]
    status, body, read = asgi_post(app, chunks, [(b"transfer-encoding", b"chunked")])
    assert (status, read) == (200, len(chunks))
    assert body == compact(dict(REQUEST_EXAMPLE))


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("GET", COMPACT, "POST"),
        ("PUT", COMPACT, "POST"),
        ("DELETE", TRIM, "POST"),
        ("POST", "/healthz", "GET"),
    ],
)
def test_a_wrong_method_gets_405(client, method, path, allowed):
    response = client.request(method, path, content=b"{}", headers=JSON)
    [problem] = problems(response, 405)
    assert response.headers["allow"] == allowed
    assert problem == {"path": "$", "message": f"{method} is not allowed on {path}; use {allowed}"}


@pytest.mark.parametrize(
    ("headers", "message"),
    [
        ({}, "no Content-Type header; send the body with application/json"),
        (
            {"Content-Type": "text/plain"},
            "Content-Type is 'text/plain'; send the body as application/json",
        ),
        (
            {"Content-Type": "application/x-www-form-urlencoded"},
            "Content-Type is 'application/x-www-form-urlencoded'; send the body as application/json",  # noqa: E501
        ),
        (
            {"Content-Type": "application/json; charset=latin-1"},
            "charset is 'latin-1'; JSON must be sent as UTF-8",
        ),
    ],
)
@pytest.mark.parametrize("path", [COMPACT, TRIM])
def test_a_body_that_is_not_declared_json_gets_415(client, path, headers, message):
    response = client.post(path, content=json.dumps(REQUEST_EXAMPLE).encode(), headers=headers)
    assert problems(response, 415) == [{"path": "$", "message": message}]


def test_an_unknown_path_gets_404_in_the_same_shape(client):
    assert problems(client.get("/v1/nothing"), 404) == [
        {"path": "$", "message": "there is no endpoint at /v1/nothing; see /docs for the endpoints"}
    ]


def test_an_unexpected_error_gets_a_500_without_details(client, monkeypatch):
    def explode(request):
        raise RuntimeError("secret internal detail")

    real = service_app.handle  # the route's own handling, with an engine that fails
    monkeypatch.setattr(service_app, "handle", lambda engine, body: real(explode, body))
    response = post(client, COMPACT, REQUEST_EXAMPLE)
    [problem] = problems(response, 500)
    assert "secret" not in response.text and "Traceback" not in response.text
    assert "RuntimeError" not in response.text
    assert problem["message"].startswith("the service could not handle this request")


@pytest.fixture(scope="module")
def openapi(client):
    response = client.get("/openapi.json")
    assert response.status_code == 200
    return response.json()


def resolve(document, schema):
    prefix = "#/components/schemas/"
    assert schema["$ref"].startswith(prefix)
    return document["components"]["schemas"][schema["$ref"].removeprefix(prefix)]


def test_openapi_request_schema_of_memory_compact_is_the_seeds_input_schema(openapi):
    body = openapi["paths"][COMPACT]["post"]["requestBody"]
    assert body["required"] is True
    media = body["content"]["application/json"]
    assert resolve(openapi, media["schema"]) == INPUT_SCHEMA
    assert media["example"] == REQUEST_EXAMPLE


def test_openapi_request_schema_of_trim_is_the_trim_schema(openapi):
    media = openapi["paths"][TRIM]["post"]["requestBody"]["content"]["application/json"]
    assert resolve(openapi, media["schema"]) == TRIM_REQUEST_SCHEMA
    assert media["example"] == seed_example()[0]


@pytest.mark.parametrize(("path", "engine"), [(COMPACT, compact), (TRIM, trim_context)])
def test_openapi_documents_the_responses_with_true_examples(openapi, path, engine):
    responses = openapi["paths"][path]["post"]["responses"]
    assert set(responses) == {"200", "400", "413", "415", "422", "500"}
    example = openapi["paths"][path]["post"]["requestBody"]["content"]["application/json"]
    assert responses["200"]["content"]["application/json"]["example"] == engine(example["example"])
    error = Draft202012Validator(resolve(openapi, {"$ref": "#/components/schemas/Error"}))
    for status in ("400", "413", "415", "422", "500"):
        media = responses[status]["content"]["application/json"]
        assert resolve(openapi, media["schema"]) == service.ERROR_SCHEMA
        assert list(error.iter_errors(media["example"])) == []
        assert media["example"]["error"]["status"] == int(status)


@pytest.mark.parametrize(
    ("path", "invalid_request"),
    [
        (COMPACT, {"messages": [{"role": "user", "content": ""}]}),
        (TRIM, {"messages": [{"role": "user"}], "keepLastMessages": -1}),
    ],
)
def test_the_documented_error_examples_are_real_answers(small, path, invalid_request):
    responses = small.get("/openapi.json").json()["paths"][path]["post"]["responses"]
    examples = {s: r["content"]["application/json"]["example"] for s, r in responses.items()}
    assert post(small, path, b'{"messages": [\n  {"role":}]}').json() == examples["400"]
    assert post(small, path, invalid_request).json() == examples["422"]
    assert post(small, path, b" " * 1001).json() == examples["413"]
    assert post(small, path, b"{}", {"Content-Type": "text/plain"}).json() == examples["415"]


def test_docs_page_is_served(client):
    response = client.get("/docs")
    assert response.status_code == 200
    assert "swagger-ui" in response.text and "/openapi.json" in response.text
    assert client.get("/", follow_redirects=False).headers["location"] == "/docs"


def test_the_body_limit_must_be_positive():
    with pytest.raises(ValueError, match="at least 1"):
        service.create_app(max_body_bytes=0)
