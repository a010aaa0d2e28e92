"""Issue 35: pages stay usable on a conversation far over 200 messages. The fate timeline draws
a window of clickable bars under a strip of the whole (the picker keeps every message); the
replay, a compaction per turn, runs when asked."""

import json

from explorer.frames import checks, views
from explorer.replay import replay_cache
from explorer.session import state
from explorer.session.conversation import Conversation, params_from
from explorer.session.keys import PICKER_KEY
from harness.apptest import assert_clean, chart_rows, charts, goto, start

COUNT = 260  # over the timeline's window (200) and the replay's automatic limit (250)


def long_conversation(tag: str = "") -> Conversation:
    """The long conversation (``tag`` in its first message: a conversation no other test
    opened, so nothing of it is kept by the server yet)."""
    roles = ("user", "assistant", "tool", "assistant")
    messages = tuple(
        {"role": roles[i % 4], "content": f"step {i}: checked file_{i % 37}.py and ran test {i}"}
        for i in range(COUNT)
    )
    if tag:
        messages = ({**messages[0], "content": f"{messages[0]['content']} ({tag})"}, *messages[1:])
    return Conversation(messages, params_from({"budget_chars": 4_000}, {}), "Long")


def opened(path, tag: str = ""):
    at = start()
    at.session_state[state.PENDING_KEY] = (long_conversation(tag), None)
    return goto(at.run(), path)


def specs(at):
    return [json.loads(c.proto.spec) for c in at.get("arrow_vega_lite_chart")]


def test_the_timeline_draws_a_window_of_a_long_conversation_and_picks_from_all():
    at = opened("pages/timeline.py")
    assert_clean(at)
    size = views.TIMELINE_WINDOW
    assert any(
        c.value.startswith(f"The whole conversation above ({COUNT} messages")
        and f"#0 to #{size - 1} ({size} of {COUNT} messages)" in c.value
        for c in at.caption
    )
    assert len(at.selectbox(key=PICKER_KEY).options) == COUNT
    at.number_input(key="timeline_window").set_value(COUNT - size).run()
    assert_clean(at)
    assert any(f"#{COUNT - size} to #{COUNT - 1}" in c.value for c in at.caption)


def test_a_long_replay_waits_until_asked(monkeypatch):
    replayed = []  # the loops replayed (the real replays), one entry per replay
    real = replay_cache.replay_loop

    def counted(loop, *args):
        replayed.append(loop)
        return real(loop, *args)

    monkeypatch.setattr(replay_cache, "replay_loop", counted)
    at = opened("pages/replay.py", tag="replayed once")
    assert_clean(at)
    assert any(i.value.startswith(f"This conversation has {COUNT} messages") for i in at.info)
    assert not [d for _, d in charts(at) if any("chars_out" in f for f in d.values())]
    at.button(key="replay_go_button").click().run()
    assert_clean(at)
    assert not any(i.value.startswith("This conversation has") for i in at.info)
    turns = chart_rows(at, "chars_out")  # a turn per message, each compacted
    assert set(turns["turn"]) == set(range(1, COUNT))  # the first message starts the loop
    assert replayed and len(replayed) == len(set(replayed))  # each loop replayed once
    assert not at.get("progress")  # each loop's bar is gone once it is done
    at.run()  # a rerun reads the kept replays
    assert_clean(at)
    assert len(replayed) == len(set(replayed))
    assert set(chart_rows(at, "chars_out")["turn"]) == set(range(1, COUNT))


def test_embedding_a_whole_session_waits_until_asked():
    at = opened("pages/duplicates.py")
    assert_clean(at)
    waiting = [i for i in at.info if i.value.startswith(f"This session has {COUNT} messages")]
    assert len(waiting) == 1
    at.button(key="semantic_go_button").click().run()
    assert_clean(at)
    assert not any(i.value.startswith("This session has") for i in at.info)


def test_split_pairs_are_paged_and_only_the_page_shown_gets_its_fixes_checked():
    messages = [{"role": "user", "content": "start the job"}]
    for i in range(40):
        messages.append({"role": "assistant", "content": f"calling tool {i} for file_{i}.py"})
        messages.append({"role": "tool", "content": f"result {i}: " + "x" * (50 + i * 37 % 400)})
    params = {"budget_chars": 3_000, "keep_last_n": 2, "max_message_chars": 4_000}
    conv = Conversation(tuple(messages), params_from(params, {}), "Tools")
    at = start()
    at.session_state[state.PENDING_KEY] = (conv, None)
    at = goto(at.run(), "pages/pairing.py")
    assert_clean(at)
    split = int(at.metric[2].value)
    assert split > checks.SPLIT_PER_PAGE
    assert any(
        c.value.startswith(f"{split} split pairs, {checks.SPLIT_PER_PAGE} a page")
        for c in at.caption
    )
    at.number_input(key="pairing_split_page").set_value(2).run()
    assert_clean(at)
