"""A checker by hand for the part of JSON Schema the contract's schemas use, with readable errors.

It interprets type, enum, required, additionalProperties, properties, items and the length,
size and range bounds, and refuses any other keyword when a schema is compiled. On JSON values it
finds exactly what a JSON Schema validator finds
(``tests/compactor/input/test_validation_oracle.py`` holds it to jsonschema), but its cost is
bounded by what it reports: at most
:data:`~compactor.errors.MAX_PROBLEMS` problems are listed, the rest only counted (in bulk, never
one message each); no value is ever formatted whole (a short escaped excerpt at most); nothing
descends into a value the schema does not describe, so no depth or size of input can make it
recurse, crash or take long. Values must be JSON values (dict, list, str, int, float, bool,
None): anything else is refused where it is, as is an unpaired surrogate in a string, which
could not be written back as UTF-8.
"""

from __future__ import annotations

import heapq
import operator
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import chain, filterfalse, repeat
from typing import Any

from compactor.errors import (
    MAX_PROBLEMS,
    Problem,
    format_path,
    more_problems,
)
from compactor.input._schema_model import (  # noqa: F401 - part of this module's face
    Schema,
    is_text,
    key_surrogate_message,
    surrogate_message,
    type_name,
)

Parts = tuple[str | int, ...]
#: A problem before its path is formatted: (path parts, message).
Found = tuple[Parts, str]


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
    if values and type(values[0]) is str:
        try:
            joined = "".join(values)  # every value a string (the usual column of a request)
        except TypeError:
            pass
        else:  # a str subclass counts as a str does: the same keywords ask the same things
            return _count_strings(schema, values, joined)
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
            total += _count_strings(schema, same, "".join(same))
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


def _count_strings(schema: Schema, strings: list[str], joined: str) -> int:
    """:func:`count` for values that are all strings (``joined`` their concatenation),
    keyword by keyword."""
    n = len(strings)
    total = n * (bool(schema.checks) and not any(check("") for check in schema.checks))
    # each keyword in C over all the strings (a whole session has thousands), first whether
    # any breaks it at all (most requests break none): then each is asked
    if schema.enum is not None and not schema.enum.issuperset(strings):
        total += n - sum(map(schema.enum.__contains__, strings))
    least, most = schema.min_length, schema.max_length
    # "not empty" (the usual least length) is whether every string is true
    shorter = (
        least is not None
        and strings
        and (not all(strings) if least == 1 else min(map(len, strings)) < least)
    )
    if shorter:
        total += sum(map(least.__gt__, map(len, strings)))
    if most is not None and strings and max(map(len, strings)) > most:
        total += sum(map(most.__lt__, map(len, strings)))
    if schema.textual and not joined.isascii():  # all ASCII (the usual case) is all text
        total += sum(not is_text(text) for text in filterfalse(str.isascii, strings))
    return total


def _count_objects(schema: Schema, objects: list[dict]) -> int:
    n = len(objects)
    total = n * len(schema.violations({}))  # type and enum: the same for every object
    columns: dict[str, list] = {}  # a field every object has: its values, in order
    keys = _field_counts(schema, objects, columns)
    if keys is None:  # a key the schema does not describe: every key counted, in C
        keys = Counter(chain.from_iterable(objects))
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
            values = columns.get(name) or list(map(operator.itemgetter(name), objects))
            total += count(sub, values)
        elif keys[name]:
            total += count(sub, [value[name] for value in objects if name in value])
    return total


def _field_counts(schema: Schema, objects: list[dict], columns: dict[str, list]) -> Counter | None:
    """How many of ``objects`` have each field of the schema, when they are plain dicts whose
    every key is one of those fields (a valid request's messages); else None.

    The keys are counted field by field, not key by key (a whole session has thousands of
    messages): a field every object has is read whole (its values kept in ``columns`` for
    its own count), the others counted by membership, and once the counts add up to every key
    the objects hold, the remaining fields are in none.
    """
    if type(objects[0]) is not dict:  # a subclass may read its keys its own way: key by key
        return None
    n, held = len(objects), sum(map(len, objects))
    keys: Counter = Counter()
    found = 0
    for name in schema.properties:
        if found == held:
            break
        try:
            columns[name] = list(map(operator.itemgetter(name), objects))
        except KeyError:  # not in every object: counted where it is
            keys[name] = sum(map(operator.contains, objects, repeat(name, n)))
        else:
            keys[name] = n
        found += keys[name]
    return keys if found == held else None


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
