"""The FastAPI application: memory-compact and the seed-003 trim over HTTP, on the same engine.

Bodies are read raw (not through a pydantic model) so that the service, not the framework,
decides every error: 400 for a body that is not JSON (with line and column), 413 for a body over
the size limit (refused before it is read whole), 415 for a content type other than JSON, 422
for a request that breaks the schema (every violation with its JSON path), 404 and 405 for a
wrong path or method, and a 500 without details for anything unexpected; all in the one shape
of :mod:`compactor.service.errors`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from importlib import metadata
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import RedirectResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from compactor.contract import REQUEST_EXAMPLE
from compactor.errors import InvalidRequest, Problem
from compactor.pipeline import compact
from compactor.service import llm_routes, openapi
from compactor.service.errors import (
    INTERNAL_ERROR,
    TITLES,
    ServiceError,
    check_content_type,
    error_body,
    error_response,
    json_response,
    parse_request,
    read_body,
)
from compactor.service.examples import TRIM_REQUEST_EXAMPLE
from compactor.strategies.context_trim import trim_context

#: The default limit on a request body: 4 MiB.
DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024
#: The environment variable that sets the limit for ``create_app_from_environment`` (workers).
MAX_BODY_ENV = "COMPACTOR_MAX_BODY_BYTES"

COMPACT_PATH = "/v1/memory-compact"
TRIM_PATH = "/v1/context/trim"
HEALTH_PATH = "/healthz"


def create_app(max_body_bytes: int = DEFAULT_MAX_BODY_BYTES) -> FastAPI:
    """The service as an ASGI application; bodies over ``max_body_bytes`` get 413."""
    if max_body_bytes < 1:
        raise ValueError(f"max_body_bytes must be at least 1, not {max_body_bytes}")
    app = FastAPI(
        title="memory-compact",
        version=_version(),
        description=openapi.description(max_body_bytes),
    )

    async def engine_call(request: Request, engine: Callable[[Any], Any]) -> Response:
        check_content_type(request)
        value = parse_request(await read_body(request, max_body_bytes))
        try:
            result = engine(value)
        except InvalidRequest as error:
            raise ServiceError(422, error.problems) from None
        return json_response(result)

    # The engine is CPU-bound and holds the GIL: it runs on the event loop, not in a thread
    # pool, and throughput scales with worker processes (serve --workers).
    @app.post(
        COMPACT_PATH,
        summary="Compact a conversation to a character budget",
        description=(
            "Runs memory-compact (pin, dedupe, trim, drop) on the request and returns exactly "
            "the engine's response: the surviving messages, what each stage did and why, and the "
            "loss and budget accounting. The same request always gives the same bytes."
        ),
        operation_id="memoryCompact",
        tags=["memory-compact"],
        response_class=Response,
        responses=openapi.responses(
            compact,
            REQUEST_EXAMPLE,
            {"messages": [{"role": "user", "content": ""}]},
            max_body_bytes,
        ),
        openapi_extra=openapi.request_body("MemoryCompactRequest", REQUEST_EXAMPLE),
    )
    async def memory_compact(request: Request) -> Response:
        return await engine_call(request, compact)

    @app.post(
        TRIM_PATH,
        summary="Trim a conversation (seeds/003 trim)",
        description=(
            "Keeps the last `keepLastMessages`, drops tool parts if `dropToolParts`, then drops "
            "the oldest messages until the token estimate (ceil(characters / 4) per message) fits "
            "`maxTokensEstimate`. With only `messages` it changes nothing and reports `stats`."
        ),
        operation_id="trimContext",
        tags=["other strategies"],
        response_class=Response,
        responses=openapi.responses(
            trim_context,
            TRIM_REQUEST_EXAMPLE,
            {"messages": [{"role": "user"}], "keepLastMessages": -1},
            max_body_bytes,
        ),
        openapi_extra=openapi.request_body("TrimRequest", TRIM_REQUEST_EXAMPLE),
    )
    async def context_trim(request: Request) -> Response:
        return await engine_call(request, trim_context)

    llm_routes.include(app, max_body_bytes)  # POST /v1/context/compact, providers configured

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

    @app.exception_handler(ServiceError)
    async def service_error(request: Request, error: ServiceError) -> Response:
        return error_response(error)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
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
        return error_response(ServiceError(status, [Problem(message)], headers))

    @app.exception_handler(Exception)
    async def internal_error(request: Request, error: Exception) -> Response:
        # Starlette re-raises after this handler, so the traceback reaches the server log;
        # the client only learns that something failed.
        return json_response(error_body(500, [Problem(INTERNAL_ERROR)]), 500)

    app.openapi = lambda: openapi.document(app)  # type: ignore[method-assign]
    return app


def create_app_from_environment() -> FastAPI:
    """The app with the body limit from ``COMPACTOR_MAX_BODY_BYTES`` (for uvicorn workers)."""
    return create_app(int(os.environ.get(MAX_BODY_ENV, DEFAULT_MAX_BODY_BYTES)))


def _version() -> str:
    try:
        return metadata.version("compaction-explorer")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "0.0.0"
