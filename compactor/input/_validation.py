"""Request validation by the seed's own input JSON Schema, with readable, bounded errors.

The schema is checked by hand (:mod:`compactor.input._schema_check`): every violation with its JSON
path and a readable reason, at most :data:`~compactor.errors.MAX_PROBLEMS` of them listed and
the rest counted, at a cost bounded by what is reported, whatever the input (any Python value).
"""

from __future__ import annotations

from itertools import repeat
from operator import itemgetter
from typing import Any

from compactor.contract import (
    AGENT_INPUT_SCHEMA,
    AGENT_LIMITS,
    AUTO_LIMITS,
    CONTRACT_LIMITS,
    INPUT_SCHEMA,
    LIMIT_MODES,
)
from compactor.errors import InvalidRequest, Problem
from compactor.input._schema_check import (
    Report,
    Schema,
    check,
    check_request,
    count,
    finish,
    is_text,
    schema_problems,
)
from compactor.model import Params, Request

__all__ = [
    "AGENT_SCHEMA",
    "COMPACT_SCHEMA",
    "Report",
    "Schema",
    "check",
    "check_request",
    "count",
    "errors_of",
    "finish",
    "is_text",
    "schema_problems",
    "validate",
]

COMPACT_SCHEMA = Schema(INPUT_SCHEMA)
AGENT_SCHEMA = Schema(AGENT_INPUT_SCHEMA)
_SCHEMAS = {CONTRACT_LIMITS: COMPACT_SCHEMA, AGENT_LIMITS: AGENT_SCHEMA}
_ROLE, _CONTENT = itemgetter("role"), itemgetter("content")


def _schema(limits: str) -> Schema:
    if limits not in _SCHEMAS:
        raise ValueError(
            f"limits must be one of {', '.join((*LIMIT_MODES, AUTO_LIMITS))}, not {limits!r}"
        )
    return _SCHEMAS[limits]


def errors_of(request: Any, *, limits: str = CONTRACT_LIMITS) -> list[Problem]:
    """Every violation of the input schema in ``request``, sorted by path; empty if valid.

    At most :data:`~compactor.errors.MAX_PROBLEMS` are listed; when there are more, a last
    problem (at ``$``) says how many. ``limits="agent"`` checks the agent mode's schema;
    ``"auto"`` the agent mode's too (any request it accepts is accepted in one of the modes).
    """
    return schema_problems(_schema(AGENT_LIMITS if limits == AUTO_LIMITS else limits), request)


def validate(request: Any, *, limits: str = CONTRACT_LIMITS) -> Request:
    """The typed request for a valid ``request``.

    Args:
        request: a memory-compact request as JSON data (a dict).
        limits: ``"contract"`` (the default) checks the catalog's schema exactly; ``"agent"``
            takes a whole agent session: any number of messages, contents of any length and a
            budget up to 2,000,000 characters (:data:`~compactor.contract.AGENT_LIFTED`); every
            other check is the contract's. ``"auto"``: the contract's mode when the request is
            within its limits, else the agent mode (for readers of whole conversations).

    Returns:
        The typed :class:`~compactor.model.Request`: its messages and parameters, with the
        schema's defaults filled in.

    Raises:
        InvalidRequest: the request breaks the schema; its problems list every violation, each
            with its JSON path.

    Example:
        >>> from compactor import validate
        >>> request = validate({"messages": [{"role": "user", "content": "Hi"},
        ...     {"role": "assistant", "content": "Hello"}], "budget_chars": 100})
        >>> request.params.keep_last_n, len(request.messages)
        (5, 2)
    """
    if limits == AUTO_LIMITS:
        limits = CONTRACT_LIMITS if not errors_of(request) else AGENT_LIMITS
    errors = errors_of(request, limits=limits)
    if errors:
        raise InvalidRequest(errors)
    given_messages = request["messages"]  # dicts: the schema checked each
    # each field's column read in C; the typed messages are made when first read (a whole
    # session has thousands, and compact reads only the columns)
    n = len(given_messages)
    roles = tuple(map(_ROLE, given_messages))
    contents = tuple(map(_CONTENT, given_messages))
    if sum(map(len, given_messages)) == 2 * n:  # each has its role and content, nothing else
        ids, pins = (None,) * n, (False,) * n
    else:
        ids = tuple(map(dict.get, given_messages, repeat("id", n)))
        pins = tuple(map(dict.get, given_messages, repeat("pin", n), repeat(False, n)))
    given = {k: v for k, v in request.items() if k != "messages"}
    for name in ("budget_chars", "keep_last_n", "max_message_chars"):
        if name in given:
            given[name] = int(given[name])  # JSON Schema lets 400.0 be the integer 400
    if "keep_roles" in given:
        given["keep_roles"] = tuple(given["keep_roles"])
    return Request.of_columns(roles, contents, ids, pins, Params(**given), limits)
