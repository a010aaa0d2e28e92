"""The compiled schemas of the check by hand (:mod:`~.schema_check`): the JSON types, the
keywords of the subset, and the readable names of what a value must be."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from compactor.errors import (
    describe,
    number_text,
)

Parts = tuple[str | int, ...]
#: A problem before its path is formatted: (path parts, message).
Found = tuple[Parts, str]

_JSON_TYPES = {
    bool: "a boolean",
    int: "an integer",
    float: "a number",
    str: "a string",
    list: "an array",
    dict: "an object",
    type(None): "null",
}
_ARTICLE = {"object": "an object", "array": "an array", "integer": "an integer", "null": "null"}
_SURROGATE = re.compile("[\ud800-\udfff]")


def _is_integer(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


def _is_number(value: Any) -> bool:
    # Stricter than JSON Schema's numbers.Number: a Decimal, Fraction or complex is no JSON value.
    return isinstance(value, (int, float)) and not isinstance(value, bool)


_IS: dict[str, Callable[[Any], bool]] = {
    "object": lambda value: isinstance(value, dict),
    "array": lambda value: isinstance(value, list),
    "string": lambda value: isinstance(value, str),
    "boolean": lambda value: isinstance(value, bool),
    "null": lambda value: value is None,
    "integer": _is_integer,
    "number": _is_number,
}


def type_name(value: Any) -> str:
    """What a value is, in the words of the messages: ``an integer``, ``null``, ``Decimal``."""
    return _JSON_TYPES.get(type(value), type(value).__name__)


def is_text(value: str) -> bool:
    """Whether ``value`` is Unicode text (no unpaired surrogate): it can be written as UTF-8."""
    if value.isascii():  # O(1) in CPython
        return True
    try:
        value.encode("utf-8")  # a fast C loop; the regular expression is five times slower
    except UnicodeEncodeError:
        return False
    return True


def key_surrogate_message(key: str) -> str:
    return f"has a key that {surrogate_message(key)}"


def surrogate_message(value: str) -> str:
    found = _SURROGATE.search(value)
    code = f"U+{ord(found.group()):04X}" if found else "?"
    return f"contains an unpaired surrogate ({code}), which is not Unicode text"


class Schema:
    """A JSON Schema of the subset the contract uses, compiled for the check by hand.

    A keyword outside the subset is refused when the schema is compiled, so that a change to a
    schema can never be silently ignored by the check.
    """

    KEYWORDS = frozenset(
        {
            "type",
            "enum",
            "required",
            "additionalProperties",
            "properties",
            "items",
            "minItems",
            "maxItems",
            "minLength",
            "maxLength",
            "minimum",
            "maximum",
            "default",
            "description",
        }
    )

    def __init__(self, spec: Mapping[str, Any]):
        unknown = set(spec) - self.KEYWORDS
        if unknown:
            raise ValueError(f"the check by hand does not know the keywords {sorted(unknown)}")
        if spec.get("additionalProperties", True) not in (True, False):
            raise ValueError("additionalProperties must be true or false here")
        kind = spec.get("type", ())
        self.types: tuple[str, ...] = (kind,) if isinstance(kind, str) else tuple(kind)
        self.checks = tuple(_IS[name] for name in self.types)
        self.wanted = _wanted(self.types)
        self.enum: frozenset[str] | None = None
        if "enum" in spec:
            if not all(isinstance(option, str) for option in spec["enum"]):
                raise ValueError("only enums of strings are supported")
            self.enum = frozenset(spec["enum"])
            self.enum_text = ", ".join(json.dumps(option) for option in spec["enum"])
        self.properties = {name: Schema(sub) for name, sub in spec.get("properties", {}).items()}
        self.required: tuple[str, ...] = tuple(spec.get("required", ()))
        self.closed = spec.get("additionalProperties", True) is False
        self.unknown_hint = f"unknown field; allowed fields are {', '.join(self.properties)}"
        self.describes_object = bool(self.properties or self.required or self.closed)
        self.items = Schema(spec["items"]) if "items" in spec else None
        self.min_items = spec.get("minItems")
        self.max_items = spec.get("maxItems")
        self.min_length = spec.get("minLength")
        self.max_length = spec.get("maxLength")
        self.minimum = spec.get("minimum")
        self.maximum = spec.get("maximum")
        self.numeric = bool({"integer", "number"} & set(self.types))
        self.textual = "string" in self.types
        self.describes_array = self.items is not None or self.min_items or self.max_items

    def violations(self, value: Any) -> list[str]:
        """The keywords ``value`` itself breaks (not its items or fields), cheaply."""
        out = []
        if self.checks and not any(check(value) for check in self.checks):
            out.append("type")
        if self.enum is not None and not (isinstance(value, str) and value in self.enum):
            out.append("enum")
        if isinstance(value, str):
            if self.min_length is not None and len(value) < self.min_length:
                out.append("minLength")
            if self.max_length is not None and len(value) > self.max_length:
                out.append("maxLength")
            if self.textual and not is_text(value):
                out.append("text")
        elif isinstance(value, list):
            if self.min_items is not None and len(value) < self.min_items:
                out.append("minItems")
            if self.max_items is not None and len(value) > self.max_items:
                out.append("maxItems")
        elif isinstance(value, dict):
            if self.describes_object and not all(isinstance(key, str) for key in value):
                out.append("keys")
        elif _is_number(value):
            # NaN passes every bound (each comparison is false), as in JSON Schema.
            if self.minimum is not None and value < self.minimum:
                out.append("minimum")
            if self.maximum is not None and value > self.maximum:
                out.append("maximum")
            if self.numeric and isinstance(value, float) and not math.isfinite(value):
                out.append("finite")
        return out

    def message(self, keyword: str, value: Any) -> str:
        """The readable reason for one broken keyword; values appear only as short excerpts."""
        if keyword == "type":
            return f"must be {self.wanted}, not {type_name(value)}"
        if keyword == "enum":
            return f"must be one of {self.enum_text}, not {describe(value)}"
        if keyword == "minLength":
            if self.min_length == 1:
                return "must not be empty"
            return f"must be at least {self.min_length:,} characters long; it has {len(value):,}"
        if keyword == "maxLength":
            return f"must be at most {self.max_length:,} characters long; it has {len(value):,}"
        if keyword == "minItems":
            return f"must have at least {self.min_items:,} items; it has {len(value):,}"
        if keyword == "maxItems":
            return f"must have at most {self.max_items:,} items; it has {len(value):,}"
        if keyword == "minimum":
            return f"must be at least {self.minimum:,}; it is {number_text(value)}"
        if keyword == "maximum":
            return f"must be at most {self.maximum:,}; it is {number_text(value)}"
        if keyword == "finite":
            return "must be a finite number"
        if keyword == "text":
            return surrogate_message(value)
        if keyword == "keys":
            key = next(key for key in value if not isinstance(key, str))
            return f"has a key that is not a string ({describe(key)}); JSON keys are strings"
        raise AssertionError(keyword)

    def value_free(self, kind: type) -> bool:
        """Whether every value of type ``kind`` breaks the same keywords here (count once)."""
        if issubclass(kind, str):
            return not (self.min_length or self.max_length or self.enum or self.textual)
        if issubclass(kind, bool):
            return True
        if issubclass(kind, (int, float)):
            return not (self.numeric or self.minimum is not None or self.maximum is not None)
        if issubclass(kind, dict):
            return not self.describes_object
        if issubclass(kind, list):
            return not self.describes_array
        return True


def _wanted(types: Sequence[str]) -> str:
    named = [_ARTICLE.get(name, f"a {name}") for name in types]
    if not named:  # no type keyword: any JSON value
        return "a JSON value"
    return named[0] if len(named) == 1 else f"{', '.join(named[:-1])} or {named[-1]}"
