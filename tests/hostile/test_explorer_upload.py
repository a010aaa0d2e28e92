"""The hostile bodies too large to paste, or not UTF-8, uploaded on the Conversation page.

The same session uploads each in turn (AppTest, the real page script): a refusal is the error
box and exactly the problem table the import layer decides (tests/hostile/explorer_answers.py),
every row saying where and at most 100 then the count of the rest, and the conversation loaded
before stays loaded; the largest valid request loads. Never an exception. The smaller cases go
through the paste box in the browser (tests/browser/test_hostile_paste.py).
"""

import pytest

from explorer.conversation import importing
from explorer.session import state
from harness.apptest import assert_clean, goto, params, start, table
from tests.hostile.explorer_answers import answer, check_refusal, uploaded_only

PAGE = "pages/conversation.py"
NAME = "hostile.json"


@pytest.fixture(scope="module")
def session():
    at = goto(start(), PAGE)
    at.segmented_control(key="input_mode").set_value("Upload").run()
    assert_clean(at)
    return at


#: The case that takes seconds: parsing and checking 1,300,000 empty messages.
SLOW = {"trim-1300000-empty-messages"}


@pytest.mark.parametrize(
    "case",
    [pytest.param(c, marks=pytest.mark.slow) if c.name in SLOW else c for c in uploaded_only()],
    ids=lambda c: c.name,
)
def test_an_upload_too_large_to_paste_is_refused_where_it_is_wrong(session, case):
    at = session
    before = at.session_state[state.CONVERSATION_KEY]
    shown = answer(case.body(), "uploaded", params(at))
    at.file_uploader(key=importing.UPLOAD_KEY).set_value((NAME, case.body(), "application/json"))
    at.run()
    assert_clean(at)
    if shown.loaded:
        assert case.status == 200
        assert any(f"Loaded: Uploaded file {NAME}" in s.value for s in at.success)
        return
    check_refusal(case, shown)
    assert [e.value for e in at.error] == [shown.title]
    rows = table(at, "problem")
    assert list(zip(rows["where"], rows["problem"], strict=True)) == list(shown.rows)
    assert at.session_state[state.CONVERSATION_KEY] is before  # nothing was loaded
