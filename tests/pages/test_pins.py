"""Pin or unpin where you look: the detail's button and Overview's one-click pin of the task
change the conversation's pin, keep the parameters, and the engine protects (or not) at once."""

from harness.apptest import assert_clean, engine, goto, on_page, params, request_of, set_param
from tests.explorer.requests import rich_request

TIMELINE = "pages/timeline.py"


def test_the_detail_pins_and_unpins_the_message_and_keeps_the_parameters():
    at = on_page(TIMELINE, rich_request())
    set_param(at, "budget_chars", 1500)  # a tuned parameter the edit must keep
    at.selectbox(key="timeline_message").set_value(2).run()
    assert not engine(at).messages[2].protected
    at.button(key="detail_pin_2").click().run()
    assert_clean(at)
    assert request_of(at)["messages"][2]["pin"] is True
    assert params(at)["budget_chars"] == 1500
    assert engine(at).messages[2].protected_because == ("pin",)
    assert "(pins edited)" in at.session_state["conversation"].label
    assert at.button(key="detail_pin_2").label == "Unpin message #2"
    at.button(key="detail_pin_2").click().run()
    assert_clean(at)
    assert "pin" not in request_of(at)["messages"][2]
    assert not engine(at).messages[2].protected


def test_overview_pins_the_first_user_message_in_one_click():
    request = rich_request()
    at = on_page("pages/overview.py", request)
    result = engine(at)
    assert result.messages[1].message.role == "user" and not result.messages[1].protected
    at.button(key="pin_first_user").click().run()
    assert_clean(at)
    assert request_of(at)["messages"][1]["pin"] is True
    assert engine(at).messages[1].protected
    assert "pin_first_user" not in [b.key for b in at.button]  # nothing left to offer
    goto(at, TIMELINE)
    assert_clean(at)
    assert request_of(at)["messages"][1]["pin"] is True  # the edit holds on every page
