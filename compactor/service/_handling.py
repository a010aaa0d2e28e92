"""One request's work, bytes in and bytes out: parse, run the engine, write the answer.

A pure function of the engine and the body, so that the event loop can run it in place for a
small body, or hand it to a compute process (:mod:`compactor.service._compute`) for a large one
and stay free for other requests; either way the answer is the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from compactor.errors import InvalidRequest, Problem, UnreadableJSON
from compactor.input import dumps, parse_json

TITLES = {
    400: "The body is not JSON",
    404: "Not found",
    405: "Method not allowed",
    413: "The body is too large",
    415: "Unsupported content type",
    422: "The request breaks the input schema",
    500: "Internal error",
}


def error_body(
    status: int, problems: Sequence[Problem], titles: Mapping[int, str] = TITLES
) -> dict[str, Any]:
    """The JSON value of an error response; every problem says where (``$`` if nothing else)."""
    listed = [located(p).to_dict() for p in problems]
    return {"error": {"status": status, "title": titles[status], "problems": listed}}


def located(problem: Problem) -> Problem:
    """``problem``, at ``$`` (the request as a whole) when it names no path, line or column."""
    if problem.line is not None or problem.path:
        return problem
    return Problem(problem.message, path="$")


def encode(value: Any) -> bytes:
    """``value`` as UTF-8 JSON on one line, exactly as the command line's ``--indent 0``."""
    return dumps(value, None).encode("utf-8")


def handle(engine: Callable[[Any], Any], body: bytes) -> tuple[int, bytes]:
    """The status and the JSON body of the answer of ``engine`` (``compact``, say) to ``body``.

    400 for a body that is not JSON, 422 for a request the engine refuses, 200 otherwise; any
    other exception is a bug and propagates (the app answers 500 and logs it).
    """
    try:
        value = parse_json(body)
    except UnreadableJSON as error:
        return 400, encode(error_body(400, error.problems))
    try:
        result = engine(value)
    except InvalidRequest as error:
        return 422, encode(error_body(422, error.problems))
    return 200, encode(result)


def ready() -> int:
    """Nothing: a compute process runs it once so that it has imported everything it needs."""
    return 0
