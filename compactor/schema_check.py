"""A checker by hand for the part of JSON Schema the contract's schemas use, with readable errors.

It interprets type, enum, required, additionalProperties, properties, items and the length,
size and range bounds, and refuses any other keyword when a schema is compiled. On JSON values it
finds exactly what a JSON Schema validator finds (``tests/compactor/test_validation_oracle.py``
holds it to jsonschema), but its cost is bounded by what it reports: at most
:data:`~compactor.errors.MAX_PROBLEMS` problems are listed, the rest only counted (in bulk, never
one message each); no value is ever formatted whole (a short escaped excerpt at most); nothing
descends into a value the schema does not describe, so no depth or size of input can make it
recurse, crash or take long. Values must be JSON values (dict, list, str, int, float, bool,
None): anything else is refused where it is, as is an unpaired surrogate in a string, which
could not be written back as UTF-8.
"""

from __future__ import annotations

import heapq
import json
import math
import operator
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import chain
from typing import Any

from compactor.errors import (
    MAX_PROBLEMS,
    Problem,
    describe,
    format_path,
    more_problems,
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


class Report:
    """Problems found so far: the first ``limit`` kept, in the order found; the rest counted."""

    def __init__(self, limit: int = MAX_PROBLEMS):
        self.limit = limit
        self.found: list[Found] = []
        self.more = 0
        #: Whether problems past the limit are still counted (else the caller counted them).
        self.counting = True

    @property
    def full(self) -> bool:
        return len(self.found) >= self.limit

    def add(self, parts: Parts, message: str) -> None:
        if len(self.found) < self.limit:
            self.found.append((parts, message))
        elif self.counting:
            self.more += 1


def check_request(schema: Schema, value: Any, report: Report) -> None:
    """:func:`check` the whole of ``value``, after a bulk :func:`count` says whether there is
    anything to find: a valid request (the common case) is never walked value by value."""
    total = count(schema, [value])
    if total:
        report.counting = False  # the walk stops at the limit: the rest is known already
        before = len(report.found) + report.more
        check(schema, value, report)
        report.counting = True
        report.more = before + total - len(report.found)


def check(schema: Schema, value: Any, report: Report, parts: Parts = ()) -> None:
    """Add the violations of ``schema`` in ``value`` to ``report``, in path order.

    Own problems come sorted by message, then fields in name order and items in index order,
    so the first problems found are the first in path order; once the report is full, the rest
    is counted in bulk.
    """
    if report.full:
        report.more += count(schema, [value]) if report.counting else 0
        return
    for message in sorted(schema.message(k, value) for k in schema.violations(value)):
        report.add(parts, message)
    if isinstance(value, dict) and schema.describes_object:
        _check_fields(schema, value, report, parts)
    elif isinstance(value, list) and schema.items is not None:
        for i, item in enumerate(value):
            if report.full:
                report.more += count(schema.items, value[i:]) if report.counting else 0
                return
            check(schema.items, item, report, (*parts, i))


def _check_fields(schema: Schema, value: dict, report: Report, parts: Parts) -> None:
    properties = schema.properties
    unknown = (
        [k for k in value if isinstance(k, str) and k not in properties] if schema.closed else []
    )
    room = report.limit - len(report.found)
    if len(unknown) > room:  # only the first in name order can be listed; count the others
        shown = heapq.nsmallest(room, unknown)
        report.more += len(unknown) - len(shown) if report.counting else 0
        unknown = shown
    present = [name for name in properties if name in value]
    missing = [name for name in schema.required if name not in value]
    for name in sorted({*unknown, *present, *missing}):
        here = (*parts, name)
        if name not in value:
            report.add(here, "is required but missing")
        elif name in properties:
            check(properties[name], value[name], report, here)
        else:
            report.add(here, schema.unknown_hint)


def count(schema: Schema, values: list) -> int:
    """How many problems ``check`` would report in all of ``values``, without formatting any.

    Values of one type that break the same keywords whatever they are (a million zeros where
    objects belong) are counted in one step; objects and arrays are counted field by field and
    item by item across all of them at once.
    """
    kinds = set(map(type, values))
    tally = Counter({kinds.pop(): len(values)}) if len(kinds) == 1 else Counter(map(type, values))
    total = 0
    for kind, many in tally.items():
        same = values if len(tally) == 1 else [v for v in values if type(v) is kind]
        if issubclass(kind, dict) and schema.describes_object:
            total += _count_objects(schema, same)
        elif issubclass(kind, list) and schema.describes_array:
            total += _count_arrays(schema, same)
        elif kind is str:
            total += _count_strings(schema, same)
        elif schema.value_free(kind):
            total += many * len(schema.violations(same[0]))
        else:
            try:
                groups = Counter(same)
            except Exception:  # unhashable (only from Python callers): one at a time
                total += sum(len(schema.violations(v)) for v in same)
            else:
                total += sum(n * len(schema.violations(v)) for v, n in groups.items())
    return total


def _count_strings(schema: Schema, strings: list[str]) -> int:
    """:func:`count` for values that are all exactly ``str``, keyword by keyword."""
    n = len(strings)
    total = n * (bool(schema.checks) and not any(check("") for check in schema.checks))
    if schema.enum is not None:
        total += n - sum(map(schema.enum.__contains__, strings))
    if schema.min_length is not None or schema.max_length is not None:
        lengths = list(map(len, strings))
        if schema.min_length is not None:
            total += sum(length < schema.min_length for length in lengths)
        if schema.max_length is not None:
            total += sum(length > schema.max_length for length in lengths)
    if schema.textual:
        total += sum(not is_text(text) for text in strings if not text.isascii())
    return total


def _count_objects(schema: Schema, objects: list[dict]) -> int:
    n = len(objects)
    total = n * len(schema.violations({}))  # type and enum: the same for every object
    keys = Counter(chain.from_iterable(objects))  # every key of every object, counted in C
    total += sum(n - keys[name] for name in schema.required)
    if schema.closed:
        total += keys.total() - sum(keys[name] for name in schema.properties)
    if any(not isinstance(key, str) for key in keys):  # only from Python callers
        for value in objects:
            odd = sum(not isinstance(key, str) for key in value)
            total += odd > 0  # one problem for the object...
            if schema.closed:
                total -= odd  # ...and such a key is not also an unknown field
    for name, sub in schema.properties.items():
        if keys[name] == n:
            total += count(sub, list(map(operator.itemgetter(name), objects)))
        elif keys[name]:
            total += count(sub, [value[name] for value in objects if name in value])
    return total


def _count_arrays(schema: Schema, arrays: list[list]) -> int:
    total = 0
    for length, many in Counter(map(len, arrays)).items():
        sample = next(a for a in arrays if len(a) == length)
        total += many * len(schema.violations(sample))
    if schema.items is not None:
        total += count(schema.items, list(chain.from_iterable(arrays)))
    return total


def finish(reports: Iterable[Report], limit: int = MAX_PROBLEMS) -> list[Problem]:
    """The problems of ``reports`` together: sorted by path, at most ``limit``, then the count
    of the rest."""
    found: set[Found] = set()
    more = 0
    for report in reports:
        found.update(report.found)
        more += report.more
    ordered = sorted(found, key=lambda f: (_sort_key(f[0]), f[1]))
    more += max(0, len(ordered) - limit)
    problems = [Problem(message, path=format_path(parts)) for parts, message in ordered[:limit]]
    return problems + [more_problems(more)] if more else problems


def schema_problems(schema: Schema, value: Any, limit: int = MAX_PROBLEMS) -> list[Problem]:
    """Every violation of ``schema`` in ``value`` (at most ``limit`` listed), sorted by path."""
    report = Report(limit)
    check_request(schema, value, report)
    return finish([report], limit)


def _sort_key(parts: Sequence[str | int]) -> tuple:
    return tuple((0, p, "") if isinstance(p, int) else (1, 0, p) for p in parts)
