"""Links carry the conversation (sample or workspace key) and the view, and read back exactly."""

import ast

import pytest

from explorer.session import keys, linkvalues, state
from explorer.session.conversation import message_name, safe_name, source_position
from explorer.widgets import tuning
from tests.paths import ROOT

PARAMS = {
    "budget_chars": 400,
    "keep_last_n": 2,
    "keep_roles": ["system"],
    "duplicate_threshold": 0.9,
    "max_message_chars": 120,
}
KEY = "0123456789abcdef01234567"


def test_the_view_keys_are_written_once_where_the_widgets_and_the_link_read_them():
    # the widgets, the timeline page and the link all use explorer.session.keys' values
    for name in ("PHRASES_KEY", "B_KEYS", "B_FOR_KEY", "STEP_KEY", "STEPS", "PHRASES_MAX_CHARS"):
        assert getattr(state, name) is getattr(keys, name)
    for name in ("B_KEYS", "B_FOR_KEY", "STEP_KEY", "STEPS", "PHRASES_KEY"):
        assert getattr(tuning, name) is getattr(keys, name)
    assert keys.STEPS == (1, 2, 3, 4)
    tree = ast.parse((ROOT / "pages" / "timeline.py").read_text("utf-8"))
    assigned = {
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    assert "PICKER_KEY" not in assigned  # imported from explorer.session.keys
    assert state.PICKER_KEY is keys.PICKER_KEY


def test_a_link_to_a_workspace_conversation_with_its_view_reads_back():
    view = state.View(
        phrases="DE-4471\nThursday 14:00",
        b_params={**PARAMS, "budget_chars": 900, "keep_roles": []},
        message=3,
        step=4,
    )
    query = state.link_query(None, PARAMS, KEY, view)
    assert query["c"] == KEY and "sample" not in query
    assert query["b_keep_roles"] == "" and query["message"] == "3" and query["step"] == "4"
    link = state.parse_link(query, ["dispatcher"])
    assert (link.conversation, link.sample, link.params, link.view) == (
        None or KEY,
        None,
        PARAMS,
        view,
    )
    assert link.notices == ()


def test_a_sample_link_carries_no_key_and_an_empty_view_adds_nothing():
    query = state.link_query("dispatcher", PARAMS, KEY, state.View())
    assert set(query) == {"sample", *PARAMS}


def test_bad_view_values_fall_back_with_notices_that_repeat_nothing_unsafe():
    query = {
        "c": "<script>",
        "message": "two",
        "step": "9",
        "b_budget_chars": "50",
        "phrases": "x" * 6_000,
    }
    link = state.parse_link(query, ["dispatcher"])
    assert link.conversation is None and link.view.message is None and link.view.step is None
    assert link.view.b_params == {} and len(link.view.phrases) == state.PHRASES_MAX_CHARS
    text = " ".join(link.notices)
    assert "<script>" not in text and "a value that cannot be shown" in text
    assert "b_budget_chars is '50'" in text
    assert len(link.notices) == 5


def test_a_missing_conversation_is_said_never_replaced_silently():
    notice = state.missing_conversation_notice(KEY)
    assert KEY in notice and "does not have" in notice and "default sample" in notice


def test_one_numbering_with_the_source_beside_it_where_they_differ():
    assert message_name(3, "messages[3]") == "#3"
    assert message_name(3, "messages[4]") == "#3 (source messages[4])"
    assert message_name(0, "line 1") == "#0"
    assert message_name(31, "[0].traj[32]") == "#31 (source [0].traj[32])"
    assert source_position("line 7") == 6 and source_position("system") is None


def test_file_names_are_made_safe_to_show_anywhere():
    assert safe_name("C:\\\\logs\\\\run 1.jsonl") == "run 1.jsonl"
    assert (
        safe_name("**bold**<img src=x onerror=alert(1)>.json")
        == "bold---img src-x onerror-alert(1)-.json"
    )
    assert safe_name("../../etc/passwd") == "passwd"
    assert safe_name("tau_airline_3.json") == "tau_airline_3.json"
    assert safe_name("") is None and safe_name("***") is None


def test_the_token_encoding_rides_in_the_link_and_reads_back():
    view = state.View(tokens="cl100k_base")
    query = state.link_query("dispatcher", PARAMS, None, view)
    assert query["tokens"] == "cl100k_base"
    link = state.parse_link(query, ["dispatcher"])
    assert link.view == view and link.notices == ()
    assert "tokens" not in state.link_query("dispatcher", PARAMS, None, state.View())


def test_an_unknown_encoding_in_a_link_counts_characters_with_a_notice():
    link = state.parse_link({"tokens": "<b>r50k</b>"}, ["dispatcher"])
    assert link.view.tokens is None
    (notice,) = link.notices
    assert "<b>" not in notice and "o200k_base, cl100k_base" in notice


def test_k_rides_in_the_link_only_when_it_is_not_the_default():
    for k in (1, 3, 7, 198):
        query = state.link_query("dispatcher", PARAMS, None, state.View(future=k))
        assert query["k"] == str(k)
        link = state.parse_link(query, ["dispatcher"])
        assert link.view == state.View(future=k) and link.notices == ()
    assert "k" not in state.link_query("dispatcher", PARAMS, None, state.View(future=5))
    assert "k" not in state.link_query("dispatcher", PARAMS, None, state.View())


@pytest.mark.parametrize("raw", ["abc", "0", "-3", "199", str(10**9), "7.5", "", "<b>7</b>"])
def test_a_bad_k_falls_back_to_the_default_with_a_notice(raw):
    link = state.parse_link({"sample": "dispatcher", "k": raw}, ["dispatcher"])
    assert link.view.future is None and link.sample == "dispatcher"
    (notice,) = link.notices
    assert notice.startswith("The link's k is ")
    assert "a whole number from 1 to 198" in notice and "the default, 5" in notice
    assert "<b>" not in notice


def test_the_k_the_link_carries_is_the_one_the_outcome_views_keep():
    from explorer.widgets import outcomes

    assert outcomes.WANTED_KEY is keys.FUTURE_WANTED_KEY


def test_a_k_longer_than_the_conversation_allows_is_capped_there_with_a_notice():
    assert linkvalues.capped_future_notice(4, 6) is None
    notice = linkvalues.capped_future_notice(7, 6)
    assert "k is 7" in notice and "6 messages" in notice and "1 to 4" in notice
