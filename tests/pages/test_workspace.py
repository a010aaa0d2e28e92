"""The pages with the workspace's SQLite file in bad state (AppTest runs, real files): a damaged
row, a damaged file, a read-only folder and a lock held by another process never take the
picker, the parameter form or the link away; each is said on the page; a conversation the
workspace could not keep is said to be so, with its download; and no page run reads a stored
conversation it does not show."""

import json
import sqlite3
import time

import pytest

from compactor.samples import DEFAULT_SAMPLE
from explorer.conversation import importing
from explorer.session import database, state, workspace
from harness.apptest import assert_clean, goto, params, set_param, start
from tests.explorer import faults

KEPT = "Kept in this server's workspace"
NOT_KEPT = "Not kept"
SLACK = 1.0  # beyond the half second: starting connections on a loaded machine


@pytest.fixture
def data(tmp_path, monkeypatch):
    """A workspace folder of this test's own, no lock waited for recently."""
    monkeypatch.setenv(database.DATA_ENV, str(tmp_path / "data"))
    monkeypatch.setattr(database, "_quiet_until", 0.0)
    return tmp_path / "data"


def working(at, key=None):
    """The page ran cleanly with its picker and parameter form, and its link names ``key``."""
    assert_clean(at)
    at.selectbox(key=state.SAMPLE_KEY)
    at.number_input(key=state.PARAM_KEYS["budget_chars"])
    query = {k: v[-1] if isinstance(v, list) else v for k, v in at.query_params.items()}
    assert query.get("c") == key
    if key is None:
        assert query["sample"] == DEFAULT_SAMPLE


def warnings(at):
    return [w.value for w in at.warning]


def conversation(at):
    return at.session_state[state.CONVERSATION_KEY]


def paste(at, conv):
    at = goto(at, "pages/conversation.py")
    at.segmented_control(key="input_mode").set_value("Paste").run()
    at.text_area(key=importing.PASTE_KEY).set_value(json.dumps({"messages": list(conv.messages)}))
    at.button[[b.label for b in at.button].index("Load pasted conversation")].click()
    return at.run()


def test_a_damaged_row_is_named_and_every_page_keeps_working(data):
    good, bad = faults.conversation(1), faults.conversation(2)
    assert workspace.save(good) and workspace.save(bad)
    faults.set_body(data / database.DATABASE, bad.key, "{not json")
    at = start({"c": good.key})
    working(at, good.key)
    assert conversation(at).key == good.key
    at.selectbox(key=state.SAMPLE_KEY).set_value(f"{state.CHOICE_PREFIX}{bad.key}").run()
    working(at, good.key)  # still the good one, and its link
    assert conversation(at).key == good.key
    (notice,) = [w for w in warnings(at) if bad.key in w]
    assert '"Pasted conversation 2"' in notice and "skipped" in notice
    for page in ("pages/scores.py", "pages/output.py", "pages/conversation.py"):
        working(goto(at, page), good.key)
    again = start({"c": bad.key})  # a link to the damaged one: said, and the default shown
    working(again)
    assert any(bad.key in w and "could not be read" in w for w in warnings(again))


@pytest.mark.parametrize("damage", ["not a database", "cut in half"])
def test_a_damaged_file_is_moved_aside_named_and_a_paste_kept_in_a_new_one(data, damage):
    for n in range(20):
        assert workspace.save(faults.conversation(n, chars=5000))
    path = data / database.DATABASE
    if damage == "not a database":
        path.write_bytes(b"\x00garbage" * 10_000)
    else:
        faults.truncate_to_half(path)
    at = start()
    working(at)
    (aside,) = data.glob(f"{database.DATABASE}.damaged-*")
    assert any(f"moved aside to `{aside}`" in w for w in warnings(at))
    pasted = faults.conversation(99)
    at = paste(at, pasted)
    working(at, conversation(at).key)
    assert any(KEPT in c.value for c in at.caption)
    assert workspace.get(conversation(at).key).messages == pasted.messages


def test_a_read_only_folder_opens_what_it_holds_and_a_new_paste_says_it_is_not_kept(data):
    stored = faults.conversation(1)
    assert workspace.save(stored)
    with faults.read_only(data):
        at = start({"c": stored.key})
        working(at, stored.key)
        assert conversation(at).key == stored.key
        assert any(KEPT in c.value for c in at.caption)
        at = paste(at, faults.conversation(2))
        pasted = conversation(at)
        working(at, pasted.key)
        assert not any(KEPT in c.value for c in at.caption)
        assert any(NOT_KEPT in w and "Download it" in w for w in warnings(at))
        assert any("cannot be written (read-only)" in w for w in warnings(at))
        (download,) = [b for b in at.download_button if b.label == "Download this conversation"]
        assert download.proto.url  # the conversation's request, served for the download
        assert workspace.get(pasted.key) is None


def test_a_lock_held_by_another_process_costs_a_page_run_at_most_half_a_second(data, monkeypatch):
    stored = faults.conversation(1)
    assert workspace.save(stored)
    waits = []
    real = database.run

    def timed(*args, **kwargs):
        started = time.monotonic()
        try:
            return real(*args, **kwargs)
        finally:
            waits.append(time.monotonic() - started)

    monkeypatch.setattr(database, "run", timed)
    with faults.locked(data / database.DATABASE):
        at = start({"c": stored.key})
        assert len(waits) >= 2 and sum(waits) < database.BUSY_SECONDS + SLACK
        working(at)  # the default sample, since the conversation could not be read
        assert any("locked by another program" in w for w in warnings(at))
        assert any(stored.key in w and "could not be read" in w for w in warnings(at))
        waits.clear()
        at = goto(at, "pages/scores.py")
        working(at)
        assert waits and sum(waits) < SLACK  # no waiting at all in the quiet period
    monkeypatch.setattr(database, "_quiet_until", 0.0)  # the lock gone, the quiet over
    working(start({"c": stored.key}), stored.key)


def test_no_page_run_reads_a_stored_conversation_it_does_not_show(data, monkeypatch):
    stored = [faults.conversation(n, chars=100_000) for n in range(20)]
    for conv in stored:
        assert workspace.save(conv)
    statements = []
    connect = database._connect

    def traced(*args, **kwargs):
        db = connect(*args, **kwargs)
        db.set_trace_callback(statements.append)
        return db

    def reading_bodies():
        return [s for s in statements if s.lstrip().startswith("select") and "body" in s]

    monkeypatch.setattr(database, "_connect", traced)
    at = start({"c": stored[5].key})
    working(at, stored[5].key)
    (read,) = reading_bodies()
    assert read.endswith(f"where key = '{stored[5].key}'")  # the one shown, by its key
    for page in ("pages/overview.py", "pages/scores.py", "pages/conversation.py"):
        statements.clear()
        working(goto(at, page), stored[5].key)
        assert statements and reading_bodies() == []
    with sqlite3.connect(data / database.DATABASE) as db:  # the workspace lists all 20
        assert db.execute("select count(*) from conversation_entries").fetchone() == (20,)


def test_parameters_belong_to_the_conversation_they_were_set_on(data):
    mine = faults.conversation(3, 2000)
    assert workspace.save(mine)
    at = start({"c": mine.key})
    at = set_param(set_param(at, "budget_chars", 700), "max_message_chars", 4000)
    at.selectbox(key=state.SAMPLE_KEY).set_value(DEFAULT_SAMPLE).run()  # another conversation
    assert_clean(at)
    assert params(at)["budget_chars"] != 700
    at.selectbox(key=state.SAMPLE_KEY).set_value(f"{state.CHOICE_PREFIX}{mine.key}").run()
    working(at, mine.key)
    chosen = params(at)
    assert (chosen["budget_chars"], chosen["max_message_chars"]) == (700, 4000)  # as left
    at.button(key="reset_params").click().run()  # and Reset still gives the file's own
    assert params(at)["budget_chars"] == mine.params["budget_chars"]


def test_a_budget_over_the_whole_conversation_is_said_to_drop_nothing(data):
    mine = faults.conversation(4)
    assert workspace.save(mine)
    at = start({"c": mine.key})
    at = set_param(at, "budget_chars", mine.contents_chars + 100)
    assert_clean(at)
    said = [c.value.replace("\\", "") for c in at.sidebar.caption]
    assert any(c.startswith("The whole conversation fits") and "nothing is dropped" in c
               for c in said)  # fmt: skip
