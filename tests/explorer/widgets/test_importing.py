"""What an import does next: stop at problems, wait for the user's fixes, or load."""

import json
import time

from explorer.frames import imports
from explorer.session.conversation import params_from
from explorer.widgets import importing
from tests.explorer.requests import rich_request

FALLBACK = params_from({"budget_chars": 555}, {})


def too_long() -> str:
    messages = [{"role": "user", "content": f"message {i}"} for i in range(201)]
    return json.dumps(messages)


def test_problems_stop_the_import():
    step = importing.decide(imports.read("[1,"), "pasted", FALLBACK)
    assert step.conversation is None and not step.needs_fixes
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


def test_an_import_over_the_limits_waits_until_a_fix_is_chosen():
    attempt = imports.read(too_long())
    waiting = importing.decide(attempt, "pasted", FALLBACK)
    assert waiting.needs_fixes and waiting.conversation is None
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
