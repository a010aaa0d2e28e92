"""The hostile corpus of issue 11: bodies an attacker would send, and what every edge must answer.

A plain module (no test framework needed), so that the engine, CLI and server tests here and the
explorer's paste-box tests can all run the same cases::

    from harness.hostile_cases import CASES
    for case in CASES:
        case.body()      # the bytes (large ones are built on first use, then kept)
        case.text()      # the same as text for a paste box (None when it is not UTF-8)
        case.status      # 200, 400 (not JSON) or 422 (breaks the schema); the CLI exits 0 or 2
        case.where       # where the first problem is: a JSON path ($ for the whole input) or
                         # "line L, column C"; "" for a 200
        case.route       # the HTTP route it is sent to (the CLI's `compact` runs COMPACT cases)

Every refusal must name where each problem is, list at most 100 problems (then one line "and N
more"), and fit in 64 KiB whatever the body; no case may produce a traceback or a 5xx.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass

from harness.app_server import ROOT

COMPACT = "/v1/memory-compact"
TRIM = "/v1/context/trim"
#: The largest body any refusal may have.
MAX_ERROR_BYTES = 64 * 1024
#: The server's default body limit, which the largest cases stay under.
LIMIT = 4 * 1024 * 1024

VALID_MESSAGES = [
    {"role": "user", "content": "Where is my parcel DE-4471?"},
    {"role": "assistant", "content": "It left Hamburg on Monday at 03:10."},
]


def _json(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode("utf-8")


def _request(**fields: object) -> dict:
    return {"messages": VALID_MESSAGES, "budget_chars": 400, **fields}


def _repeat(item: bytes, times: int) -> bytes:
    return b",".join([item] * times)


def _amplification(items: int) -> bytes:
    """Issue 11's body: a million problems for the price of two bytes each."""
    return (
        b'{"messages":[' + _repeat(b"0", items) + b'],"budget_chars":400,"keep_roles":['
        + _repeat(b"1", items) + b"]}"
    )  # fmt: skip


def _nested(depth: int, leaf: bytes = b"0") -> bytes:
    return b"[" * depth + leaf + b"]" * depth


def _largest() -> bytes:
    sample = json.loads((ROOT / "sample_histories" / "99-largest.json").read_text("utf-8"))
    return _json(sample["request"])


def _deep_content(depth: int) -> bytes:
    # The request is level 1, messages 2, the message 3, its content 4: a content of
    # depth - 3 levels brings the document to exactly ``depth`` levels.
    content = json.loads(_nested(depth - 3))
    return _json({"messages": [{"role": "user", "content": content}]})


@dataclass(frozen=True)
class Case:
    """One hostile body and the answer it must get."""

    name: str
    what: str
    build: Callable[[], bytes]
    status: int
    where: str = ""
    route: str = COMPACT

    def body(self) -> bytes:
        return _built(self.name)

    def text(self) -> str | None:
        """The body as text to paste (a byte-order mark removed); None when it is not UTF-8."""
        try:
            return self.body().decode("utf-8-sig")
        except UnicodeDecodeError:
            return None


@functools.cache
def _built(name: str) -> bytes:
    return BY_NAME[name].build()


DEEP_99 = "[0]" * 99
CASES: tuple[Case, ...] = (
    Case(
        "amplification",
        "4,160,048 bytes that break the schema 3,120,002 times (issue 11: 64 s, a 282 MB 422)",
        lambda: _amplification(1_040_000),
        422,
        "keep_roles",
    ),
    Case(
        "amplification-1mb",
        "the 1.2 MB version of the same body (issue 11: 23 to 29 s)",
        lambda: _amplification(300_000),
        422,
        "keep_roles",
    ),
    Case(
        "amplification-pasteable",
        "valid messages and 20,000 integers as keep_roles: 40,001 problems in 40 KB, to paste",
        lambda: _json(_request(keep_roles=[1] * 20_000)),
        422,
        "keep_roles",
    ),
    Case(
        "long-unknown-key",
        "a 10,000-character unknown key, echoed whole by the CLI before",
        lambda: _json(_request(**{"k" * 10_000: 1})),
        422,
        '["' + "k" * 40 + '…"]',
    ),
    Case(
        "long-role",
        "a 100,000-character role, once formatted whole into the message",
        lambda: _json(_request(messages=[{"role": "r" * 100_000, "content": "x"}] * 2)),
        422,
        "messages[0].role",
    ),
    Case(
        "role-is-a-big-array",
        "a role that is an array of 200,000 items",
        lambda: (
            b'{"messages":[{"role":[' + _repeat(b"1", 200_000) + b'],"content":"x"}],'
            b'"budget_chars":400}'
        ),
        422,
        "messages",
    ),
    Case(
        "deep-in-a-field",
        "an array nested 985 deep in budget_chars (issue 11: HTTP 500, RecursionError)",
        lambda: b'{"messages":[],"budget_chars":' + _nested(985) + b"}",
        400,
        "budget_chars" + DEEP_99,
    ),
    Case(
        "deep-in-keep-roles",
        "an array nested 960 deep in keep_roles",
        lambda: (
            _json({"messages": [{"role": "user", "content": "x"}], "budget_chars": 400})[:-1]
            + b',"keep_roles":'
            + _nested(960)
            + b"}"
        ),
        400,
        "keep_roles" + DEEP_99,
    ),
    Case(
        "deeper-than-the-parser",
        "arrays nested 100,000 deep: beyond what Python's parser can read",
        lambda: _nested(100_000),
        400,
        "[0]" * 100,
    ),
    Case(
        "deep-objects",
        'objects nested 3,000 deep: {"a": {"a": ...}}',
        lambda: b'{"a":' * 3000 + b"0" + b"}" * 3000,
        400,
        ".".join(["a"] * 100),
    ),
    Case(
        "deep-branch-in-a-wide-array",
        "one deep branch after 1,300,000 empty arrays",
        lambda: b"[" + b"[]," * 1_300_000 + _nested(200) + b"]",
        400,
        "[1300000]" + DEEP_99,
    ),
    Case(
        "trim-deep-content",
        "a trim message whose content nests 101 levels: the document is one level too deep",
        lambda: _deep_content(101),
        400,
        "messages[0].content" + "[0]" * 97,
        TRIM,
    ),
    Case(
        "trim-content-at-the-depth-limit",
        "a trim message whose content nests to exactly 100 levels: echoed back",
        lambda: _deep_content(100),
        200,
        "",
        TRIM,
    ),
    Case(
        "integer-beyond-the-parser",
        "a 5,000-digit integer, more than Python converts",
        lambda: b'{"messages":[],"budget_chars":' + b"9" * 5000 + b"}",
        400,
        "line 1, column 31",
    ),
    Case(
        "integer-of-4000-digits",
        "a 4,000-digit integer, which jsonschema's message formatting could not print",
        lambda: _json(_request(budget_chars=int("9" * 4000))),
        422,
        "budget_chars",
    ),
    Case(
        "duplicate-key",
        "budget_chars given twice (Python keeps the last one silently)",
        lambda: b'{"messages":' + _json(VALID_MESSAGES) + b',"budget_chars":100,"budget_chars":1}',
        400,
        "budget_chars",
    ),
    Case(
        "duplicate-key-in-a-message",
        "a message whose role is given twice",
        lambda: (
            b'{"messages":[{"role":"user","role":"system","content":"x"},'
            b'{"role":"user","content":"y"}],"budget_chars":400}'
        ),
        400,
        "messages[0].role",
    ),
    Case(
        "one-key-690000-times",
        "one key repeated 690,000 times",
        lambda: b"{" + _repeat(b'"a":0', 690_000) + b"}",
        400,
        "a",
    ),
    Case(
        "lone-surrogate",
        'a content holding "\\ud800", which cannot be written back as UTF-8',
        lambda: (
            b'{"messages":[{"role":"user","content":"a\\ud800"},'
            b'{"role":"user","content":"b"}],"budget_chars":400}'
        ),
        400,
        "messages[0].content",
    ),
    Case(
        "lone-surrogate-in-a-key",
        "an unknown key holding a lone surrogate",
        lambda: b'{"\\udc00":1,"messages":[],"budget_chars":400}',
        400,
        "$",
    ),
    Case(
        "nan",
        "NaN, which is not JSON",
        lambda: _json(_request())[:-1] + b',"duplicate_threshold":NaN}',
        400,
        "duplicate_threshold",
    ),
    Case(
        "700000-nans",
        "700,000 NaNs in an unknown field",
        lambda: b'{"x":[' + _repeat(b"NaN", 700_000) + b"]}",
        400,
        "x[0]",
    ),
    Case(
        "control-characters-in-a-key",
        "an unknown key with an ANSI colour escape and a right-to-left override",
        lambda: _json(_request(**{"\x1b[31mred\u202e": 1})),
        422,
        '["\\u001b[31mred\\u202e"]',
    ),
    Case(
        "codex-log-without-messages",
        "a Codex CLI log (JSON Lines) with no response_item line: the explorer and the CLI import "
        "it and refuse it at $; the service takes JSON only",
        lambda: b'{"type":"session_meta","payload":{}}\n{"type":"event_msg","payload":{}}\n',
        400,
        "line 2, column 1",
    ),
    Case("no-messages", "an empty object", lambda: b"{}", 422, "budget_chars"),
    Case("a-number", "a number", lambda: b"42", 422, "$"),
    Case("a-string", "a string", lambda: b'"compact me"', 422, "$"),
    Case("null", "null", lambda: b"null", 422, "$"),
    Case("true", "true", lambda: b"true", 422, "$"),
    Case("an-empty-array", "[]", lambda: b"[]", 422, "$"),
    Case("empty", "an empty body", lambda: b"", 400, "line 1, column 1"),
    Case(
        "not-utf8",
        "bytes that are not UTF-8",
        lambda: b'{"messages": "\xff\xfe"}',
        400,
        "line 1, column 15",
    ),
    Case(
        "syntax-error",
        "a missing value",
        lambda: b'{"messages": [\n  {"role":}]}',
        400,
        "line 2, column 11",
    ),
    Case(
        "340000-unknown-keys",
        "340,000 unknown keys",
        lambda: b"{" + b",".join(b'"k%d":0' % i for i in range(340_000)) + b"}",
        422,
        "budget_chars",
    ),
    Case(
        "1300000-empty-messages",
        "1,300,000 empty objects as messages",
        lambda: b'{"messages":[' + _repeat(b"{}", 1_300_000) + b'],"budget_chars":400}',
        422,
        "messages",
    ),
    Case(
        "420000-distinct-roles",
        "420,000 different strings in keep_roles",
        lambda: (
            b'{"messages":[],"keep_roles":['
            + b",".join(b'"r%d"' % i for i in range(420_000))
            + b"]}"
        ),
        422,
        "budget_chars",
    ),
    Case(
        "trim-2000000-numbers",
        "2,000,000 numbers as trim messages",
        lambda: b'{"messages":[' + _repeat(b"0", 2_000_000) + b"]}",
        422,
        "messages[0]",
        TRIM,
    ),
    Case(
        "trim-1300000-empty-messages",
        "1,300,000 empty objects as trim messages",
        lambda: b'{"messages":[' + _repeat(b"{}", 1_300_000) + b"]}",
        422,
        "messages[0]",
        TRIM,
    ),
    Case(
        "largest-valid-request",
        "200 messages of about 8,000 characters: the largest valid request, compacted",
        _largest,
        200,
    ),
    Case(
        "byte-order-mark",
        "a valid request after a UTF-8 byte-order mark",
        lambda: b"\xef\xbb\xbf" + _json(_request()),
        200,
    ),
)
BY_NAME = {case.name: case for case in CASES}
assert len(BY_NAME) == len(CASES), "case names must be unique"
