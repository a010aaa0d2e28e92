"""``POST /v1/context/compact``: the LLM compact of seeds/003 over HTTP, beside the trim.

The providers a request may name come from the TOML file that ``COMPACTOR_PROVIDERS`` names,
read once when the app is built (a broken file stops the service from starting, with the reason;
without the variable every compact request gets 422 saying how to configure one).

The summary calls are async HTTP calls on the event loop, so a call waiting on a slow provider
holds no thread and healthy calls keep their latency beside it. Each call ends within its
provider's deadline (``timeout_seconds``) whatever the provider does; a client that goes away
cancels its call (the service watches for the disconnect meanwhile); and at most
``max_calls`` requests per worker (``COMPACTOR_MAX_PROVIDER_CALLS``, default 256) wait on a
provider at once: over that, 503 with ``Retry-After`` at once, never a queue. Errors have the
service's one shape; beyond the edge's own (400 not JSON, 413, 415):

- 422: the request breaks the compact schema, or names no configured provider;
- 400 ("The conversation cannot be summarised"): it does not fit the model's context window
  even in chunks, or the provider refused the request as asked (an unknown model);
- 502: the provider failed (unreachable, refused the key, rate limited, an outage), or its
  answer cannot be used (not the API's shape, over its size limit, a redirect);
- 503: this worker already waits on as many provider calls as it allows; retry after the
  seconds ``Retry-After`` says;
- 504: the provider did not answer within its deadline.
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import os
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, TypeVar
from urllib.parse import quote

from fastapi import FastAPI, Request
from fastapi.responses import Response

from compactor.errors import InvalidRequest, Problem
from compactor.providers import (
    Completion,
    Provider,
    ProviderConfig,
    ProviderError,
    ProviderRefused,
    ProviderRegistry,
    ProviderTimeout,
)
from compactor.service import _openapi as openapi
from compactor.service._edge import TITLES as SERVICE_TITLES
from compactor.service._edge import (
    ServiceError,
    check_content_type,
    error_body,
    json_response,
    parse_request,
    read_body,
)
from compactor.service._examples import TRIM_REQUEST_EXAMPLE
from compactor.strategies import (
    COMPACT_REQUEST_SCHEMA,
    CannotSummarize,
    allm_compact,
    llm_compact,
    needs_summary,
    validate_compact_request,
)

T = TypeVar("T")
LLM_COMPACT_PATH = "/v1/context/compact"
CANNOT_SUMMARISE = "The conversation cannot be summarised"
TITLES = {
    400: CANNOT_SUMMARISE,
    502: "The language model provider failed",
    503: "The service is busy",
    504: "The language model provider did not answer in time",
}
#: The environment variable bounding the requests per worker that wait on a provider at once.
MAX_CALLS_ENV = "COMPACTOR_MAX_PROVIDER_CALLS"
#: Waiting calls cost a socket and a little memory each, no thread: a generous default.
DEFAULT_MAX_CALLS = 256
#: What a 503 asks: calls end within their deadline, and most far sooner.
RETRY_AFTER_SECONDS = 1
#: The status logged for a request whose client went away before its answer (as nginx logs it).
CLIENT_GONE = 499
#: Uvicorn's access log, which logs a response when it sends one: the answer to a client gone is
#: never sent, so its line is written here, in uvicorn's words (with ``--no-access-log`` the
#: logger has no handler and the line goes nowhere).
_ACCESS_LOG = logging.getLogger("uvicorn.access")
#: The summary of the seed's example, as the seed shows it, with the usage it shows.
_SEED_SUMMARY = Completion(
    "The user wants cushioned trail running shoes for under 150 USD.", 182, 17
)


class CallSlots:
    """The requests of this worker waiting on a provider: at most ``limit`` at once. Used on
    the event loop only, so a count is enough."""

    def __init__(self, limit: int):
        if limit < 1:
            raise ValueError(f"the provider calls per worker must be at least 1, not {limit}")
        self.limit = limit
        self.in_flight = 0

    def take(self) -> bool:
        if self.in_flight >= self.limit:
            return False
        self.in_flight += 1
        return True

    def give(self) -> None:
        self.in_flight -= 1


class ClientGone(Exception):
    """The client closed its connection before the answer was ready."""


def max_calls_from_environment() -> int:
    given = os.environ.get(MAX_CALLS_ENV, "").strip()
    return int(given) if given else DEFAULT_MAX_CALLS


def include(
    app: FastAPI,
    max_body_bytes: int,
    providers: ProviderRegistry | None = None,
    max_calls: int | None = None,
) -> None:
    """Add ``POST /v1/context/compact`` to ``app``, for ``providers`` (default: from the
    environment, see :meth:`ProviderRegistry.from_environment`), with at most ``max_calls``
    requests waiting on a provider at once (default: ``COMPACTOR_MAX_PROVIDER_CALLS``, else
    256)."""
    registry = ProviderRegistry.from_environment() if providers is None else providers
    for provider in registry.values():
        provider.preload()
    slots = CallSlots(max_calls_from_environment() if max_calls is None else max_calls)

    @app.post(
        LLM_COMPACT_PATH,
        summary="Compact a conversation with a language model (LLM compact)",
        description=(
            "Summarises every message except the last `keepLastMessages` (default 4) into one "
            "user message written by the model of `providerID` (a provider configured on the "
            "service's side; no key is ever sent in a request), followed by the kept messages "
            "unchanged. A conversation over the model's context window is summarised in chunks "
            "whose summaries are merged (`chunksProcessed`, `passes`); the provider's reported "
            "usage is summed (null when it reports none). With nothing older than the kept "
            "messages, or nothing older with text, the messages pass through "
            "(`compacted: false`) and no provider is called."
        ),
        operation_id="compactContext",
        tags=["other strategies"],
        response_class=Response,
        responses=_responses(max_body_bytes),
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {
                        "schema": copy.deepcopy(COMPACT_REQUEST_SCHEMA),
                        "example": _example_request(),
                    }
                },
            }
        },
    )
    async def context_compact(request: Request) -> Response:
        check_content_type(request)
        value = parse_request(await read_body(request, max_body_bytes))
        try:
            compact_request = validate_compact_request(value)  # every violation first
            provider = registry.resolve(compact_request.provider_id)
        except InvalidRequest as error:
            raise ServiceError(422, error.problems) from None
        if not needs_summary(compact_request):  # passes through: no call, no slot
            return json_response(await allm_compact(compact_request, provider))
        if not slots.take():
            return busy(slots.limit)
        try:
            work = allm_compact(compact_request, provider)
            answer = await until_disconnect(request.receive, work)
        except ClientGone:  # nobody reads this; 499 is what access logs know it by
            log_client_gone(request.scope)
            return Response(status_code=CLIENT_GONE)
        except (CannotSummarize, ProviderRefused) as error:
            return error_response(400, error.problems)
        except ProviderTimeout as error:
            return error_response(504, error.problems)
        except ProviderError as error:
            return error_response(502, error.problems)
        finally:
            slots.give()
        return json_response(answer)


def log_client_gone(scope: dict[str, Any]) -> None:
    """The access log's line for a request whose client went away: uvicorn's, with 499."""
    client = scope.get("client")
    path = quote(scope.get("root_path", "") + scope["path"])
    if scope.get("query_string"):
        path += "?" + scope["query_string"].decode("ascii")
    _ACCESS_LOG.info(
        '%s - "%s %s HTTP/%s" %d',
        f"{client[0]}:{client[1]}" if client else "",
        scope["method"],
        path,
        scope.get("http_version", "1.1"),
        CLIENT_GONE,
    )


def error_response(
    status: int, problems: Sequence[Problem], headers: dict[str, str] | None = None
) -> Response:
    """An error in the service's shape, with this endpoint's titles."""
    return json_response(_body(status, problems), status, headers)


def busy(limit: int) -> Response:
    """503 at once: the worker already waits on ``limit`` provider calls."""
    message = (
        f"this worker already waits on {limit} language model calls, the most it allows; try "
        f"again in {RETRY_AFTER_SECONDS} s, or ask the operator to add workers or raise "
        f"{MAX_CALLS_ENV}"
    )
    return error_response(503, [Problem(message)], {"Retry-After": str(RETRY_AFTER_SECONDS)})


async def until_disconnect(
    receive: Callable[[], Awaitable[dict[str, Any]]], work: Coroutine[Any, Any, T]
) -> T:
    """The result of ``work``; if the client disconnects first, ``work`` is cancelled (which
    closes its provider connection) and :class:`ClientGone` raised. The request body must have
    been read: ``receive`` then only ever says that the client went away."""
    task = asyncio.ensure_future(work)
    watcher = asyncio.ensure_future(_disconnected(receive))
    try:
        await asyncio.wait({task, watcher}, return_when=asyncio.FIRST_COMPLETED)
    finally:  # also when this handler itself is cancelled (the server shuts down)
        watcher.cancel()
        if not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
    if task.cancelled():
        raise ClientGone
    return task.result()


async def _disconnected(receive: Callable[[], Awaitable[dict[str, Any]]]) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


class _SeedExample(Provider):
    """Answers as the seed's example does, for the documented 200 response (no call is made)."""

    library = "none"
    label = "an example"

    async def acomplete(self, *, model: str, system: str, user: str, max_tokens: int) -> Completion:
        return _SEED_SUMMARY

    async def _send(self, client: Any, **_: Any) -> tuple[int, bytes]:  # pragma: no cover
        raise NotImplementedError

    def _parse(self, data: Any) -> Completion:  # pragma: no cover - never called
        raise NotImplementedError


def _example_request() -> dict[str, Any]:
    return {
        "providerID": "local",
        "model": "gpt-4o-mini",
        "messages": copy.deepcopy(TRIM_REQUEST_EXAMPLE["messages"]),
        "keepLastMessages": 2,
        "instructions": "Keep every product name, price, and stated preference.",
        "targetTokensEstimate": 100,
    }


def _responses(max_body_bytes: int) -> dict[int | str, dict[str, Any]]:
    """The memory-compact routes' documented responses, plus this endpoint's own errors."""
    example = _SeedExample(ProviderConfig("local"))
    out = openapi.responses(
        lambda request: llm_compact(request, example),
        _example_request(),
        {"providerID": "local", "messages": [{"role": "user"}], "keepLastMessages": -1},
        max_body_bytes,
    )
    too_long = {**_example_request(), "targetTokensEstimate": 500}
    small = _SeedExample(ProviderConfig("local", context_window_tokens=1024))
    try:
        llm_compact(too_long, small)
        raise AssertionError("the documented example of a 400 is not an error")
    except CannotSummarize as error:
        cannot = error.problems
    not_json = out[400]["content"]["application/json"].pop("example")
    out[400] = {
        "description": f"The body is not JSON; or {CANNOT_SUMMARISE.lower()}",
        "content": {
            "application/json": {
                **out[400]["content"]["application/json"],
                "examples": {
                    "not JSON": {"value": not_json},
                    "cannot summarise": {"value": _body(400, cannot)},
                },
            }
        },
    }
    busy_body = json.loads(busy(DEFAULT_MAX_CALLS).body)
    for status, example_body in (
        (502, _body(502, example.unreachable().problems)),
        (503, busy_body),
        (504, _body(504, example.timed_out().problems)),
    ):
        out[status] = {
            "description": TITLES[status],
            "content": {
                "application/json": {
                    "schema": {"$ref": "#/components/schemas/Error"},
                    "example": example_body,
                }
            },
        }
    out[503]["headers"] = {
        "Retry-After": {
            "description": "Seconds to wait before trying again.",
            "schema": {"type": "integer"},
        }
    }
    return out


def _body(status: int, problems: Sequence[Problem]) -> dict[str, Any]:
    return error_body(status, problems, {**SERVICE_TITLES, **TITLES})
