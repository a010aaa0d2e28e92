"""Replay, checked against the loop written plainly: one compact() (or trim, keep-last) a turn."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compactor import compact, validate
from compactor.analyses.replay._loop import (
    ALWAYS,
    OVER_BUDGET,
    Carried,
    Fact,
    Shrunk,
    facts_from_phrases,
    replay,
)
from compactor.analyses.replay._strategies import (
    ContextTrim,
    KeepLast,
    MemoryCompact,
    SeedLoop,
    replay_request,
)
from compactor.formats import apply_fixes, convert_text
from compactor.samples import load_samples
from compactor.strategies._context_trim import trim_context
from compactor.strategies._keep_last import keep_last
from compactor.text._incremental import IncrementalAnalysis
from tests.generate import VOCABULARY, requests
from tests.paths import CORPUS

PHRASES = ["DE-4471", "order", "Lyon", "会议", "refund 4471", "the"]


# --- the plain loop ----------------------------------------------------------------------


def compacted(request, history):
    """One call of the contract entry point on X_t; the output as (message dict, origin)."""
    params = {k: v for k, v in request.items() if k != "messages"}
    response = compact({"messages": [m for m, _ in history], **params})
    out = []
    for returned in response["messages"]:
        sent, origin = history[returned["index"]]
        out.append(({**sent, "content": returned["content"]}, origin))
    return out


def plain_loop(request, shrink, policy, facts):
    """SPEC part C "Replay", line by line; ``shrink`` maps X_t (as (dict, origin)) to H."""
    recorded = [({k: v for k, v in m.items()}, i) for i, m in enumerate(request["messages"])]
    history = recorded[:1]
    turns = []
    for t in range(1, len(recorded)):
        sent = history + [recorded[t]]
        chars_in = sum(len(m["content"]) for m, _ in sent)
        ran = policy == ALWAYS or chars_in > request["budget_chars"]
        new = shrink(request, sent) if ran else sent
        stable = 0
        while (
            stable < min(len(history), len(new))
            and history[stable][0]["role"] == new[stable][0]["role"]
            and history[stable][0]["content"] == new[stable][0]["content"]
        ):
            stable += 1
        lost = []
        for text, occurrences in facts:
            seen = [o for o in occurrences if o[0] <= t]
            kept = [
                o
                for o in seen
                if any(origin == o[0] and len(m["content"]) >= o[2] for m, origin in new)
            ]
            if seen and not kept:
                lost.append(text)
        turns.append(
            {
                "turn": t,
                "messages_in": len(sent),
                "chars_in": chars_in,
                "messages_out": len(new),
                "chars_out": sum(len(m["content"]) for m, _ in new),
                "compacted": ran,
                "stable_prefix_messages": stable,
                "stable_prefix_chars": sum(len(m["content"]) for m, _ in new[:stable]),
                "anchors_lost": len(lost),
                "lost": lost,
            }
        )
        history = new
    # messages as a request carries them: pin only when true
    final = [{k: v for k, v in m.items() if k != "pin" or v is True} for m, _ in history]
    return turns, final


def as_plain(result):
    turns = [{**t.to_dict(), "lost": list(t.lost)} for t in result.turns]
    return turns, [m.to_dict() for m in result.final]


def phrase_facts(request):
    typed = validate(request)
    return [(f.text, f.occurrences) for f in facts_from_phrases(typed.messages, PHRASES)]


# --- memory-compact ----------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(requests(), st.sampled_from([ALWAYS, OVER_BUDGET]))
def test_a_memory_compact_replay_equals_compact_on_every_turn(request, policy):
    facts = phrase_facts(request)
    result = replay_request(validate(request), "memory-compact", policy=policy, facts=facts)
    assert as_plain(result) == plain_loop(request, compacted, policy, facts)


def recorded_conversations():
    """The samples (the largest cut to 40 messages, to keep the plain loop quick) and the
    corpus of real conversations, imported as requests."""
    found = []
    for sample in load_samples():
        request = sample.request
        if sample.slug == "largest":
            request = {**request, "messages": request["messages"][:40]}
        found.append(pytest.param(request, id=sample.slug))
    for path in sorted(CORPUS.glob("*.json")):
        request = apply_fixes(convert_text(path.read_bytes())).request
        found.append(pytest.param(request, id=path.stem))
    return found


@pytest.mark.parametrize("request_", recorded_conversations())
@pytest.mark.parametrize("policy", [ALWAYS, OVER_BUDGET])
def test_replays_of_real_conversations_equal_the_plain_loop(request_, policy):
    facts = phrase_facts(request_)
    result = replay_request(validate(request_), "memory-compact", policy=policy, facts=facts)
    assert as_plain(result) == plain_loop(request_, compacted, policy, facts)
    assert len(result.histories) == len(request_["messages"])


def test_over_budget_compacts_only_when_the_history_is_over_budget():
    messages = [{"role": "user", "content": f"message {i} " + "x" * 40} for i in range(6)]
    request = {"messages": messages, "budget_chars": 150, "keep_last_n": 1}
    result = replay_request(validate(request), "memory-compact", policy=OVER_BUDGET)
    assert [t.compacted for t in result.turns] == [t.chars_in > 150 for t in result.turns]
    assert [t.compacted for t in result.turns][:3] == [False, False, True]  # 100, 150, 200
    assert all(t.chars_out <= 150 or not t.compacted for t in result.turns)


def test_the_stable_prefix_is_what_the_previous_turn_sent_too():
    request = load_samples()[0].request
    result = replay_request(validate(request), "memory-compact")
    before = result.histories[0]
    for turn, after in zip(result.turns, result.histories[1:], strict=True):
        k = turn.stable_prefix_messages
        assert [(m.role, m.content) for m in after[:k]] == [(m.role, m.content) for m in before[:k]]
        if k < min(len(before), len(after)):
            assert (after[k].role, after[k].content) != (before[k].role, before[k].content)
        before = after


def test_carried_messages_keep_their_id_pin_and_origin():
    request = {
        "messages": [
            {"role": "system", "content": "Be brief.", "id": "s"},
            {"role": "user", "content": "Where is DE-4471? " * 20, "id": "q", "pin": True},
            {"role": "assistant", "content": "It left Lyon. " * 30},
            {"role": "user", "content": "Thanks."},
        ],
        "budget_chars": 400,
        "keep_last_n": 1,
        "max_message_chars": 100,
    }
    final = replay_request(validate(request), "memory-compact").final
    assert [(m.id, m.pin, m.origin) for m in final] == [
        ("s", False, 0),
        ("q", True, 1),
        (None, False, 3),
    ]
    for m in final:
        assert request["messages"][m.origin]["content"].startswith(m.content)


# --- facts ---------------------------------------------------------------------------------


def test_a_fact_is_lost_once_no_occurrence_is_whole_and_found_again_when_repeated():
    messages = [
        {"role": "user", "content": "My order is DE-4471, " + "please check it. " * 10},
        {"role": "assistant", "content": "Looking. " * 30},
        {"role": "user", "content": "Any news?"},
        {"role": "user", "content": "It was DE-4471."},
    ]
    request = {"messages": messages, "budget_chars": 120, "keep_last_n": 1}
    typed = validate(request)
    facts = facts_from_phrases(typed.messages, ["DE-4471", "never said"])
    assert facts[0] == Fact("DE-4471", ((0, 12, 19), (3, 7, 14)))
    assert facts[1].occurrences == ()  # never in the conversation: never lost
    result = replay_request(typed, "memory-compact", facts=facts)
    lost = [t.lost for t in result.turns]
    assert lost[-1] == ()  # message 3 says it again and is kept
    assert ("DE-4471",) in lost[:-1]


def test_facts_may_be_pairs_or_anything_with_text_and_occurrences():
    class Anchor:
        text, occurrences, kind = "Lyon", [(1, 0, 4)], "place"

    messages = [Carried("user", "Hi"), Carried("user", "Lyon is far"), Carried("user", "Ok")]
    typed = validate({"messages": [m.to_dict() for m in messages], "budget_chars": 100})
    for facts in ([("Lyon", [(1, 0, 4)])], [Anchor()], [Fact("Lyon", ((1, 0, 4),))]):
        result = replay(typed.messages, KeepLast(100), facts=facts)
        assert [t.lost for t in result.turns] == [(), ()]
        result = replay(typed.messages, KeepLast(12), facts=facts)  # then only "Ok" fits
        assert [t.lost for t in result.turns] == [(), ("Lyon",)]


# --- the other strategies ------------------------------------------------------------------


def kept_last(request, history):
    kept = keep_last([m["content"] for m, _ in history], request["budget_chars"])
    return [history[i] for i in kept]


def trimmed(options):
    def shrink(request, history):
        out = trim_context({"messages": [m for m, _ in history], **options})["messages"]
        # the plain loop matches the kept messages back in order: they are whole
        remaining = list(history)
        matched = []
        for m in out:
            while remaining[0][0] != m:
                remaining.pop(0)
            matched.append(remaining.pop(0))
        return matched

    return shrink


@settings(max_examples=100, deadline=None)
@given(requests(), st.sampled_from([ALWAYS, OVER_BUDGET]))
def test_keep_last_replay_equals_the_plain_loop(request, policy):
    facts = phrase_facts(request)
    result = replay_request(validate(request), "keep-last", policy=policy, facts=facts)
    assert as_plain(result) == plain_loop(request, kept_last, policy, facts)


trim_options = st.fixed_dictionaries(
    {},
    optional={
        "keepLastMessages": st.integers(0, 6),
        "dropToolParts": st.booleans(),
        "maxTokensEstimate": st.integers(1, 400),
    },
)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(requests(), st.sampled_from([ALWAYS, OVER_BUDGET]), trim_options)
def test_trim_replay_equals_the_plain_loop(request, policy, options):
    facts = phrase_facts(request)
    strategy = ContextTrim(
        options.get("keepLastMessages"),
        options.get("dropToolParts", False),
        options.get("maxTokensEstimate"),
    )
    result = replay(
        validate(request).messages,
        strategy,
        policy=policy,
        budget_chars=request["budget_chars"],
        facts=facts,
    )
    assert as_plain(result) == plain_loop(request, trimmed(options), policy, facts)


# --- the seeds/003 loop around a compact strategy --------------------------------------------


class Summarise:
    """A stand-in for an LLM compact: one summary message, then the last two unchanged."""

    name = "summarise"

    def __init__(self, fail=False):
        self.fail = fail
        self.calls = 0

    def __call__(self, history):
        self.calls += 1
        if self.fail:
            raise RuntimeError("provider unavailable")
        older = history[:-2]
        summary = Carried("user", "Summary: " + " / ".join(m.content[:10] for m in older))
        return [summary, *history[-2:]]


def chat(n):
    messages = [
        {"role": "user", "content": f"{VOCABULARY[i % 5]} message {i}. " * 8} for i in range(n)
    ]
    return validate({"messages": messages, "budget_chars": 100})


def test_the_seed_loop_sends_the_history_unchanged_under_the_token_limit():
    summarise = Summarise()
    result = replay(chat(6).messages, SeedLoop(summarise, token_limit=10_000))
    assert summarise.calls == 0
    assert [t.compacted for t in result.turns] == [False] * 5
    assert [t.messages_out for t in result.turns] == [2, 3, 4, 5, 6]


def test_the_seed_loop_compacts_over_the_limit_and_a_summary_keeps_no_fact():
    typed = chat(8)
    summarise = Summarise()
    facts = [("message 0", [(0, 7, 16)])]
    result = replay(typed.messages, SeedLoop(summarise, token_limit=150), facts=facts)
    over = [t for t in result.turns if t.compacted]
    assert over and summarise.calls == len(over)
    assert all(t.messages_out == 3 for t in over)
    assert result.final[0].origin is None and result.final[0].content.startswith("Summary: ")
    # message 0 lives on only inside the summary, which is new text: the fact counts as lost
    assert result.turns[-1].lost == ("message 0",)
    assert result.strategy == "seed-loop(summarise)"


def test_the_seed_loop_falls_back_to_the_last_ten_messages_when_compact_fails():
    result = replay(chat(14).messages, SeedLoop(Summarise(fail=True), token_limit=150))
    assert result.turns[-1].messages_out == 10
    assert [m.origin for m in result.final] == list(range(4, 14))


def test_a_strategy_may_say_it_did_not_compact():
    def unchanged(history):
        return Shrunk(tuple(history), compacted=False)

    result = replay(chat(3).messages, unchanged)
    assert [t.compacted for t in result.turns] == [False, False]
    assert result.strategy == "custom"


def test_policies_and_budgets_are_checked():
    with pytest.raises(ValueError, match="policy must be one of always, over-budget"):
        replay(chat(3).messages, KeepLast(100), policy="sometimes")
    with pytest.raises(ValueError, match="needs budget_chars"):
        replay(chat(3).messages, KeepLast(100), policy=OVER_BUDGET)


def test_memory_compact_strategy_can_be_used_directly():
    typed = chat(5)
    result = replay(typed.messages, MemoryCompact(typed.params), budget_chars=100)
    assert as_plain(result)[0] == as_plain(replay_request(typed, "memory-compact"))[0]


@settings(max_examples=50, deadline=None)
@given(requests(min_size=3), st.integers(100, 2000), st.sampled_from([ALWAYS, OVER_BUDGET]))
def test_one_analysis_serves_replays_with_other_parameters(request, budget, policy):
    shared = IncrementalAnalysis()
    for params in (request, {**request, "budget_chars": budget, "keep_last_n": 1}):
        typed = validate(params)
        alone = replay(typed.messages, MemoryCompact(typed.params), policy=policy,
                       budget_chars=typed.params.budget_chars)  # fmt: skip
        again = replay(typed.messages, MemoryCompact(typed.params, shared), policy=policy,
                       budget_chars=typed.params.budget_chars)  # fmt: skip
        assert as_plain(again) == as_plain(alone)


def test_a_turn_left_with_one_message_scores_it_as_the_newest():
    """Three equal system messages, nothing protected: after a turn drops everything, the next
    turn's history is one message (the score's recency was index / 0)."""
    system = {"role": "system", "content": "You answer in English. " * 7}  # 161 characters
    request = {"messages": [system] * 3, "budget_chars": 100, "keep_last_n": 0, "keep_roles": []}
    result = replay_request(validate(request), "memory-compact")
    assert [t.messages_in for t in result.turns] == [2, 1]  # turn 2: nothing was carried
    assert all(t.chars_out <= 100 for t in result.turns)
