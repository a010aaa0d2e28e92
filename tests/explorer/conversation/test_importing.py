"""What an import does next: stop at problems, or load (whole, or with the fixes chosen)."""

import json
import time

from explorer.conversation import importing
from explorer.frames import imports
from explorer.session.conversation import params_from
from tests.explorer.requests import rich_request

FALLBACK = params_from({"budget_chars": 555}, {})


def too_long() -> str:
    messages = [{"role": "user", "content": f"message {i}"} for i in range(201)]
    return json.dumps(messages)


def test_problems_stop_the_import():
    step = importing.decide(imports.read("[1,"), "pasted", FALLBACK)
    assert step.conversation is None and not step.can_fix
    assert step.attempt.kind == "syntax"


def test_a_clean_conversation_loads_at_once_with_a_label_naming_its_format():
    step = importing.decide(imports.read(json.dumps(rich_request())), "pasted", FALLBACK)
    assert step.conversation is not None
    assert step.conversation.label.startswith("Pasted conversation (request) at ")
    assert step.conversation.params["budget_chars"] == 600


def test_a_bare_message_list_takes_the_budget_the_import_chose_and_default_parameters():
    messages = rich_request()["messages"]
    step = importing.decide(imports.read(json.dumps(messages)), "uploaded", FALLBACK)
    conv = step.conversation
    assert conv.label == "Uploaded file (messages)"
    assert conv.params["budget_chars"] == step.attempt.conversion.request["budget_chars"]
    assert conv.params["keep_last_n"] == 5  # the schema default
    kinds = {c.kind for c in step.attempt.conversion.changes}
    assert "budget-chosen" in kinds


def test_an_import_over_the_limits_loads_whole_and_keeps_the_fixes_on_offer():
    attempt = imports.read(too_long())
    whole = importing.decide(attempt, "pasted", FALLBACK)
    assert len(whole.conversation.messages) == 201 and whole.can_fix
    assert whole.read is attempt.conversion  # the read as it was, for a window chosen later
    fixed = importing.decide(attempt, "pasted", FALLBACK, keep_last=True)
    assert len(fixed.conversation.messages) == 200
    assert fixed.conversation.messages[0]["content"] == "message 1"


def test_two_pastes_in_one_second_get_distinct_labels(monkeypatch):
    moment = time.localtime(1_700_000_000)
    at = time.strftime("%H:%M:%S", moment)
    monkeypatch.setattr(importing.time, "localtime", lambda *_: moment)  # both in one second
    first, second = rich_request(), rich_request()
    second["messages"][0]["content"] += " And one more thing."
    labels = [
        importing.decide(imports.read(json.dumps(r)), "pasted", FALLBACK).conversation.label
        for r in (first, second)
    ]
    assert all(label.startswith(f"Pasted conversation (request) at {at}, id ") for label in labels)
    assert labels[0] != labels[1]


def two_fixes() -> str:
    """201 messages, the last one over 8,000 characters: both fixes are needed."""
    messages = [{"role": "user", "content": f"message {i}"} for i in range(200)]
    messages.append({"role": "assistant", "content": "long " * 2000})
    return json.dumps(messages)


def test_one_fix_of_two_loads_with_the_other_limit_lifted():
    attempt = imports.read(two_fixes())
    step = importing.decide(attempt, "uploaded", FALLBACK, keep_last=True)
    assert len(step.conversation.messages) == 200
    assert step.conversation.messages[-1]["content"] == "long " * 2000  # not cut
    both = importing.decide(attempt, "uploaded", FALLBACK, keep_last=True, cut_long=True)
    assert len(both.conversation.messages) == 200
    assert len(both.conversation.messages[-1]["content"]) == 8000


def test_a_window_too_large_says_so_and_keeps_the_choice():
    attempt = imports.read(two_fixes())
    window = imports.Window(first=150, last=100)
    step = importing.decide(attempt, "uploaded", FALLBACK, cut_long=True, window=window)
    assert step.conversation is None and step.attempt.kind == "fixes"
    assert "the window keeps 201 messages" in step.attempt.problems[0].message
    fits = imports.Window(first=10, last=190)
    loaded = importing.decide(attempt, "uploaded", FALLBACK, cut_long=True, window=fits)
    messages = loaded.conversation.messages
    assert [m["content"] for m in messages[:10]] == [f"message {i}" for i in range(10)]
    assert messages[10]["content"] == "message 11"  # #10 left out
