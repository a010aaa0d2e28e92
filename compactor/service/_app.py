"""The FastAPI application: memory-compact and the seed-003 trim over HTTP, on the same engine.

Bodies are read raw (not through a pydantic model) so that the service, not the framework,
decides every error: 400 for a body that is not JSON (with line and column, or the path), 413
for a body over the size limit (refused before it is read whole), 415 for a content type other
than JSON, 422 for a request that breaks the schema (its violations with their JSON paths), 404
and 405 for a wrong path or method (a trailing slash is a wrong path: no redirects), and a 500
without details for anything unexpected; all in the one shape of
:mod:`compactor.service._edge`. Every response says ``X-Content-Type-Options: nosniff``; the
documentation at ``/docs`` loads nothing from another origin.

A body of at least ``offload_bytes`` is parsed and compacted in a compute process
(:mod:`compactor.service._compute`), so that the event loop keeps answering meanwhile.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import metadata
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from compactor.contract import AGENT_LIFTED, AGENT_LIMITS, REQUEST_EXAMPLE
from compactor.engine import compact
from compactor.errors import Problem
from compactor.service import _docs as docs
from compactor.service import _llm_routes as llm_routes
from compactor.service import _openapi as openapi
from compactor.service._compute import ComputePool, default_processes
from compactor.service._edge import (
    INTERNAL_ERROR,
    NOSNIFF,
    TITLES,
    ServiceError,
    bytes_response,
    check_content_type,
    error_body,
    error_response,
    json_response,
    read_body,
)
from compactor.service._examples import TRIM_REQUEST_EXAMPLE
from compactor.service._handling import handle
from compactor.service._recommend_route import (
    EXAMPLE as RECOMMEND_EXAMPLE,
)
from compactor.service._recommend_route import (
    MAX_CONVERSATIONS,
    MAX_SECONDS,
    MAX_TRIALS,
    handle_recommend,
    recommend_body,
)
from compactor.strategies import trim_context

#: The default limit on a request body: 4 MiB.
DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024
#: The environment variable that sets the limit for ``create_app_from_environment`` (workers).
MAX_BODY_ENV = "COMPACTOR_MAX_BODY_BYTES"
#: The environment variable with the number of compute processes per worker (serve --processes).
PROCESSES_ENV = "COMPACTOR_COMPUTE_PROCESSES"
#: Bodies from this size on are handled in a compute process (when the app has any); smaller
#: ones cost a few milliseconds at most and run on the event loop, which is cheaper for them.
OFFLOAD_BYTES = 64 * 1024

#: The default limit on a body at the agent endpoint: 64 MiB (a whole agent session).
DEFAULT_MAX_AGENT_BODY_BYTES = 64 * 1024 * 1024

COMPACT_PATH = "/v1/memory-compact"
#: The same four stages in the agent mode (``limits="agent"``): whole sessions.
AGENT_COMPACT_PATH = "/v1/memory-compact/agent"
TRIM_PATH = "/v1/context/trim"
RECOMMEND_PATH = "/v1/recommend"
HEALTH_PATH = "/healthz"


def create_app(
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    compute_processes: int = 0,
    offload_bytes: int = OFFLOAD_BYTES,
    max_provider_calls: int | None = None,
    max_agent_body_bytes: int = DEFAULT_MAX_AGENT_BODY_BYTES,
) -> FastAPI:
    """The service as an ASGI application; bodies over ``max_body_bytes`` get 413.

    With ``compute_processes`` (started with the app's lifespan), bodies of at least
    ``offload_bytes`` are handled in those processes; with none, everything runs in place.
    At most ``max_provider_calls`` LLM compact requests wait on a provider at once (default:
    ``COMPACTOR_MAX_PROVIDER_CALLS``, else 256); more get 503 with ``Retry-After``.
    ``POST /v1/memory-compact/agent`` (the agent mode) has its own limit,
    ``max_agent_body_bytes``.
    """
    for name, value in (
        ("max_body_bytes", max_body_bytes),
        ("max_agent_body_bytes", max_agent_body_bytes),
    ):
        if value < 1:
            raise ValueError(f"{name} must be at least 1, not {value}")
    pool = ComputePool(compute_processes)
    app = FastAPI(
        title="memory-compact",
        version=_version(),
        description=openapi.description(max_body_bytes),
        lifespan=_lifespan(pool),
        redirect_slashes=False,  # /v1/memory-compact/ is not an endpoint: 404, no redirect
        docs_url=None,  # served by compactor.service._docs, from local files
        redoc_url=None,
    )
    _add_engine_routes(app, _engine_call(pool, max_body_bytes, offload_bytes), max_body_bytes)
    _add_agent_route(
        app, _engine_call(pool, max_agent_body_bytes, offload_bytes), max_agent_body_bytes
    )
    _add_recommend_route(app, pool, max_body_bytes)
    # POST /v1/context/compact, for the providers configured
    llm_routes.include(app, max_body_bytes, max_calls=max_provider_calls)
    _add_operation_routes(app)
    docs.add_routes(app)
    app.add_middleware(NoSniff)
    _add_error_handlers(app)
    app.openapi = lambda: openapi.document(app)  # type: ignore[method-assign]
    return app


#: An engine endpoint's handling: the request and the engine function, to the response.
_EngineCall = Callable[[Request, Callable[[Any], Any]], Awaitable[Response]]


def _lifespan(
    pool: ComputePool,
) -> Callable[[FastAPI], contextlib.AbstractAsyncContextManager[None]]:
    """The app's lifespan: the compute processes start with it and stop with it."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        pool.start()
        try:
            yield
        finally:
            pool.stop()

    return lifespan


def _engine_call(pool: ComputePool, max_body_bytes: int, offload_bytes: int) -> _EngineCall:
    """How an engine endpoint answers: check the content type, read the body (at most
    ``max_body_bytes``), and run the engine in place or, from ``offload_bytes`` on, in
    ``pool``."""

    async def engine_call(request: Request, engine: Callable[[Any], Any]) -> Response:
        check_content_type(request)
        body = await read_body(request, max_body_bytes)
        # The engine is CPU-bound and holds the GIL: a small body runs on the event loop (a
        # thread would add overhead and no concurrency), a large one in a compute process.
        if pool.running and len(body) >= offload_bytes:
            status, payload = await pool.run(handle, engine, body)
        else:
            status, payload = handle(engine, body)
        return bytes_response(payload, status)

    return engine_call


def _engine_route(
    app: FastAPI,
    engine_call: _EngineCall,
    max_body_bytes: int,
    path: str,
    engine: Callable[[Any], Any],
    *,
    summary: str,
    description: str,
    operation_id: str,
    tags: list[str],
    schema: str,
    example: Any,
    invalid: Any,
) -> None:
    """``POST path``: ``engine`` over HTTP, documented with ``example`` (its 200), ``invalid``
    (its 422) and every other error."""

    async def endpoint(request: Request) -> Response:
        return await engine_call(request, engine)

    app.post(
        path,
        summary=summary,
        description=description,
        operation_id=operation_id,
        tags=tags,
        response_class=Response,
        responses=openapi.responses(engine, example, invalid, max_body_bytes),
        openapi_extra=openapi.request_body(schema, example),
    )(endpoint)


def _add_engine_routes(app: FastAPI, engine_call: _EngineCall, max_body_bytes: int) -> None:
    """``POST /v1/memory-compact`` and ``POST /v1/context/trim``: the engines over HTTP, each
    documented with its example and its errors."""
    _engine_route(
        app,
        engine_call,
        max_body_bytes,
        COMPACT_PATH,
        compact,
        summary="Compact a conversation to a character budget",
        description=(
            "Runs memory-compact (pin, dedupe, trim, drop) on the request and returns exactly "
            "the engine's response: the surviving messages, what each stage did and why, and the "
            "loss and budget accounting. The same request always gives the same bytes."
        ),
        operation_id="memoryCompact",
        tags=["memory-compact"],
        schema="MemoryCompactRequest",
        example=REQUEST_EXAMPLE,
        invalid={"messages": [{"role": "user", "content": ""}]},
    )
    _engine_route(
        app,
        engine_call,
        max_body_bytes,
        TRIM_PATH,
        trim_context,
        summary="Trim a conversation (recency trim by token estimate)",
        description=(
            "Keeps the last `keepLastMessages`, drops tool parts if `dropToolParts`, then drops "
            "the oldest messages until the token estimate (ceil(characters / 4) per message) fits "
            "`maxTokensEstimate`. With only `messages` it changes nothing and reports `stats`."
        ),
        operation_id="trimContext",
        tags=["other strategies"],
        schema="TrimRequest",
        example=TRIM_REQUEST_EXAMPLE,
        invalid={"messages": [{"role": "user"}], "keepLastMessages": -1},
    )


def compact_agent(request: Any) -> dict[str, Any]:
    """:func:`~compactor.engine.compact` in the agent mode (a module function, so that a
    compute process can run it)."""
    return compact(request, limits=AGENT_LIMITS)


def _add_agent_route(app: FastAPI, engine_call: _EngineCall, max_body_bytes: int) -> None:
    """``POST /v1/memory-compact/agent``: the same engine and response on a whole session."""
    _engine_route(
        app,
        engine_call,
        max_body_bytes,
        AGENT_COMPACT_PATH,
        compact_agent,
        summary="Compact a whole agent session (the agent mode)",
        description=(
            "The same four stages and the same response as `POST /v1/memory-compact`, with "
            "exactly these checks of the contract lifted: "
            + "; ".join(AGENT_LIFTED)
            + ". Every other check is the contract's, and on a request both endpoints accept "
            "both answer the same bytes. Its body limit is its own."
        ),
        operation_id="memoryCompactAgent",
        tags=["memory-compact"],
        schema="MemoryCompactAgentRequest",
        example=REQUEST_EXAMPLE,
        invalid={"messages": [{"role": "user", "content": ""}]},
    )


def _add_recommend_route(app: FastAPI, pool: ComputePool, max_body_bytes: int) -> None:
    """``POST /v1/recommend``: the search runs for seconds, so never on the event loop: in a
    compute process, or without any in a thread of the worker."""

    async def recommend_endpoint(request: Request) -> Response:
        check_content_type(request)
        body = await read_body(request, max_body_bytes)
        if pool.running:
            status, payload = await pool.run(handle_recommend, body)
        else:
            status, payload = await run_in_threadpool(handle_recommend, body)
        return bytes_response(payload, status)

    app.post(
        RECOMMEND_PATH,
        summary="Recommend a setting for these conversations",
        description=(
            "Searches the strategies that keep to a budget and their parameters for the best "
            "setting under the goal (Optuna's seeded sampler), tuned on part of the "
            "conversations and checked on the rest beside the schema defaults, keep-last and "
            "random with 95% intervals, the judge named; answers what `recommend --json` "
            "prints, with the winner's `compaction.toml` text under `toml`. The server's "
            f"limits: at most {MAX_TRIALS} trials, no trial started after {MAX_SECONDS:g} "
            f"seconds, at most {MAX_CONVERSATIONS} conversations (docs/service.md)."
        ),
        operation_id="recommend",
        tags=["recommend"],
        response_class=Response,
        responses={
            200: {"description": "The recommendation, as `recommend --json` prints it."},
            **openapi.error_responses(
                lambda: recommend_body({**RECOMMEND_EXAMPLE, "trials": MAX_TRIALS + 1}),
                max_body_bytes,
            ),
        },
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {
                        "schema": {"type": "object"},
                        "example": RECOMMEND_EXAMPLE,
                    }
                },
            }
        },
    )(recommend_endpoint)


def _add_operation_routes(app: FastAPI) -> None:
    """``GET /healthz`` for liveness checks, and ``/`` sending a browser to the docs."""

    @app.get(
        HEALTH_PATH,
        summary="Liveness check",
        operation_id="healthz",
        tags=["operations"],
        response_class=Response,
        responses={200: {"content": {"application/json": {"example": {"status": "ok"}}}}},
    )
    async def healthz() -> Response:
        return json_response({"status": "ok"})

    @app.get("/", include_in_schema=False)
    async def root() -> Response:
        return RedirectResponse("/docs")


def _add_error_handlers(app: FastAPI) -> None:
    """Every error in the one shape of :mod:`compactor.service._edge`: the service's own, the
    framework's 404 and 405 (and any other HTTP error it raises), and a 500 without details."""

    @app.exception_handler(ServiceError)
    async def service_error(request: Request, error: ServiceError) -> Response:
        return error_response(error)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        return error_response(_http_error(request, error))

    @app.exception_handler(Exception)
    async def internal_error(request: Request, error: Exception) -> Response:
        # Starlette re-raises after this handler, so the traceback reaches the server log;
        # the client only learns that something failed.
        return json_response(error_body(500, [Problem(INTERNAL_ERROR, path="$")]), 500)


def _http_error(request: Request, error: StarletteHTTPException) -> ServiceError:
    """The framework's HTTP error as the service says it: a wrong method names the allowed ones,
    a wrong path points to the docs."""
    status = error.status_code
    headers = dict(error.headers or {})
    if status == 405:
        allowed = headers.get("Allow", "")
        message = f"{request.method} is not allowed on {request.url.path}; use {allowed}"
    elif status == 404:
        message = f"there is no endpoint at {request.url.path}; see /docs for the endpoints"
    else:  # the routes raise no other HTTP error; keep the shape if the framework does
        message = str(error.detail)
        status = status if status in TITLES else 500 if status >= 500 else 400
    return ServiceError(status, [Problem(message, path="$")], headers)


class NoSniff:
    """ASGI middleware: every response says ``X-Content-Type-Options: nosniff``.

    (The 500 answer is made outside the middleware stack; it sets the header itself.)
    """

    _HEADER = (NOSNIFF[0].lower().encode(), NOSNIFF[1].encode())

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_header(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                if not any(name.lower() == self._HEADER[0] for name, _ in headers):
                    headers.append(self._HEADER)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_header)


def create_app_from_environment() -> FastAPI:
    """The app for uvicorn workers: the body limit from ``COMPACTOR_MAX_BODY_BYTES`` and the
    compute processes from ``COMPACTOR_COMPUTE_PROCESSES`` (default: one per core)."""
    processes = os.environ.get(PROCESSES_ENV)
    return create_app(
        int(os.environ.get(MAX_BODY_ENV, DEFAULT_MAX_BODY_BYTES)),
        compute_processes=int(processes) if processes else default_processes(),
    )


def _version() -> str:
    try:
        return metadata.version("compaction-explorer")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "0.0.0"
