"""The input layer: JSON read at the edges (bounded, path-named problems), the JSON Schema subset
the contract uses, and the validation of a request into the typed :class:`~compactor.Request`."""

from compactor.input._jsonio import (
    decode_text,
    dumps,
    parse_json,
)
from compactor.input._schema_check import Report, check_request, finish
from compactor.input._validation import (
    COMPACT_SCHEMA,
    Schema,
    errors_of,
    schema_problems,
    validate,
)
from compactor.input._writable import json_value_problems

__all__ = [
    "check_request",
    "COMPACT_SCHEMA",
    "decode_text",
    "dumps",
    "errors_of",
    "finish",
    "json_value_problems",
    "parse_json",
    "Report",
    "Schema",
    "schema_problems",
    "validate",
]
