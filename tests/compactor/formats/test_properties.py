"""Import properties: any conversation in any format gives a valid request or a FormatError."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compactor import validate
from compactor.contract import LIMITS
from compactor.errors import FormatError, UnreadableJSON
from compactor.formats import apply_fixes, convert, convert_text
from tests.generate import requests

ROLES = ["system", "user", "assistant", "tool", "developer", "function", "human", "narrator"]
texts = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["", " ", "Grüße aus Köln", "会议改到周四。", "👨‍👩‍👧", "e\u0301"]),
    st.text(min_size=7990, max_size=8010, alphabet="ab. "),
)
plain = st.lists(
    st.fixed_dictionaries({"role": st.sampled_from(ROLES), "content": texts | st.none()}),
    max_size=8,
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)

# Documents made of the formats' own field names and part types, nested any way: the adapters
# must name a problem or convert, whatever the nesting.
KEYS = ["role", "content", "parts", "tool_calls", "tool_call_id", "id", "pin", "from", "value"]
KEYS += ["type", "text", "name", "input", "output", "toolCallId", "toolName", "state", "function"]
KEYS += ["arguments", "tool_use_id", "is_error", "system", "conversations", "messages", "refusal"]
WORDS = ROLES + ["text", "tool_use", "tool_result", "image", "image_url", "tool-call", "tool-x"]
WORDS += ["tool-result", "dynamic-tool", "output-available", "output-error", "step-start", "gpt"]
WORDS += ["reasoning", "file", "thinking", "refusal", "function_call", "observation", "human"]
messy = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 2) | st.sampled_from(WORDS) | texts,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=5)
    ),
    max_leaves=30,
)

words = st.text(min_size=1, max_size=30)
part = st.builds(
    lambda kind, text, extra: {"type": kind, "text": text, **extra},
    st.sampled_from(WORDS),
    words,
    st.dictionaries(st.sampled_from(KEYS), messy, max_size=2),
)
near_message = st.builds(
    lambda role, content, extra: {"role": role, "content": content, **extra},
    st.sampled_from(ROLES),
    words | st.lists(part | words, min_size=1, max_size=4),
    st.dictionaries(st.sampled_from(KEYS), messy, max_size=2),
)
near_documents = st.lists(near_message, min_size=2, max_size=6).flatmap(
    lambda ms: st.sampled_from([ms, {"messages": ms}, {"system": "s", "messages": ms}])
)


def as_openai(messages):
    return {"model": "m", "messages": messages}


def as_anthropic(messages):
    def blocks(m):
        return [{"type": "text", "text": m["content"]}] if m["content"] is not None else []

    return {
        "system": "Be kind.",
        "messages": [{"role": m["role"], "content": blocks(m)} for m in messages],
    }


def as_vercel(messages):
    parts = [{"type": "text", "text": m["content"]} for m in messages]
    return [
        {"id": str(i), "role": m["role"], "parts": [p]}
        for i, (m, p) in enumerate(zip(messages, parts, strict=True))
    ]


def as_sharegpt(messages):
    names = {"user": "human", "assistant": "gpt"}
    return {
        "conversations": [
            {"from": names.get(m["role"], m["role"]), "value": m["content"]} for m in messages
        ]
    }


def as_jsonl(messages):
    return "\n".join(json.dumps(m, ensure_ascii=False) for m in messages)


RENDER = [(None, lambda m: m), ("openai", as_openai), ("anthropic", as_anthropic)]
RENDER += [("vercel", as_vercel), ("sharegpt", as_sharegpt), ("jsonl", as_jsonl)]


def check(conversion):
    """The invariants of a conversion: valid now or after the fixes, and links that fit."""
    fixed = apply_fixes(conversion)
    validate(fixed.request)
    if not conversion.needs_fixes:
        validate(conversion.request)
        assert fixed is conversion
    n = len(conversion.request["messages"])
    for a, b in conversion.tool_links:
        assert 0 <= a < b < n
    for change in conversion.changes:
        assert change.kind and change.message
        assert change.index is None or 0 <= change.index < n


@pytest.mark.slow
@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(plain, st.sampled_from(RENDER))
def test_any_conversation_in_any_format_converts_or_says_why(messages, render):
    name, to_format = render
    data = to_format(messages)
    try:
        conversion = convert_text(data, name) if name == "jsonl" else convert(data, name)
    except FormatError as error:
        assert error.problems
        return
    except UnreadableJSON as error:  # only an empty JSONL file is not JSON
        assert name == "jsonl" and not messages and error.problems
        return
    check(conversion)
    contents = [m["content"] for m in messages if m["content"]]
    assert len(conversion.request["messages"]) >= LIMITS["min_messages"]
    # every text arrives in order, whole (cuts are only pending fixes)
    arrived = [m["content"] for m in conversion.request["messages"]]
    assert [c for c in arrived if c != "Be kind."] == contents or name == "anthropic"


@settings(max_examples=300)
@given(json_values)
def test_any_json_value_converts_or_raises_format_error(data):
    try:
        conversion = convert(data)
    except FormatError as error:
        assert error.problems and str(error)
        return
    check(conversion)


@pytest.mark.slow
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(
    messy | near_documents,
    st.sampled_from([None, "request", "openai", "anthropic", "vercel", "sharegpt"]),
)
def test_documents_of_format_fields_nested_any_way_convert_or_say_why(data, format):
    try:
        conversion = convert(data, format)
    except FormatError as error:
        assert error.problems and all(p.message for p in error.problems)
        return
    check(conversion)


@settings(max_examples=200)
@given(st.binary(max_size=64) | st.text(max_size=64))
def test_any_text_or_bytes_is_read_or_refused_with_a_reason(source):
    try:
        check(convert_text(source))
    except (UnreadableJSON, FormatError) as error:
        assert error.problems


@settings(max_examples=100)
@given(requests())
def test_a_valid_request_imports_as_itself_with_nothing_to_report(request):
    conversion = convert(request)
    assert conversion.format == "request"
    assert conversion.changes == ()
    assert validate(conversion.request) == validate(request)


@pytest.mark.parametrize("format", [None, "responses", "langchain", "openai", "claude-code"])
@pytest.mark.parametrize(
    "data",
    [
        [{"type": []}],
        [{"type": {"a": 1}, "data": {}}],
        [{"role": "user", "content": "hi", "type": ["message"]}],
        [{"role": ["user"], "content": None}],
    ],
    ids=["type-list", "type-object", "message-type-list", "role-list"],
)
def test_a_type_or_role_that_is_a_list_or_an_object_is_named_not_a_crash(data, format):
    """An unhashable ``type`` or ``role`` (a list, an object) once raised a bare ``TypeError``
    from a set lookup in the Responses and LangChain readers (issue 34, item 4)."""
    try:
        convert(data, format)
    except FormatError as error:
        assert error.problems and all(p.path or p.line for p in error.problems)
