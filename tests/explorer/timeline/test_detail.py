"""Picking a message: chart selections, the picker, and the detail's tables."""

from compactor import run, validate
from compactor.model import Message
from explorer.frames import views
from explorer.timeline import detail
from tests.explorer.requests import rich_request


def test_a_point_selection_gives_its_index():
    assert detail.picked_index({"pick": [{"index": 3}]}, "pick") == 3
    assert detail.picked_index({"pick": [{"index": 3.0}]}, "pick") == 3
    assert detail.picked_index({"pick": []}, "pick") is None
    assert detail.picked_index({}, "pick") is None
    assert detail.picked_index(None, "pick") is None
    assert detail.picked_index({"other": [{"index": 1}]}, "pick") is None
    assert detail.picked_index({"pick": [{"index": True}, {"index": "2"}]}, "pick") is None


def test_only_a_new_click_moves_the_picker():
    assert detail.follow_pick(4, None) == (4, 4)  # first click
    assert detail.follow_pick(4, 4) == (None, 4)  # the same selection on a later rerun
    assert detail.follow_pick(7, 4) == (7, 7)  # another bar
    assert detail.follow_pick(None, 7) == (None, None)  # selection cleared
    assert detail.follow_pick(7, None) == (7, 7)  # the same bar clicked again after clearing


def test_picker_labels_name_message_role_and_fate_only():
    result = run(validate(rich_request()))
    labels = detail.option_label(views.fate_frame(result))
    assert labels[4] == "#4 · user · duplicate"
    assert list(labels) == list(range(12))


def test_fields_show_a_missing_id_as_none():
    frame = detail.fields_frame(Message(0, "user", "hello", None, False))
    assert dict(zip(frame["field"], frame["value"], strict=True)) == {
        "role": "user",
        "id": "(none)",
        "pin": "false",
        "characters": "5",
    }


def test_long_texts_scroll_and_short_ones_do_not():
    assert detail.text_height("short") == "content"
    assert detail.text_height("word " * 400) == 340
    assert detail.text_height("line\n" * 30) == 340


def test_the_timeline_shows_a_new_pick_else_keeps_the_pickers_message():
    options = [0, 1, 2, 3]
    assert detail.next_choice(2, None, 0, options) == (2, 2)  # a click
    assert detail.next_choice(2, 2, 3, options) == (3, 2)  # the picker moved since
    assert detail.next_choice(None, 2, 3, options) == (3, None)
    assert detail.next_choice(None, None, 9, options) == (0, None)  # its message is gone
    assert detail.next_choice(7, None, 1, options) == (1, 7)  # a pick outside the options
