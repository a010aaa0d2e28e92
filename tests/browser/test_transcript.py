"""The Transcript in the browser with hostile contents (issue 26, item 16): a message kept, cut or
removed shows its own characters and nothing else; <script>, <img onerror>, Markdown images and
links run nothing, load nothing and link nowhere, in the struck-through and greyed text too."""

from playwright.sync_api import expect

from compactor import Fate, compact, run, validate
from tests.browser.test_hostile import CONTENT_URL, assert_nothing_rendered, hostile, paste

TITLE = "Transcript"


def test_hostile_contents_show_literally_kept_cut_and_removed(visit):
    request = hostile()
    result = run(validate(request))
    assert {t.fate for t in result.messages} >= {Fate.TRIMMED, Fate.DUPLICATE, Fate.DROPPED}
    visit.open()
    paste(visit, request)
    visit.go(TITLE)
    assert_nothing_rendered(visit, TITLE)
    chats = visit.main.get_by_test_id("stChatMessage")
    expect(chats).to_have_count(len(result.messages))
    for number, trace in enumerate(result.messages):
        chat, content = chats.nth(number), trace.message.content
        if not trace.survived:  # greyed, every character as text
            greyed = chat.get_by_test_id("stHtml").locator("span[style*='opacity']")
            expect(greyed).to_have_text(content)
            assert float(greyed.evaluate("e => getComputedStyle(e).opacity")) < 1
        elif trace.fate is Fate.TRIMMED:  # the cut-off text struck through, after the kept text
            struck = chat.get_by_test_id("stHtml").locator("span[style*='line-through']")
            expect(struck).to_have_text(content[trace.cut.chars :])
            line = struck.evaluate("e => getComputedStyle(e).textDecorationLine")
            assert line == "line-through"
            expect(chat.get_by_test_id("stHtml")).to_contain_text(trace.output)
        else:
            expect(chat.get_by_test_id("stText")).to_have_text(content)

    visit.choose_mode("What the model sees")
    visit.settle()
    sent = compact(request)["messages"]
    expect(chats).to_have_count(len(sent))
    expect(chats.get_by_test_id("stText")).to_have_text([m["content"] for m in sent])
    assert_nothing_rendered(visit, f"{TITLE}, what the model sees")

    assert visit.dialogs == [], visit.dialogs
    assert [url for url in visit.requests if CONTENT_URL.search(url)] == []
    assert visit.foreign == [] and visit.errors == []
