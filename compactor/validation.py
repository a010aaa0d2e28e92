"""Request validation against the seed's own input JSON Schema, with readable errors."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator

from compactor.contract import INPUT_SCHEMA
from compactor.errors import InvalidRequest, Problem, format_path
from compactor.model import Message, Params, Request

_VALIDATOR = Draft202012Validator(INPUT_SCHEMA)
_JSON_TYPES = {
    bool: "a boolean",
    int: "an integer",
    float: "a number",
    str: "a string",
    list: "an array",
    dict: "an object",
    type(None): "null",
}
_ARTICLE = {"object": "an object", "array": "an array", "integer": "an integer"}


def schema_errors(validator: Validator, instance: Any) -> list[Problem]:
    """Every violation of ``validator``'s schema in ``instance``, readable, sorted by path."""
    found: dict[tuple, Problem] = {}
    for error in validator.iter_errors(instance):
        for parts, message in _explain(error):
            key = (_sort_key(parts), message)
            found.setdefault(key, Problem(message, path=format_path(parts)))
    return [found[key] for key in sorted(found)]


def errors_of(request: Any) -> list[Problem]:
    """Every violation of the input schema in ``request``, sorted by path; empty if valid."""
    errors = schema_errors(_VALIDATOR, request)
    if isinstance(request, dict):
        # NaN passes every numeric bound in JSON Schema; JSON itself has no NaN or infinity.
        for name, value in request.items():
            known = name in INPUT_SCHEMA["properties"]
            if known and isinstance(value, float) and not math.isfinite(value):
                errors.append(Problem("must be a finite number", path=name))
    return errors


def validate(request: Any) -> Request:
    """The typed request for a valid ``request``; raises :class:`InvalidRequest` otherwise."""
    errors = errors_of(request)
    if errors:
        raise InvalidRequest(errors)
    messages = tuple(
        Message(i, m["role"], m["content"], m.get("id"), m.get("pin", False))
        for i, m in enumerate(request["messages"])
    )
    given = {k: v for k, v in request.items() if k != "messages"}
    for name in ("budget_chars", "keep_last_n", "max_message_chars"):
        if name in given:
            given[name] = int(given[name])  # JSON Schema lets 400.0 be the integer 400
    if "keep_roles" in given:
        given["keep_roles"] = tuple(given["keep_roles"])
    return Request(messages, Params(**given))


def _sort_key(parts: Sequence[str | int]) -> tuple:
    return tuple((0, p, "") if isinstance(p, int) else (1, 0, p) for p in parts)


def _explain(error: ValidationError) -> list[tuple[list[str | int], str]]:
    """The readable (path, reason) pairs of one jsonschema error."""
    path = list(error.absolute_path)
    value = error.instance
    keyword = error.validator
    limit = error.validator_value
    if keyword == "required":
        return [(path + [name], "is required but missing") for name in limit if name not in value]
    if keyword == "additionalProperties":
        allowed = list(error.schema.get("properties", {}))
        extra = [name for name in value if name not in allowed]
        hint = f"unknown field; allowed fields are {', '.join(allowed)}"
        return [(path + [name], hint) for name in extra]
    if keyword == "type":
        wanted = _ARTICLE.get(limit, f"a {limit}")
        return [
            (path, f"must be {wanted}, not {_JSON_TYPES.get(type(value), type(value).__name__)}")
        ]
    if keyword == "enum":
        options = ", ".join(json.dumps(v) for v in limit)
        return [(path, f"must be one of {options}, not {json.dumps(value, ensure_ascii=False)}")]
    if keyword == "minLength":
        if limit == 1:
            return [(path, "must not be empty")]
        return [(path, f"must be at least {limit:,} characters long; it has {len(value):,}")]
    if keyword == "maxLength":
        return [(path, f"must be at most {limit:,} characters long; it has {len(value):,}")]
    if keyword == "minItems":
        return [(path, f"must have at least {limit:,} items; it has {len(value):,}")]
    if keyword == "maxItems":
        return [(path, f"must have at most {limit:,} items; it has {len(value):,}")]
    if keyword == "minimum":
        return [(path, f"must be at least {limit:,}; it is {value:,}")]
    if keyword == "maximum":
        return [(path, f"must be at most {limit:,}; it is {value:,}")]
    return [(path, error.message)]
