"""Loading a conversation as a person does: uploading a .json or .jsonl file, pasting text.

A load shows the file's conversation (the views follow the engine on it); a paste that is not
JSON shows where it breaks (line and column) and keeps the text in the box.
"""

import json
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from compactor.errors import UnreadableJSON
from compactor.input._jsonio import parse_json
from compactor.samples import DEFAULT_SAMPLE, load_sample
from explorer.conversation.importing import TITLES
from explorer.navigation import PAGES
from tests.browser.expected import engine_fates

CONVERSATION = next(spec for spec in PAGES if spec.path == "pages/conversation.py")
OVERVIEW = next(spec for spec in PAGES if spec.path == "pages/overview.py")
MESSAGES = [
    {"role": "system", "content": "You plan deliveries for a bakery. Answer in one line."},
    {"role": "user", "content": "Which van takes the 06:00 run to the market hall?"},
    {"role": "assistant", "content": "Van 2 takes the 06:00 run; van 1 is in for its service."},
    {"role": "user", "content": "Which van takes the 06:00 run to the market hall?"},
    {"role": "assistant", "content": "Still van 2, leaving the bakery at 05:40."},
    {"role": "user", "content": "Good. Load the rye loaves first."},
]
REQUEST = {"messages": MESSAGES, "budget_chars": 200, "keep_last_n": 1, "keep_roles": ["system"]}
FILES = {
    "request.json": json.dumps(REQUEST, indent=2),
    "conversation.jsonl": "\n".join(json.dumps(m) for m in MESSAGES) + "\n",
}


def url_request(visit):
    """The request the app says it shows: the loaded messages with the URL's parameters."""
    query = {k: v[-1] for k, v in parse_qs(urlsplit(visit.page.url).query).items()}
    return {
        "messages": MESSAGES,
        "budget_chars": int(query["budget_chars"]),
        "keep_last_n": int(query["keep_last_n"]),
        "keep_roles": [r for r in query.get("keep_roles", "").split(",") if r],
        "duplicate_threshold": float(query["duplicate_threshold"]),
        "max_message_chars": int(query["max_message_chars"]),
    }


@pytest.mark.slow
@pytest.mark.parametrize("name", list(FILES))
def test_uploading_a_file_loads_its_conversation(visit, name):
    visit.open()
    visit.go(CONVERSATION.title)
    visit.choose_mode("Upload")
    visit.upload_input.set_input_files(
        files=[{"name": name, "mimeType": "application/json", "buffer": FILES[name].encode()}]
    )
    expect(visit.alert("Loaded: Uploaded file")).to_be_visible()
    visit.settle()
    chars = sum(len(m["content"]) for m in MESSAGES)
    expect(visit.sidebar).to_contain_text(f"{len(MESSAGES):,} messages, {chars:,} characters")
    if name.endswith(".json"):  # a request brings its parameters along
        expect(visit.budget_box()).to_have_value(str(REQUEST["budget_chars"]))
    else:  # a bare list, over the sample's untouched parameters, gets its own (issue 26)
        expect(visit.budget_box()).to_have_value(str(max(100, chars // 2 // 100 * 100)))
        expect(visit.main.get_by_text("this one opens with its own")).to_be_visible()
    visit.go(OVERVIEW.title)
    assert visit.fates() == engine_fates(url_request(visit))
    assert not visit.exceptions()


@pytest.mark.slow
def test_pasting_broken_json_shows_where_and_keeps_the_text(visit):
    broken = '{"messages": [\n  {"role": "user", "content": "Where is van 2?",}\n]}'
    with pytest.raises(UnreadableJSON) as error:
        parse_json(broken)
    problem = error.value.problems[0]
    visit.open()
    visit.go(CONVERSATION.title)
    visit.choose_mode("Paste")
    box = visit.paste_box
    box.fill(broken)
    visit.main.get_by_role("button", name="Load pasted conversation").click()
    expect(visit.alert(TITLES["syntax"])).to_be_visible()
    visit.settle()
    problems = visit.table_with(f"line {problem.line}, column {problem.column}")
    expect(visit.cell(problems, problem.message)).to_have_count(1)
    expect(box).to_have_value(broken)
    name = load_sample(DEFAULT_SAMPLE).name  # nothing was loaded
    expect(visit.sidebar.get_by_role("combobox", name="Sample")).to_have_value(name)
    visit.go(OVERVIEW.title)  # and the text is still there after a look at another page
    visit.go(CONVERSATION.title)
    expect(visit.paste_box).to_have_value(broken)
    assert not visit.exceptions()
