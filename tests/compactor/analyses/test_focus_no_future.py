"""focus everywhere a strategy runs, without peeking at the future (issue 38, item 2).

One conversation serves every surface: two pieces of evidence early on (a wedding's city; a
photo filed as QK-7781, whose words "quokka", "Rottnest" and "QK-7781" occur nowhere else
before), a question about the first, garden small talk, then, last, the question about the
second. Wherever the last question is the future, focus must keep the first evidence and not
the second: its words must never be among the focus's terms, and the need the future has of
QK-7781 must stay unmet at a small budget. Each test also runs the control that shows the
leak would be seen: given the future question as its focus, the same strategy keeps the
second evidence.
"""

from __future__ import annotations

from compactor import apply_strategy, shrink, validate
from compactor.analyses import grade
from compactor.analyses.outcomes import find_needs, judge_outcome, past_request
from compactor.analyses.replay._loop import Carried
from compactor.analyses.replay._strategies import Registered, replay_request
from compactor.evaluation import CorpusItem
from compactor.evaluation._strategy_rows import strategy_rows
from compactor.formats import RecordedCompaction
from compactor.strategies import get_strategy

SYSTEM = "You help with family plans."
WEDDING = "The wedding is in Porto, at the old chapel by the river."
QUOKKA = "The quokka photo was filed as QK-7781 on Rottnest."
ASK_WEDDING = "Which city is the wedding in?"
ASK_QUOKKA = "Where was the quokka photo QK-7781 taken?"
FUTURE_WORDS = {"quokka", "rottnest", "qk", "7781"}


def conversation(fillers: int = 6) -> list[dict[str, str]]:
    messages = [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": WEDDING},
        {"role": "assistant", "content": "Noted."},
        {"role": "user", "content": QUOKKA},
        {"role": "assistant", "content": "Filed."},
        {"role": "user", "content": ASK_WEDDING},
        {"role": "assistant", "content": "Porto."},
    ]
    for k in range(fillers):
        messages.append({"role": "user", "content": f"Tulips or roses for bed {k}?"})
        messages.append({"role": "assistant", "content": f"Roses suit bed {k}."})
    messages.append({"role": "user", "content": ASK_QUOKKA})
    messages.append({"role": "assistant", "content": "On Rottnest, QK-7781."})
    return messages


def asked_wedding() -> list[dict[str, str]]:
    """The conversation up to the question about the wedding: the rest is the future."""
    return conversation()[: 1 + [m["content"] for m in conversation()].index(ASK_WEDDING)]


def no_future_word(result) -> None:
    """Nothing focus used or matched holds a word only the future holds."""
    assert not FUTURE_WORDS & set(result.parameters["focus_terms"])
    assert not FUTURE_WORDS & set(result.parameters["focus"].lower().split())


def test_shrink_takes_the_last_user_message_of_the_messages_passed():
    setting = {"strategy": "focus", "budget_chars": 160, "params": {"keep_last_n": 1}}
    shrunk = [m["content"] for m in shrink(asked_wedding(), setting)]
    assert WEDDING in shrunk and QUOKKA not in shrunk
    request = validate({"messages": asked_wedding(), "budget_chars": 160, "keep_last_n": 1})
    no_future_word(apply_strategy("focus", request))
    # the control: asked about the photo, the same call keeps its evidence
    later = [*asked_wedding(), {"role": "user", "content": ASK_QUOKKA}]
    assert QUOKKA in [m["content"] for m in shrink(later, setting)]


def test_replay_gives_each_turn_the_pending_turn_known_then():
    request = validate({"messages": conversation(), "budget_chars": 160, "keep_last_n": 1})
    asked = [m.content for m in request.messages].index(ASK_WEDDING)
    replayed = replay_request(request, "focus")
    held = [{m.origin for m in h} for h in replayed.histories]
    assert 1 in held[asked] and 3 not in held[asked]  # the wedding, not the photo
    future = [m.content for m in request.messages].index(ASK_QUOKKA)
    assert all(3 not in h for h in held[asked:future])
    # the control: the future question as a given focus keeps the photo from the start
    leaky = replay_request(request, "focus", strategy_params={"focus": ASK_QUOKKA})
    assert 3 in {m.origin for m in leaky.histories[asked]}


def test_replay_reads_the_pending_turn_from_the_recording_not_only_the_carried_history():
    # Every earlier user message is gone from what is carried (a tiny budget), yet at each
    # turn focus is given the last user message recorded up to then.
    request = validate({"messages": conversation(), "budget_chars": 100, "keep_last_n": 0})
    registered = Registered("focus", request.params)
    recorded = [Carried(m.role, m.content, origin=i) for i, m in enumerate(request.messages)]
    registered.prepare(recorded)
    asked = [m.content for m in request.messages].index(ASK_WEDDING)
    for t in range(1, len(recorded)):
        carried = (recorded[0], recorded[t])  # only the system message and m_t are carried
        focus = registered._params_now(carried)["focus"]
        last_user = [m.content for m in request.messages[: t + 1] if m.role == "user"][-1]
        assert focus == last_user  # what was known at t, never a later message
    assert registered._params_now((recorded[0], recorded[asked + 1]))["focus"] == ASK_WEDDING


def test_the_continuation_check_draws_the_focus_from_the_past_only():
    request = validate({"messages": conversation(), "budget_chars": 160, "keep_last_n": 1})
    needs = find_needs(request.contents, request.roles)
    past = past_request(request, future=2)  # the photo question and its answer are the future
    result = apply_strategy("focus", past)
    no_future_word(result)
    judged = judge_outcome(needs, result)
    assert judged.needs >= 1 and judged.met == 0  # QK-7781 is needed later, and not kept
    rows = strategy_rows(
        CorpusItem("c", request.to_dict()), get_strategy("focus"), [{}], [160], future=2
    )
    assert (rows[0]["needs"], rows[0]["needs_met"]) == (judged.needs, 0)
    # the control: the future question as a given focus would meet the need
    leaky = apply_strategy("focus", past, params={"focus": ASK_QUOKKA})
    assert judge_outcome(needs, leaky).met == judged.needs


def test_graded_takes_the_last_user_message_before_the_boundary():
    messages = conversation()
    boundary = [m["content"] for m in messages].index(ASK_WEDDING) + 2  # after "Porto."
    request = validate({"messages": messages, "budget_chars": 160, "keep_last_n": 1})
    summary = "The user asked where the wedding is: Porto. " * 3  # 132 characters
    graded = grade(request, [RecordedCompaction(boundary, summary)])
    (compaction,) = graded.compactions
    row = compaction.row("focus")
    assert row.available and row.recall.needs >= 1 and row.recall.met == 0
    # the control: the future question as a given focus keeps the photo's evidence
    past = validate(
        {"messages": messages[:boundary], "budget_chars": len(summary), "keep_last_n": 1},
        limits="agent",
    )
    leaky = apply_strategy("focus", past, params={"focus": ASK_QUOKKA})
    needs = find_needs(request.contents, request.roles)
    assert judge_outcome(needs, leaky).met == row.recall.needs
    honest = apply_strategy("focus", past, params={"focus": ASK_WEDDING})
    assert judge_outcome(needs, honest).met == 0
