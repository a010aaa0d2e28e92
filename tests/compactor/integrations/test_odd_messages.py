"""Odd messages through ``shrink``: each is the project's FormatError with the position it is
at, never a bare TypeError, langchain-core's ValueError or pydantic's ValidationError, and never
a message dropped without a word (issue 34, items 4 and 5)."""

import pytest

from compactor import FormatError, shrink

langchain = pytest.importorskip("langchain_core.messages")

SETTING = {"budget_chars": 100}
LONG = "Where is parcel DE-4471? " * 10
ITEMS = [
    {"type": "message", "role": "user", "content": LONG},
    {"type": "message", "role": "assistant", "content": "It left Hamburg on Monday."},
]
SERIALISED = [
    {"type": "human", "data": {"content": LONG}},
    {"type": "ai", "data": {"content": "It left Hamburg on Monday."}},
]


def problems(messages, format=None):
    with pytest.raises(FormatError) as raised:
        shrink(messages, SETTING, format=format)
    return [str(p) for p in raised.value.problems]


@pytest.mark.parametrize("kind", [{"x": 1}, ["message"], None])
@pytest.mark.parametrize("position", [0, 1, 2])
@pytest.mark.parametrize("format", [None, "responses"])
def test_a_responses_item_whose_type_is_not_a_text_is_named(kind, position, format):
    # a message item with an object type was skipped as "content the model produced"
    items = [*ITEMS]
    items.insert(position, {"type": kind, "role": "user", "content": "Also Oslo."})
    found = problems(items, format)
    assert found == [
        f"[{position}].type: an item's type is a text (message, function_call, ...), not "
        + {dict: "an object", list: "a list"}.get(type(kind), "null")
    ]


@pytest.mark.parametrize("kind", [{"x": 1}, ["human"]])
def test_a_serialised_langchain_message_whose_type_is_not_a_text_is_named(kind):
    found = problems([*SERIALISED, {"type": kind, "data": {"content": "Also Oslo."}}], "langchain")
    assert len(found) == 1 and found[0].startswith("[2].type: ")
    assert "is not a LangChain message type" in found[0]
