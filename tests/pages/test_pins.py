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


def test_overview_points_at_the_task_past_codexs_environment_context():
    request = {
        "budget_chars": 300,
        "keep_last_n": 1,
        "keep_roles": ["system"],
        "messages": [
            {"role": "system", "content": "You are a coding agent."},
            {
                "role": "user",
                "content": "<environment_context>\n  <cwd>/work</cwd>\n"
                "  <shell>bash</shell>\n</environment_context>",
            },
            {"role": "user", "content": "Fix the failing test in src/app/main.py " * 6},
            {"role": "assistant", "content": "Looking at src/app/main.py now. " * 12},
            {"role": "user", "content": "Thanks, and run the suite again please. " * 5},
        ],
    }
    at = on_page("pages/overview.py", request)
    assert at.button(key="pin_first_user").label == "Keep the task (#2)"
    said = " ".join(i.value for i in at.info)
    assert "The task (#2, the first user message after Codex's environment context)" in said
    at.button(key="pin_first_user").click().run()
    assert_clean(at)
    assert request_of(at)["messages"][2]["pin"] is True
    assert "pin" not in request_of(at)["messages"][1]
