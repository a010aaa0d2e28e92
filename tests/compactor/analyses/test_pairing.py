"""Tool pairing check: calls and results paired by link or by position, and split pairs flagged."""

import pytest
from hypothesis import given, settings

from compactor import run, validate
from compactor.analyses._pairing import (
    PairingIssue,
    ToolPair,
    check_pairing,
    pair_fix,
    tool_pairs,
)
from tests.generate import requests

HISTORY = [
    ("system", "You look up orders."),
    ("user", "Where is order 77?"),
    ("assistant", "Calling lookup_order(77)."),
    ("tool", '{"order": 77, "status": "shipped", "carrier": "DHL", "eta": "Friday"}'),
    ("user", "And order 78?"),
    ("assistant", "Order 77 ships Friday with DHL. Let me check 78."),
]


def compacted(keep_roles, budget=100, history=HISTORY):
    messages = [{"role": r, "content": c} for r, c in history]
    request = {
        "messages": messages,
        "budget_chars": budget,
        "keep_last_n": 1,
        "keep_roles": keep_roles,
    }
    return run(validate(request))


def test_tool_pairs_by_adjacency():
    roles = ["tool", "user", "assistant", "tool", "tool", "user", "tool", "assistant"]
    pairs, uncalled = tool_pairs(roles)
    assert pairs == [(2, 3, "adjacency"), (2, 4, "adjacency")]
    assert uncalled == [0, 6]  # the history starts with one; a user message comes before 6


def test_links_win_over_position_and_unlinked_results_fall_back_to_it():
    roles = ["user", "assistant", "assistant", "tool", "tool"]
    pairs, uncalled = tool_pairs(roles, links=[(1, 4), (1, 4)])
    assert pairs == [(2, 3, "adjacency"), (1, 4, "link")]
    assert uncalled == []


@pytest.mark.parametrize(
    ("links", "message"),
    [
        ([(0, 9)], r"links\[0\] = \(0, 9\): indices must be 0 to 4 \(the history has 5 messages\)"),
        ([(1, 4), (3, 2)], r"links\[1\] = \(3, 2\): the call must come before its result"),
    ],
)
def test_bad_links_say_which_and_why(links, message):
    with pytest.raises(ValueError, match=message):
        tool_pairs(["user", "assistant", "tool", "tool", "user"], links)


def test_a_kept_result_whose_call_was_dropped():
    result = compacted(["system", "tool"])  # the tool result is protected, its call is not
    assert not result.messages[2].survived and result.messages[3].survived
    report = check_pairing(result)
    assert report.pairs == (ToolPair(2, 3, "adjacency", False, True, "result without call"),)
    assert report.issues == (
        PairingIssue(
            3,
            2,
            "result without call",
            "adjacency",
            "dropped",
            "tool result #3 is kept but its call, assistant message #2, was dropped (paired by "
            "position)",
            "drop",  # the result is kept by its role; not by the window (keep_last_n is 1)
        ),
    )
    assert not report.ok and report.uncalled == ()


def test_a_kept_call_whose_result_was_dropped():
    result = compacted(["system", "assistant"])
    report = check_pairing(result, links=[(2, 3)])
    assert report.issues == (
        PairingIssue(
            2,
            3,
            "call without result",
            "link",
            "dropped",
            "assistant message #2 is kept but the result of its tool call, message #3, was "
            "dropped (linked by tool-call id)",
            "drop",
        ),
    )


def test_nothing_to_flag_when_both_or_neither_survive():
    assert check_pairing(compacted(["system"], budget=400_000)).ok  # everything kept
    dropped_both = check_pairing(compacted(["system"]))
    assert dropped_both.pairs == (ToolPair(2, 3, "adjacency", False, False, None),)
    assert dropped_both.ok


@settings(max_examples=200, deadline=None)
@given(requests())
def test_every_split_pair_is_flagged_and_nothing_else(request):
    result = run(validate(request))
    roles = [m["role"] for m in request["messages"]]
    report = check_pairing(result)
    kept = {t.index for t in result.survivors}
    # Brute force: a tool message's caller is the last message before it that is not a tool
    # message, when that one is an assistant message.
    expected = set()
    for i, role in enumerate(roles):
        callers = [j for j in range(i) if roles[j] != "tool"]
        if role == "tool" and callers and roles[callers[-1]] == "assistant":
            call = callers[-1]
            if (call in kept) != (i in kept):
                expected.add((i, call) if i in kept else (call, i))
    assert {(issue.index, issue.partner) for issue in report.issues} == expected
    for issue in report.issues:
        assert issue.partner_fate == result.messages[issue.partner].fate


def test_links_from_an_import_pair_a_result_with_a_call_that_is_not_adjacent():
    from compactor.formats import convert

    conversion = convert(
        [
            {"role": "user", "content": "Weather in Porto?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": "{}"},
                    }
                ],
            },
            {"role": "assistant", "content": "Let me also check the news."},
            {"role": "tool", "tool_call_id": "call_1", "content": "18 °C, light rain"},
            {"role": "user", "content": "Thanks, that is all I needed to know for today."},
        ]
    )
    assert conversion.tool_links == ((1, 3),)
    request = conversion.request | {"keep_last_n": 0, "keep_roles": ["tool"], "budget_chars": 100}
    result = run(validate(request))
    assert [t.survived for t in result.messages] == [False, False, True, True, True]
    by_position = check_pairing(result)
    assert by_position.pairs == (ToolPair(2, 3, "adjacency", True, True, None),)
    by_link = check_pairing(result, conversion.tool_links)
    assert by_link.pairs == (ToolPair(1, 3, "link", False, True, "result without call"),)
    assert [(i.index, i.partner, i.partner_fate) for i in by_link.issues] == [(3, 1, "dropped")]


# --- each split's cause, and a fix that rejoins it ------------------------------------------

ORDER = "order status shipped carrier DHL eta Friday warehouse Porto hub tracking signature"
SAYING = "I will look this order up for you now. " * 12


def call(k, text=""):
    line = f'[tool call lookup_order id=c{k}] {{"order": "AC-{k}"}}'
    return {"role": "assistant", "content": f"{text}\n\n{line}" if text else line}


def answer(k, content):
    return {"role": "tool", "id": f"c{k}", "content": content}


SYSTEM = {"role": "system", "content": "You look up orders."}
ASK = {"role": "user", "content": "Where are my orders AC-1 and AC-2?"}
THANKS = [
    {"role": "user", "content": "Thanks, and the refund?"},
    {"role": "assistant", "content": "The refund is on its way."},
]
SPLITS = {
    # The second result repeats the first with one more word: dedupe removes it.
    "dedupe": (
        [SYSTEM, ASK, call(1), answer(1, ORDER), call(2), answer(2, ORDER + " confirmed"), *THANKS],
        {"budget_chars": 4_000, "keep_last_n": 2},
        "duplicate_threshold",
    ),
    # The same result twice: no threshold up to 1 keeps it, protecting tool messages does.
    "dedupe, identical": (
        [SYSTEM, ASK, call(1), answer(1, ORDER), call(2), answer(2, ORDER), *THANKS],
        {"budget_chars": 4_000, "keep_last_n": 2},
        "keep_roles",
    ),
    # A long message before the call line: the trim cuts the line away, the result stays.
    "trim": (
        [SYSTEM, ASK, call(1, SAYING), answer(1, "shipped Friday"), *THANKS],
        {"budget_chars": 4_000, "keep_last_n": 2, "keep_roles": ["system", "tool"]}
        | {"max_message_chars": 120},
        "max_message_chars",
    ),
    # The call is pinned, its long result is dropped for the budget.
    "drop": (
        [SYSTEM, ASK, call(1) | {"pin": True}, answer(1, "status: shipped. " * 30), *THANKS],
        {"budget_chars": 300, "keep_last_n": 2},
        "budget_chars",
    ),
    # The result is one of the last two messages; its call, just before them, is dropped.
    "window": (
        [SYSTEM, ASK, call(1, "Checking the order now."), answer(1, "shipped Friday"), THANKS[1]],
        {"budget_chars": 100, "keep_last_n": 2},
        "keep_last_n",
    ),
}


def linked(messages):
    return [(i - 1, i) for i, m in enumerate(messages) if m["role"] == "tool"]


def with_fix(request, fix):
    """The request with the advised change made, as a user would make it."""
    messages = [
        m | {"pin": True} if i in fix.pins else m for i, m in enumerate(request["messages"])
    ]
    params = {k: list(v) if k == "keep_roles" else v for k, v in fix.params.items()}
    return request | params | {"messages": messages}


@pytest.mark.parametrize("case", sorted(SPLITS))
def test_each_split_names_its_cause_and_the_advised_fix_rejoins_it(case):
    messages, params, changed = SPLITS[case]
    request = {"messages": messages, **params}
    links = linked(messages)
    report = check_pairing(run(validate(request)), links)
    assert [issue.cause for issue in report.issues] == [case.split(",")[0]]
    issue = report.issues[0]
    fix = pair_fix(run(validate(request)), issue)
    assert fix is not None and list(fix.params) == [changed] and fix.pins == ()
    assert changed in fix.advice and "budget" not in fix.advice.replace(changed, "")
    # Compacting again with the advised change keeps both halves (the call's line whole).
    fixed = check_pairing(run(validate(with_fix(request, fix))), links)
    pair = next(p for p in fixed.pairs if {p.call, p.result} == {issue.index, issue.partner})
    assert pair.call_kept and pair.result_kept and fixed.ok


def test_a_trimmed_call_whose_line_survives_is_kept():
    messages = [SYSTEM, ASK, call(1), answer(1, "shipped Friday"), *THANKS]
    params = {"budget_chars": 4_000, "max_message_chars": 80, "keep_last_n": 0}
    text = "Short note." + " More." * 20
    messages[2] = {"role": "assistant", "content": call(1)["content"] + "\n\n" + text}
    result = run(validate({"messages": messages, **params}))
    assert result.messages[2].fate == "trimmed"  # the cut is after the call line
    assert check_pairing(result, linked(messages)).ok


def test_when_no_parameter_rejoins_a_pair_the_fix_pins():
    # Fifty pinned messages of 8,000 characters fill the largest budget: drop keeps the result
    # at no budget in range, so the fix pins it.
    messages, params, _ = SPLITS["drop"]
    filler = [{"role": "user", "content": "x" * 8_000, "pin": True}] * 50
    request = {"messages": filler + messages, **params, "budget_chars": 400_000}
    result = run(validate(request))
    issue = check_pairing(result, linked(request["messages"])).issues[0]
    assert issue.cause == "drop"
    fix = pair_fix(result, issue)
    assert fix.params == {} and fix.pins == (issue.partner,)
    assert fix.advice.startswith(f"pin #{issue.partner}")
    assert check_pairing(run(validate(with_fix(request, fix))), linked(messages)).ok
