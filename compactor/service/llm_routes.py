"""``POST /v1/context/compact``: the LLM compact of seeds/003 over HTTP, beside the trim.

The providers a request may name come from the TOML file that ``COMPACTOR_PROVIDERS`` names,
read once when the app is built (a broken file stops the service from starting, with the reason;
without the variable every compact request gets 422 saying how to configure one). The summary
calls are blocking HTTP calls to the provider: they run in a worker thread, not on the event
loop. Errors have the service's one shape; beyond the edge's own (400 not JSON, 413, 415):

- 422: the request breaks the compact schema, or names no configured provider;
- 400 ("The conversation cannot be summarised"): it does not fit the model's context window
  even in chunks, or the provider refused the request as asked (an unknown model);
- 502: the provider failed (unreachable, refused the key, rate limited, an outage);
- 504: the provider did not answer within its timeout, after its retries.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

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
from compactor.service import openapi
from compactor.service.errors import TITLES as SERVICE_TITLES
from compactor.service.errors import (
    ServiceError,
    check_content_type,
    error_body,
    json_response,
    parse_request,
    read_body,
)
from compactor.service.examples import TRIM_REQUEST_EXAMPLE
from compactor.strategies.llm_compact import (
    COMPACT_REQUEST_SCHEMA,
    CannotSummarize,
    llm_compact,
    validate_compact_request,
)

LLM_COMPACT_PATH = "/v1/context/compact"
CANNOT_SUMMARISE = "The conversation cannot be summarised"
TITLES = {
    400: CANNOT_SUMMARISE,
    502: "The language model provider failed",
    504: "The language model provider did not answer in time",
}
#: The summary of the seed's example, as the seed shows it, with the usage it shows.
_SEED_SUMMARY = Completion(
    "The user wants cushioned trail running shoes for under 150 USD.", 182, 17
)


def include(app: FastAPI, max_body_bytes: int, providers: ProviderRegistry | None = None) -> None:
    """Add ``POST /v1/context/compact`` to ``app``, for ``providers`` (default: from the
    environment, see :meth:`ProviderRegistry.from_environment`)."""
    registry = ProviderRegistry.from_environment() if providers is None else providers

    @app.post(
        LLM_COMPACT_PATH,
        summary="Compact a conversation with a language model (seeds/003 compact)",
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
            return json_response(await run_in_threadpool(_compact, value, registry))
        except InvalidRequest as error:
            raise ServiceError(422, error.problems) from None
        except (CannotSummarize, ProviderRefused) as error:
            return error_response(400, error.problems)
        except ProviderTimeout as error:
            return error_response(504, error.problems)
        except ProviderError as error:
            return error_response(502, error.problems)


def error_response(status: int, problems: Sequence[Problem]) -> Response:
    """An error in the service's shape, with this endpoint's titles."""
    return json_response(_body(status, problems), status)


def _compact(value: Any, registry: ProviderRegistry) -> dict[str, Any]:
    request = validate_compact_request(value)  # every violation first, then the provider
    return llm_compact(request, registry.resolve(request.provider_id))


class _SeedExample(Provider):
    """Answers as the seed's example does, for the documented 200 response (no call is made)."""

    library = "none"
    label = "an example"

    def complete(self, *, model: str, system: str, user: str, max_tokens: int) -> Completion:
        return _SEED_SUMMARY

    def _new_client(self, sdk: Any, key: str) -> Any:  # pragma: no cover - never connected
        raise NotImplementedError

    def _call(self, client: Any, **_: Any) -> Completion:  # pragma: no cover
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
    for status, error in ((502, example.unreachable()), (504, example.timed_out())):
        out[status] = {
            "description": TITLES[status],
            "content": {
                "application/json": {
                    "schema": {"$ref": "#/components/schemas/Error"},
                    "example": _body(status, error.problems),
                }
            },
        }
    return out


def _body(status: int, problems: Sequence[Problem]) -> dict[str, Any]:
    return error_body(status, problems, {**SERVICE_TITLES, **TITLES})
