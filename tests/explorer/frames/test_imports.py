"""Reading pasted or uploaded text, choosing fixes, and the message table, as plain values."""

import json

import pandas as pd
import pytest

from compactor.formats import FORMATS
from explorer.frames import imports
from explorer.session.conversation import params_from
from tests.explorer.requests import rich_request

FALLBACK = params_from({"budget_chars": 555}, {})


def test_text_that_is_not_json_gives_its_line_and_column():
    attempt = imports.read('{"messages": [\n  {"role": "user",, }\n]}')
    assert attempt.kind == "syntax" and not attempt.ok
    (problem,) = attempt.problems
    assert (problem.line, problem.column) == (2, 19)
    table = imports.problem_rows(attempt.problems)
    assert table.to_dict("records") == [{"where": "line 2, column 19", "problem": problem.message}]


def test_json_that_is_no_conversation_is_a_format_problem():
    attempt = imports.read('{"hello": "world"}')
    assert attempt.kind == "format" and attempt.problems


def test_a_request_loads_with_its_own_parameters():
    request = rich_request()
    attempt = imports.read(json.dumps(request))
    assert attempt.ok and attempt.conversion.format == "request"
    conv, checked = imports.finish(
        attempt.conversion, fallback=FALLBACK, label="Pasted", source="pasted"
    )
    assert checked.ok
    assert list(conv.messages) == request["messages"]
    assert dict(conv.params) == {k: v for k, v in request.items() if k != "messages"}
    assert (conv.label, conv.source, conv.format) == ("Pasted", "pasted", "request")


def test_a_request_that_breaks_the_schema_names_each_path():
    request = rich_request()
    request["messages"][3]["role"] = "robot"
    request["keep_last_n"] = 99
    attempt = imports.read(json.dumps(request))
    assert attempt.conversion is None and attempt.kind == "format"
    assert {p.path for p in attempt.problems} == {"messages[3].role", "keep_last_n"}


def test_a_conversation_over_the_limits_loads_whole_and_with_the_fixes_chosen():
    messages = [{"role": "user", "content": f"message {i}"} for i in range(203)]
    messages[-1]["content"] = "x" * 9000
    attempt = imports.read(json.dumps(messages))
    assert attempt.ok and attempt.conversion.needs_fixes and attempt.over_limits
    fixes = imports.pending_fixes(attempt.conversion)
    assert set(fixes) == {"keep_last", "cut_long"}
    whole, checked = imports.finish(attempt.conversion, fallback=FALLBACK, label="x", source="y")
    assert checked.ok  # nothing asked: every message, every character, in the agent mode
    assert [m["content"] for m in whole.messages] == [m["content"] for m in messages]
    assert whole.limits == "agent" and whole.budget_high == 2_000_000
    conv, checked = imports.finish(
        attempt.conversion, keep_last=True, cut_long=True, fallback=FALLBACK, label="x", source="y"
    )
    assert checked.ok
    assert len(conv.messages) == 200 and conv.limits == "contract"
    assert conv.messages[0]["content"] == "message 3"
    assert len(conv.messages[-1]["content"]) == 8000
    lossy = imports.change_rows(checked.conversion.changes)
    assert lossy["lossy"].any()


def test_choosing_only_one_fix_loads_the_rest_whole():
    messages = [{"role": "user", "content": f"message {i}"} for i in range(203)]
    messages[-1]["content"] = "x" * 9000
    attempt = imports.read(json.dumps(messages))
    conv, checked = imports.finish(
        attempt.conversion, keep_last=True, fallback=FALLBACK, label="x", source="y"
    )
    assert checked.ok and len(conv.messages) == 200
    assert len(conv.messages[-1]["content"]) == 9000 and conv.limits == "agent"


def test_an_input_over_the_size_limit_is_refused_with_its_size_and_the_limit():
    assert imports.too_large(imports.MAX_INPUT_BYTES) is None
    problem = imports.too_large(70 * 2**20)
    assert problem.message.startswith(
        "This file is 73,400,320 bytes (70.0 MB), over the explorer's limit of 67,108,864 bytes "
        "(64 MB); it was not read."
    )


def test_every_format_can_be_chosen():
    assert dict(imports.FORMAT_CHOICES) == {name: f.label for name, f in FORMATS.items()}


def test_the_editor_shows_the_messages_in_order_and_gives_them_back():
    request = rich_request()
    frame = imports.editor_frame(request["messages"])
    assert list(frame.columns) == list(imports.EDITOR_COLUMNS)
    assert list(frame["position"]) == [float(i) for i in range(12)]  # #0 first
    assert imports.rows_to_messages(frame) == request["messages"]


def test_positions_reorder_and_new_rows_go_last():
    frame = pd.DataFrame(
        [
            {"position": 1.0, "role": "user", "content": "a", "id": None, "pin": False},
            {"position": 2.0, "role": "assistant", "content": "b", "id": "", "pin": False},
            {"position": 1.5, "role": "user", "content": "c", "id": "k", "pin": True},
            {"position": None, "role": "tool", "content": "d", "id": None, "pin": None},
            {"position": None, "role": None, "content": None, "id": None, "pin": None},
        ]
    )
    assert imports.rows_to_messages(frame) == [
        {"role": "user", "content": "a"},
        {"role": "user", "content": "c", "id": "k", "pin": True},
        {"role": "assistant", "content": "b"},
        {"role": "tool", "content": "d"},
    ]


def test_a_row_without_role_is_reported_by_path():
    frame = pd.DataFrame(
        [
            {"position": 1.0, "role": "user", "content": "a", "id": None, "pin": False},
            {"position": 2.0, "role": None, "content": "b", "id": None, "pin": False},
        ]
    )
    request = {"messages": imports.rows_to_messages(frame), **FALLBACK}
    problems = imports.schema_problems(request)
    assert [(p.path, p.message) for p in problems] == [
        ("messages[1].role", "is required but missing")
    ]


@pytest.mark.parametrize("data", [b"\xff\xfe{", "   ", b"[1, 2"])
def test_unreadable_bytes_and_empty_text_are_syntax_problems(data):
    attempt = imports.read(data)
    assert attempt.kind == "syntax" and attempt.problems[0].line is not None


def test_long_lists_of_effects_are_cut_with_a_count():
    assert imports.first_lines(["a", "b"]) == "a\nb"
    assert imports.first_lines([str(i) for i in range(25)], 3) == "0\n1\n2\n... and 22 more"
