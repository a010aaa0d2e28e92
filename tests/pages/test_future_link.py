"""k, the outcome views' future, rides in the link: a link with k=7 opens every view that uses
it at 7 (the figures the engine's at 7), the default 5 is not written, a k the user sets is
written, and a bad k falls back to the default with a notice, never a traceback."""

import pytest

from compactor import validate
from compactor.analyses.outcomes import continuation_check
from explorer.frames import outcomes as frames
from explorer.session import state
from harness.apptest import assert_clean, goto, metrics, request_of, start, table

SAMPLE = "support-chat"  # 45 messages: room for any k up to 43
PAGES = ("pages/sweeps.py", "pages/compare.py", "pages/strategies.py")


def k_shown(at):
    return at.number_input(key=state.FUTURE_KEY).value


def link_notices(at):
    return [w.value for w in at.warning if w.value.startswith("The link")]


def test_a_link_with_k_opens_every_view_at_that_k():
    at = start({"sample": SAMPLE, "k": "7"})
    assert_clean(at)
    assert not link_notices(at)
    assert k_shown(at) == 7
    check = continuation_check(validate(request_of(at)), future=7)
    assert check.future == 7 and check.recall is not None
    assert metrics(at)["Needed-later recall"] == frames.percent(check.recall)
    assert at.query_params["k"] == "7"
    for page in PAGES:
        at = goto(at, page)
        assert_clean(at)
        assert k_shown(at) == 7, page
        assert at.query_params["k"] == "7", page
    # A/B's figures are the engine's at k=7, not at the default
    at = goto(at, "pages/compare.py")
    shown = table(at, "lift").set_index("side")
    assert shown.loc["A", "recall"] == pytest.approx(check.recall)
    assert shown.loc["A", "needs"] == check.setting.needs
    assert check.setting.needs != continuation_check(validate(request_of(at))).setting.needs


def test_the_default_k_is_not_written_and_a_k_set_is():
    at = start({"sample": SAMPLE})
    assert k_shown(at) == 5 and "k" not in at.query_params
    at.number_input(key=state.FUTURE_KEY).set_value(3).run()
    assert_clean(at)
    assert at.query_params["k"] == "3"
    at = goto(at, "pages/sweeps.py")
    assert k_shown(at) == 3 and at.query_params["k"] == "3"
    at.number_input(key=state.FUTURE_KEY).set_value(5).run()
    assert "k" not in at.query_params
    # the link written reopens the same view
    at.number_input(key=state.FUTURE_KEY).set_value(9).run()
    again = start(dict(at.query_params))
    assert_clean(again)
    assert k_shown(again) == 9 and dict(again.query_params) == dict(at.query_params)


@pytest.mark.parametrize("raw", ["abc", "0", str(10**9), "-1", "<img src=x>"])
def test_a_bad_k_in_the_link_falls_back_to_the_default_with_a_notice(raw):
    at = start({"sample": SAMPLE, "k": raw})
    assert_clean(at)
    assert k_shown(at) == 5
    (notice,) = link_notices(at)
    assert notice.startswith("The link's k is ") and "using the default, 5" in notice
    assert "<img" not in notice
    assert "k" not in at.query_params  # the fallback is the default, so not written
    assert at.query_params["sample"] == SAMPLE
    for page in PAGES:
        at = goto(at, page)
        assert_clean(at)
        assert k_shown(at) == 5, page


def test_a_k_too_long_for_the_conversation_is_capped_there_with_a_notice():
    at = start({"sample": "dispatcher", "k": "7"})  # 6 messages: k at most 4
    assert_clean(at)
    assert k_shown(at) == 4
    (notice,) = link_notices(at)
    assert "k is 7" in notice and "1 to 4" in notice
    assert at.query_params["k"] == "7"  # what was asked, for a longer conversation
    at.selectbox(key=state.SAMPLE_KEY).set_value(SAMPLE).run()
    assert_clean(at)
    assert k_shown(at) == 7
