"""The OpenAPI document: the seed's input schema as the request body, true examples, every error.

The routes read their bodies raw, so FastAPI cannot infer the request schemas: each route
declares its body with ``openapi_extra`` (a ``$ref`` to a component), and :func:`document`
adds the components. Examples are the engine's real answers, computed when the app is built.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from compactor.contract import AGENT_INPUT_SCHEMA, INPUT_SCHEMA
from compactor.errors import InvalidRequest, Problem
from compactor.service._edge import (
    ERROR_SCHEMA,
    INTERNAL_ERROR,
    TITLES,
    ServiceError,
    error_body,
    not_json,
    parse_request,
    too_large,
)
from compactor.strategies import TRIM_REQUEST_SCHEMA

DESCRIPTION = """\
**memory-compact** shrinks a conversation to a character budget in four stages (pin, dedupe,
trim, drop) with no language model, and accounts for every character it removed. The response is
exactly the engine's (`compactor.compact`), the same as the command line and the explorer give.

**Errors** always have the shape `{"error": {"status", "title", "problems": [...]}}`, where each
problem has a `message` and a JSON `path` into the request, or a `line` and `column` into the body.

**Limits**: bodies must be JSON (`Content-Type: application/json`, UTF-8) of at most LIMIT
bytes (at `/v1/memory-compact/agent`, the agent mode for whole sessions, its own limit);
larger bodies get 413 before they are read.
"""


def description(limit: int) -> str:
    return DESCRIPTION.replace("LIMIT", f"{limit:,}")


def request_body(schema_name: str, example: Mapping[str, Any]) -> dict[str, Any]:
    """``openapi_extra`` for a raw-body route: its schema component and its example."""
    return {
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {
                    "schema": {"$ref": f"#/components/schemas/{schema_name}"},
                    "example": copy.deepcopy(dict(example)),
                }
            },
        }
    }


def responses(
    engine: Callable[[Any], Any],
    example: Mapping[str, Any],
    invalid: Any,
    limit: int,
) -> dict[int | str, dict[str, Any]]:
    """The documented responses of an engine's route: 200 and every error, with true examples.

    The 200 example is the engine's answer to ``example``; the 400, 413 and 422 examples are the
    service's answers to a broken body, an oversized one and the ``invalid`` request.
    """
    answer = {
        "description": "The engine's response.",
        "content": {
            "application/json": {
                "schema": {"type": "object"},
                "example": engine(copy.deepcopy(dict(example))),
            }
        },
    }
    return {200: answer, **error_responses(lambda: engine(copy.deepcopy(invalid)), limit)}


def error_responses(invalid: Callable[[], Any], limit: int) -> dict[int | str, dict[str, Any]]:
    """Every error a raw-body route answers, with true examples: ``invalid()`` raises its 422."""
    schema = {"$ref": "#/components/schemas/Error"}
    examples = {
        400: _problems_of(lambda: parse_request(b'{"messages": [\n  {"role":}]}')),
        413: too_large(limit + 1, limit).problems,
        415: [Problem(not_json("text/plain"), path="$")],
        422: _problems_of(invalid),
        500: [Problem(INTERNAL_ERROR, path="$")],
    }
    out: dict[int | str, dict[str, Any]] = {}
    for status, problems in examples.items():
        out[status] = {
            "description": TITLES[status],
            "content": {
                "application/json": {"schema": schema, "example": error_body(status, problems)}
            },
        }
    return out


def _problems_of(call: Callable[[], Any]) -> tuple[Problem, ...]:
    try:
        call()
    except ServiceError as error:
        return error.problems
    except InvalidRequest as error:
        return error.problems
    raise AssertionError("the documented example of an error is not an error")


def document(app: FastAPI) -> dict[str, Any]:
    """FastAPI's document plus the request and error schemas the routes refer to (cached)."""
    if app.openapi_schema is None:
        openapi = get_openapi(
            title=app.title,
            version=app.version,
            description=app.description,
            routes=app.routes,
        )
        schemas = openapi.setdefault("components", {}).setdefault("schemas", {})
        schemas["MemoryCompactRequest"] = copy.deepcopy(dict(INPUT_SCHEMA))
        schemas["MemoryCompactAgentRequest"] = copy.deepcopy(dict(AGENT_INPUT_SCHEMA))
        schemas["TrimRequest"] = copy.deepcopy(TRIM_REQUEST_SCHEMA)
        schemas["Error"] = copy.deepcopy(ERROR_SCHEMA)
        app.openapi_schema = openapi
    return app.openapi_schema
