"""The loaded conversation: parameters with defaults, its fingerprint, the request it makes."""

from compactor.contract import DEFAULTS
from explorer.session.conversation import Conversation, content_key, display_request, params_from

MESSAGES = ({"role": "user", "content": "Hello"}, {"role": "assistant", "content": "Hi!"})


def test_parameters_not_stated_take_the_schema_defaults_and_the_fallback_budget():
    params = params_from({"messages": [], "keep_last_n": 1}, {"budget_chars": 777})
    assert params == {
        "budget_chars": 777,
        "keep_last_n": 1,
        "keep_roles": list(DEFAULTS["keep_roles"]),
        "duplicate_threshold": DEFAULTS["duplicate_threshold"],
        "max_message_chars": DEFAULTS["max_message_chars"],
    }


def test_a_stated_budget_wins_over_the_fallback():
    assert params_from({"budget_chars": 500}, {"budget_chars": 777})["budget_chars"] == 500


def test_the_fingerprint_follows_the_content_only():
    assert content_key(MESSAGES) == content_key([dict(m) for m in MESSAGES])
    changed = (MESSAGES[0], {"role": "assistant", "content": "Hi."})
    assert content_key(changed) != content_key(MESSAGES)
    a = Conversation(MESSAGES, {}, "a")
    b = Conversation(MESSAGES, {"budget_chars": 1}, "b", source="pasted")
    assert a.key == b.key


def test_the_request_is_a_fresh_copy_with_every_parameter():
    conv = Conversation(MESSAGES, {}, "test")
    params = params_from({"budget_chars": 100}, {})
    request = conv.request(params)
    request["messages"][0]["content"] = "changed"
    request["keep_roles"].append("tool")
    assert conv.messages[0]["content"] == "Hello"
    assert params["keep_roles"] == ["system"]
    assert list(request) == ["messages", *params]
    assert conv.contents_chars == 8


def test_a_small_request_is_shown_whole_and_a_large_one_without_its_messages():
    request = {"messages": list(MESSAGES), "budget_chars": 100}
    assert display_request(request) == (request, None)
    shown, note = display_request(request, limit=7)
    assert shown == {"budget_chars": 100}
    assert "2 messages with 8 characters" in note
