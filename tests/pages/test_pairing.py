"""Tool pairs: calls and results paired by the imported tool-call ids (else by position), split
pairs flagged on Overview and Output and listed on their own page, as check_pairing says."""

import json

import pytest

from compactor.analyses._pairing import check_pairing, pair_fix
from compactor.samples import load_samples
from explorer.conversation import importing
from explorer.frames import imports
from explorer.frames.checks import (
    pairing_summary,
    removed_by_import_note,
    split_line,
    uncalled_notes,
)
from explorer.session import state
from explorer.session.conversation import Conversation, params_from
from harness.apptest import assert_clean, engine, goto, metrics, set_param, start, table
from tests.compactor.analyses.test_pairing import SPLITS
from tests.paths import CORPUS

PAGE = "pages/pairing.py"
#: Two calls, then their two results: by position both results would pair with the second call.
OPENAI = [
    {"role": "system", "content": "You look up orders."},
    {"role": "user", "content": "Where are orders 77 and 78?"},
    {
        "role": "assistant",
        "content": "Looking up 77.",
        "tool_calls": [
            {
                "id": "call_77",
                "type": "function",
                "function": {"name": "lookup_order", "arguments": '{"order": 77}'},
            }
        ],
    },
    {
        "role": "assistant",
        "content": "And 78.",
        "tool_calls": [
            {
                "id": "call_78",
                "type": "function",
                "function": {"name": "lookup_order", "arguments": '{"order": 78}'},
            }
        ],
    },
    {"role": "tool", "tool_call_id": "call_77", "content": '{"order": 77, "status": "shipped"}'},
    {"role": "tool", "tool_call_id": "call_78", "content": '{"order": 78, "status": "packed"}'},
    {"role": "assistant", "content": "77 has shipped; 78 is packed."},
]


def pasted():
    """The OpenAI history pasted on the Conversation page, compacted so that both calls go."""
    at = goto(start(), "pages/conversation.py")
    at.segmented_control(key="input_mode").set_value("Paste").run()
    at.text_area(key=importing.PASTE_KEY).set_value(json.dumps(OPENAI))
    at.button[[b.label for b in at.button].index("Load pasted conversation")].click().run()
    set_param(at, "keep_roles", ["system", "tool"])
    set_param(at, "keep_last_n", 0)
    set_param(at, "budget_chars", 100)
    assert_clean(at)
    return at


def warnings(at):
    return [w.value for w in at.warning if "tool call/result pair" in w.value]


def test_an_imported_history_is_paired_by_its_tool_call_ids():
    at = pasted()
    conv = at.session_state[state.CONVERSATION_KEY]
    assert conv.tool_links == ((2, 4), (3, 5))
    report = check_pairing(engine(at), conv.tool_links)
    assert [(p.call, p.result, p.problem) for p in report.pairs] == [
        (2, 4, "result without call"),
        (3, 5, "result without call"),
    ]
    goto(at, PAGE)
    assert_clean(at)
    rows = table(at, "paired_by")
    assert list(
        zip(rows["call"], rows["result"], rows["paired_by"], rows["problem"], strict=True)
    ) == [
        ("#2", "#4", "tool-call id", "result without call"),
        ("#3", "#5", "tool-call id", "result without call"),
    ]
    assert metrics(at)["Paired by tool-call id"] == "2"
    assert metrics(at)["Split by compaction"] == "2"
    explained = [m.value for m in at.markdown if m.value.startswith("- **")]
    result = engine(at)
    assert explained == [split_line(i, pair_fix(result, i)) for i in report.issues]
    assert all("drop removed it for the budget" in line for line in explained)


def test_a_split_by_dedupe_is_advised_a_dedupe_fix_and_the_fix_rejoins_it():
    # The advice for a result dedupe removed was "raise the budget", which cannot rejoin it.
    messages, params, _ = SPLITS["dedupe"]
    request = {"messages": messages, **params}
    conv = Conversation(
        tuple(messages),
        params_from(request, {}),
        "Repeated result",
        source="loaded",
        tool_links=((2, 3), (4, 5)),
    )
    at = start()
    at.session_state[state.PENDING_KEY] = (conv, dict(conv.params))
    at.run()
    goto(at, PAGE)
    assert_clean(at)
    assert metrics(at)["Split by compaction"] == "1"
    explained = [m.value for m in at.markdown if m.value.startswith("- **")]
    (line,) = explained
    # why dedupe does it, where it happens (issue 40: the markup's words dominate the overlap)
    assert line.startswith(
        "- **call without result** (dedupe removed it as a near-duplicate of an earlier message "
        "of its role: tool calls and results share most of their words"
    )
    assert line.endswith(
        "assistant message #4 is kept but the "
        "result of its tool call, message #5, was removed by dedupe as a near-duplicate of #3 "
        "(linked by tool-call id). **Fix:** raise duplicate_threshold to 0.93, above the word "
        "overlap of #5 with the earlier tool messages (at most 0.9231), so dedupe keeps it."
    )
    assert any(p.label == "Export on the Output page" for p in at.get("page_link"))
    at.button(key="pair_fix_4").click().run()  # the advised fix, one click away
    assert_clean(at)
    assert at.session_state[state.PARAM_KEYS["duplicate_threshold"]] == 0.93
    assert metrics(at)["Split by compaction"] == "0"


@pytest.mark.parametrize("path", ["pages/overview.py", "pages/output.py"])
def test_overview_and_output_warn_about_split_pairs_and_link_to_them(path):
    at = goto(pasted(), path)
    assert_clean(at)
    report = check_pairing(engine(at), at.session_state[state.CONVERSATION_KEY].tool_links)
    assert warnings(at) == [pairing_summary(report)]
    set_param(at, "budget_chars", 400_000)  # everything kept: nothing to warn about
    assert_clean(at)
    assert warnings(at) == []


def test_links_that_do_not_fit_the_history_fall_back_to_position_with_a_note():
    at = start()
    messages = tuple({"role": r, "content": c} for r, c in [
        ("system", "You look up orders."),
        ("assistant", "Calling lookup_order(77) to see where the parcel is and when it arrives."),
        ("tool", '{"order": 77, "status": "shipped"}'),
        ("user", "Thanks."),
    ])  # fmt: skip
    request = {"messages": list(messages), "budget_chars": 100, "keep_last_n": 1}
    conv = Conversation(
        messages, params_from(request, {}), "Linked", source="loaded", tool_links=((3, 2),)
    )
    at.session_state[state.PENDING_KEY] = (conv, {**conv.params, "keep_roles": ["tool"]})
    at.run()
    goto(at, PAGE)
    assert_clean(at)
    assert any("do not fit this history" in w.value for w in at.warning)
    rows = table(at, "paired_by")
    assert list(rows["paired_by"]) == ["position"]
    assert list(rows["problem"]) == ["result without call"]


@pytest.mark.parametrize("sample", load_samples(), ids=lambda s: s.slug)
def test_every_sample_lists_its_pairs_as_the_engine_pairs_them(sample):
    at = goto(start({"sample": sample.slug}), PAGE)
    assert_clean(at)
    report = check_pairing(engine(at))
    if not report.pairs:
        assert any("no tool results" in i.value for i in at.info)
        return
    rows = table(at, "paired_by")
    assert list(zip(rows["call"], rows["result"], rows["problem"], strict=True)) == [
        (f"#{p.call}", f"#{p.result}", p.problem or "") for p in report.pairs
    ]
    overview = goto(at, "pages/overview.py")
    assert warnings(overview) == ([] if report.ok else [pairing_summary(report)])


def test_the_calls_whose_empty_results_the_import_removed_are_named_on_the_page():
    text = (CORPUS / "tau_airline_tool_heavy.json").read_text(encoding="utf-8")
    at = goto(start(), "pages/conversation.py")
    at.segmented_control(key="input_mode").set_value("Paste").run()
    at.text_area(key=importing.PASTE_KEY).set_value(text)
    at.button[[b.label for b in at.button].index("Load pasted conversation")].click().run()
    at = goto(at, PAGE)
    assert_clean(at)
    conversation = at.session_state[state.CONVERSATION_KEY]
    report = check_pairing(engine(at), conversation.tool_links, conversation.removed_results)
    note = [c.value for c in at.caption if c.value.startswith("The import removed")]
    assert note == [removed_by_import_note(report)]
    assert "#10 and #23" in note[0]


def test_results_whose_calls_the_window_left_out_are_said_to_be_so_and_not_uncalled():
    # 207 messages (a window is offered over 200); it keeps the two results and the answer
    # after them (#204 to #206), without the two calls before them.
    filler = [
        {"role": ("user", "assistant")[i % 2], "content": f"Still looking, step {i}."}
        for i in range(200)
    ]
    attempt = imports.read(json.dumps([*OPENAI[:2], *filler, *OPENAI[2:]]))
    window = imports.Window(start=204)
    fallback = params_from({"budget_chars": 2000}, {})
    step = importing.decide(attempt, "pasted", fallback, window=window)
    conversation = step.conversation
    assert conversation.window_orphans == (0, 1)
    at = start()
    at.session_state[state.PENDING_KEY] = (conversation, None)
    at = goto(at.run(), PAGE)
    assert_clean(at)
    report = check_pairing(engine(at), conversation.tool_links, conversation.removed_results)
    assert report.uncalled == (0, 1)
    captions = [c.value for c in at.caption if c.value.startswith("Tool message")]
    assert captions == uncalled_notes(report, (0, 1))
    assert captions[0].startswith("Tool messages whose call is in a message the import's window")
    assert captions[0].endswith(": #0 and #1.")


def test_a_split_pair_offers_recommend_with_never_split_ticked():
    from explorer.recommend.widgets import PAIRS_KEY

    messages, params, _ = SPLITS["dedupe"]
    request = {"messages": messages, **params}
    conv = Conversation(
        tuple(messages), params_from(request, {}), "Split", "loaded", tool_links=((2, 3), (4, 5))
    )
    at = start()
    at.session_state[state.PENDING_KEY] = (conv, dict(conv.params))
    at.run()
    goto(at, PAGE)
    at.button(key="pairing_recommend").click().run()
    assert_clean(at)
    assert at.checkbox(key=PAIRS_KEY).value is True  # the constraint, one click away
    assert at.title[0].value == "Recommend"
