"""The input layer: JSON read at the edges (bounded, path-named problems), the JSON Schema subset
the contract uses, and the validation of a request into the typed :class:`~compactor.Request`."""

from compactor.input.jsonio import (
    decode_text,
    dumps,
    parse_json,
)
from compactor.input.validation import (
    COMPACT_SCHEMA,
    errors_of,
    validate,
)
from compactor.input.writable import json_value_problems

__all__ = [
    "COMPACT_SCHEMA",
    "decode_text",
    "dumps",
    "errors_of",
    "json_value_problems",
    "parse_json",
    "validate",
]
