"""The service's edge: content type, size-limited body reading, JSON parsing, and error responses.

Every error has one shape::

    {"error": {"status": 422, "title": "The request breaks the input schema",
               "problems": [{"path": "budget_chars", "message": "is required but missing"}]}}

Each problem has a ``message`` and says where it is: a ``path`` (a JSON path into the request,
``$`` for the request as a whole: a wrong path, method or content type, a body too large) or a
``line`` and ``column`` (1-based, into the body).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from compactor.errors import Problem, UnreadableJSON
from compactor.input import parse_json

# Defined with the handling, which compute processes import; re-exported for the app and docs.
from compactor.service._handling import TITLES as TITLES
from compactor.service._handling import encode, error_body

#: Sent with every response: browsers must not guess a type other than the one declared.
NOSNIFF = ("X-Content-Type-Options", "nosniff")
#: An over-limit body declared larger than this is refused and the connection closed at once;
#: a smaller one is refused before it is read, and the server reads and discards the rest on
#: the kept-alive connection, so that clients that send a body whole before reading the answer
#: (httpx, requests) see the 413 instead of a reset connection.
DRAIN_BYTES = 64 * 1024 * 1024

INTERNAL_ERROR = (
    "the service could not handle this request; the error has been logged. "
    "Try again, or report it together with the request body."
)

#: The JSON Schema of every error response.
ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["error"],
    "additionalProperties": False,
    "properties": {
        "error": {
            "type": "object",
            "required": ["status", "title", "problems"],
            "additionalProperties": False,
            "properties": {
                "status": {"type": "integer", "description": "The HTTP status code."},
                "title": {"type": "string", "description": "What kind of error this is."},
                "problems": {
                    "type": "array",
                    "minItems": 1,
                    "description": "Everything wrong with the request, each with where it is.",
                    "items": {
                        "type": "object",
                        "required": ["message"],
                        "anyOf": [{"required": ["path"]}, {"required": ["line", "column"]}],
                        "additionalProperties": False,
                        "properties": {
                            "path": {
                                "type": "string",
                                "description": "JSON path into the request; `$` is the request.",
                            },
                            "line": {"type": "integer", "minimum": 1},
                            "column": {"type": "integer", "minimum": 1},
                            "message": {"type": "string"},
                        },
                    },
                },
            },
        }
    },
}


class ServiceError(Exception):
    """An error response: its status, its problems and any extra headers."""

    def __init__(
        self,
        status: int,
        problems: Sequence[Problem],
        headers: Mapping[str, str] | None = None,
    ):
        self.status = status
        self.problems = tuple(problems)
        self.headers = dict(headers or {})
        super().__init__(f"{status}: {problems}")


def json_response(
    value: Any, status: int = 200, headers: Mapping[str, str] | None = None
) -> Response:
    """``value`` as UTF-8 JSON, serialised exactly as the command line's ``--indent 0``."""
    return bytes_response(encode(value), status, headers)


def bytes_response(
    body: bytes, status: int = 200, headers: Mapping[str, str] | None = None
) -> Response:
    """A JSON body already encoded, with the headers every response has."""
    return Response(
        body,
        status_code=status,
        headers={**dict(headers or {}), NOSNIFF[0]: NOSNIFF[1]},
        media_type="application/json",
    )


def error_response(error: ServiceError) -> Response:
    return json_response(error_body(error.status, error.problems), error.status, error.headers)


def check_content_type(request: Request) -> None:
    """Refuse (415) anything but ``application/json``; a charset, if given, must be UTF-8."""
    header = request.headers.get("content-type")
    if header is None:
        raise ServiceError(
            415, [Problem("no Content-Type header; send the body with application/json", path="$")]
        )
    media, *params = (part.strip() for part in header.split(";"))
    if media.lower() != "application/json":
        raise ServiceError(415, [Problem(not_json(media), path="$")])
    for param in params:
        name, _, value = param.partition("=")
        charset = value.strip().strip('"').lower()
        if name.strip().lower() == "charset" and charset not in ("utf-8", "utf8"):
            raise ServiceError(
                415, [Problem(f"charset is {charset!r}; JSON must be sent as UTF-8", path="$")]
            )


def not_json(media: str) -> str:
    return f"Content-Type is {media!r}; send the body as application/json"


async def read_body(request: Request, limit: int) -> bytes:
    """The body, refused (413) once it is known to exceed ``limit`` bytes.

    A declared Content-Length over the limit is refused before any of the body is read (a
    client that waits for ``100 Continue`` then sends none of it); a body without one (chunked)
    is counted as it arrives and refused at the first chunk over the limit. The connection is
    kept, so the server discards what is still coming and the client reads the 413 after
    sending; only a body declared over :data:`DRAIN_BYTES` has its connection closed.
    """
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise too_large(int(declared), limit)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large(None, limit)
        chunks.append(chunk)
    return b"".join(chunks)


def too_large(size: int | None, limit: int) -> ServiceError:
    """413 for a body of ``size`` bytes (None: not declared, and past the limit so far)."""
    what = f"the body has {size:,} bytes" if size is not None else "the body has more"
    message = (
        f"{what}; this service accepts at most {limit:,} bytes. Send fewer or shorter "
        "messages, or ask the operator to raise the limit (serve --max-body-bytes)."
    )
    closing = {"Connection": "close"} if size is not None and size > DRAIN_BYTES else {}
    return ServiceError(413, [Problem(message, path="$")], closing)


def parse_request(body: bytes) -> Any:
    """The JSON value of ``body``; raises a 400 :class:`ServiceError` naming line and column."""
    try:
        return parse_json(body)
    except UnreadableJSON as error:
        raise ServiceError(400, error.problems) from None
