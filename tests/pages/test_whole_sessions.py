"""Issue 35: a real Claude Code session (hundreds of messages, tool results far over 8,000
characters) loads whole, with no fix asked, and the budget controls reach the agent mode's."""

from compactor.contract import AGENT_MAX_BUDGET_CHARS, LIMITS
from compactor.formats import convert_text
from explorer.conversation import importing
from explorer.session import state
from explorer.session.keys import B_KEYS
from harness.apptest import assert_clean, goto, start
from tests.paths import REAL_COMPACTIONS

#: 226 messages, 425,721 characters, the longest content far over 8,000 characters.
SESSION = REAL_COMPACTIONS / "6a-71b2542fc4-0-full.jsonl"


def test_a_real_session_loads_whole_on_the_overview_with_no_fix_asked():
    data = SESSION.read_bytes()
    read = convert_text(data).request["messages"]
    assert len(read) > LIMITS["max_messages"]
    assert max(len(m["content"]) for m in read) > LIMITS["max_content_chars"]
    at = goto(start(), "pages/conversation.py")
    at.segmented_control(key="input_mode").set_value("Upload").run()
    at.file_uploader(key=importing.UPLOAD_KEY).set_value((SESSION.name, data, "application/json"))
    at.run()
    assert_clean(at)
    conv = at.session_state[state.CONVERSATION_KEY]
    assert list(conv.messages) == read  # every message, every character: no window, no cut
    assert not at.warning and not at.error
    assert any(i.value.startswith(f"Whole: {len(read):,} messages") for i in at.info)
    # the window and the cut are an option, folded away
    assert [e.label for e in at.expander if e.label.startswith("Optional")] == [
        "Optional: load a window of it, or cut its long contents"
    ]
    at = goto(at, "pages/overview.py")
    assert_clean(at)
    box = at.number_input(key=state.PARAM_KEYS["budget_chars"])
    assert box.max == AGENT_MAX_BUDGET_CHARS == 2_000_000
    slider = at.slider(key=state.BUDGET_SLIDER_KEY)
    assert slider.max >= conv.contents_chars > 400_000  # the contract's maximum is 400,000
    box.set_value(1_500_000).run()  # beyond the contract: the whole session is kept
    assert_clean(at)
    assert at.query_params.get("budget_chars") == "1500000"
    # the Output page at that budget: the request goes to the agent endpoint; no setting file
    # (a setting's budget range is the contract's) and the page says so rather than failing
    at = goto(at, "pages/output.py")
    assert_clean(at)
    assert any("/v1/memory-compact/agent" in c.value for c in at.caption)
    # A/B: B's budget box goes as far as the sidebar's
    at = goto(at, "pages/compare.py")
    assert_clean(at)
    assert at.number_input(key=B_KEYS["budget_chars"]).max == 2_000_000


def test_a_link_with_an_agent_budget_is_held_to_a_small_conversations_maximum():
    at = start({"sample": "tour", "budget_chars": "1500000"})
    assert_clean(at)  # the link's budget is read (a whole session's link would hold it) ...
    box = at.number_input(key=state.PARAM_KEYS["budget_chars"])
    assert box.max == 400_000 and box.value == 400_000  # ... and the tour's box stops at 400,000
