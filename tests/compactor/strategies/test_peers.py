"""The peers' strategies against their documented behaviour, and the registry's validation."""

import math

import pytest

from compactor import validate
from compactor.formats._calls import CALL_LINE as EXPORT_CALL_LINE
from compactor.strategies import _registry as registry
from compactor.strategies._context_editing import (
    ANTHROPIC_PLACEHOLDER,
    anthropic_clear,
    langchain_clear,
)
from compactor.strategies._observation_masking import mask_observations
from compactor.strategies._openai_truncation import truncate_auto
from compactor.strategies._prune_messages import prune_messages
from compactor.strategies._returned import REPLACED, VERBATIM
from compactor.strategies._spec import StrategyParameterError
from compactor.strategies._tool_uses import CALL_LINE


def agent(n_tools=3, names=None, size=400):
    """user, then per tool use: an assistant call line and a tool result of ``size`` chars."""
    roles, contents, ids = ["user"], ["fix the bug"], [None]
    for k in range(n_tools):
        name = (names or ["read"] * n_tools)[k]
        roles += ["assistant", "tool"]
        contents += [f'Looking.\n\n[tool call {name} id=c{k}] {{"k": {k}}}', f"{k}" * size]
        ids += [None, f"c{k}"]
    return roles, contents, ids


def request_of(roles, contents, ids, budget=1000):
    messages = [
        {"role": r, "content": c} | ({"id": i} if i else {})
        for r, c, i in zip(roles, contents, ids, strict=True)
    ]
    return validate({"messages": messages, "budget_chars": budget})


def test_the_call_line_is_the_exports():
    assert CALL_LINE.pattern == EXPORT_CALL_LINE.pattern


# --- Anthropic clear_tool_uses_20250919 ------------------------------------------------------


def test_anthropic_below_the_trigger_changes_nothing():
    roles, contents, ids = agent()
    assert anthropic_clear(roles, contents, ids) == dict(enumerate(contents))  # 100k default


def test_anthropic_keeps_the_last_keep_tool_uses_and_clears_the_older():
    roles, contents, ids = agent(4)
    out = anthropic_clear(roles, contents, ids, trigger=10, keep=3)
    assert out[2] == ANTHROPIC_PLACEHOLDER
    assert [out[i] for i in (4, 6, 8)] == [contents[i] for i in (4, 6, 8)]
    assert out[1] == contents[1]  # the call stays (clear_tool_inputs is false)


def test_anthropic_clear_tool_inputs_empties_the_call():
    roles, contents, ids = agent(2)
    out = anthropic_clear(roles, contents, ids, trigger=10, keep=1, clear_tool_inputs=True)
    assert out[1] == "Looking.\n\n[tool call read id=c0] {}"
    assert out[3] == contents[3]


def test_anthropic_excluded_tools_are_never_cleared():
    roles, contents, ids = agent(3, names=["memory", "read", "read"])
    out = anthropic_clear(roles, contents, ids, trigger=10, keep=0, exclude_tools=["memory"])
    assert out[2] == contents[2]
    assert out[4] == out[6] == ANTHROPIC_PLACEHOLDER


def test_anthropic_keep_larger_than_the_tool_uses_clears_nothing():
    roles, contents, ids = agent(2)
    assert anthropic_clear(roles, contents, ids, trigger=1, keep=5) == dict(enumerate(contents))


def test_anthropic_not_applied_when_it_cannot_clear_at_least():
    roles, contents, ids = agent(2, size=40)
    kwargs = dict(trigger=1, keep=1)
    assert anthropic_clear(roles, contents, ids, clear_at_least=10_000, **kwargs) == dict(
        enumerate(contents)
    )
    assert anthropic_clear(roles, contents, ids, clear_at_least=1, **kwargs)[2] != contents[2]


def test_no_tool_calls_and_every_message_a_tool_result():
    roles, contents = ["user", "assistant"], ["a" * 500, "b" * 500]
    for name in registry.names():
        if name in {"langchain-trim", "semantic-dedupe"}:
            continue
        outcome = registry.apply(name, request_of(roles, contents, [None, None]), budget_chars=600)
        assert outcome.replaced_messages in (0, None)
    tools = request_of(["tool"] * 3, ["x" * 300] * 3, ["a", "b", "c"], 600)
    out = registry.apply("anthropic-clear-tool-uses", tools, budget_chars=600, params={"keep": 1})
    assert [m.kept for m in out.messages] == [REPLACED, REPLACED, VERBATIM]


def test_the_placeholder_counts_in_the_characters():
    roles, contents, ids = agent(2, size=3)  # a result shorter than the placeholder
    outcome = registry.apply(
        "anthropic-clear-tool-uses",
        request_of(roles, contents, ids),
        budget_chars=1000,
        params={"trigger": 1, "keep": 1},
    )
    cleared = outcome.messages[2]
    assert cleared.kept == REPLACED and cleared.chars == len(ANTHROPIC_PLACEHOLDER)
    assert outcome.output_chars == sum(len(c) for c in contents) - 3 + len(ANTHROPIC_PLACEHOLDER)
    assert outcome.returned()[2] == {"role": "tool", "content": ANTHROPIC_PLACEHOLDER, "id": "c0"}


def test_the_budget_sets_the_trigger_when_none_is_given():
    roles, contents, ids = agent(3)
    total = sum(len(c) for c in contents)
    request = request_of(roles, contents, ids)
    above = registry.apply("anthropic-clear-tool-uses", request, budget_chars=total + 100)
    assert above.parameters["trigger"] == math.ceil((total + 100) / 4)
    assert above.replaced_messages == 0 and above.budget_met
    below = registry.apply(
        "anthropic-clear-tool-uses", request, budget_chars=600, params={"keep": 1}
    )
    assert below.replaced_messages == 2


# --- LangChain ClearToolUsesEdit --------------------------------------------------------------


def test_langchain_defaults_and_placeholder():
    spec = registry.get("langchain-clear-tool-uses")
    assert spec.defaults == {
        "trigger": 100_000,
        "keep": 3,
        "clear_at_least": 0,
        "exclude_tools": [],
        "clear_tool_inputs": False,
        "placeholder": "[cleared]",
        "encoding": None,
    }
    roles, contents, ids = agent(4)
    out = langchain_clear(roles, contents, ids, trigger=10)
    assert out[2] == "[cleared]" and out[4] == contents[4]


def test_langchain_stops_once_it_cleared_at_least():
    roles, contents, ids = agent(4)
    out = langchain_clear(roles, contents, ids, trigger=10, keep=0, clear_at_least=50)
    assert [out[i] == "[cleared]" for i in (2, 4, 6, 8)] == [True, False, False, False]


def test_langchain_skips_a_result_its_nearest_assistant_did_not_call():
    roles = ["user", "assistant", "tool", "tool"]
    contents = ["q", "[tool call read id=a] {}", "x" * 100, "y" * 100]
    out = langchain_clear(roles, contents, [None, None, "a", None], trigger=1, keep=0)
    assert out[2] == "[cleared]" and out[3] == contents[3]


# --- observation masking, pruneMessages, OpenAI truncation ------------------------------------


def test_observation_masking_masks_results_older_than_the_last_n_turns():
    roles, contents, ids = agent(3)
    out = mask_observations(roles, contents, 2)
    assert out[2] == "Old environment output: (1 lines omitted)"
    assert out[4] == contents[4] and out[6] == contents[6]
    assert mask_observations(roles, contents, 10) == dict(enumerate(contents))


def test_prune_messages_documented_example_keeps_the_last_two_messages_tools():
    roles, contents, ids = agent(3)
    out = prune_messages(roles, contents, ids, tool_calls="before-last-2-messages")
    assert out[1] == out[3] == "Looking."
    assert 2 not in out and 4 not in out  # emptied tool messages are removed
    assert out[5] == contents[5] and out[6] == contents[6]


def test_prune_messages_keeps_a_pair_whose_result_is_in_the_last_messages():
    roles, contents, ids = agent(2)
    out = prune_messages(roles, contents, ids, tool_calls="before-last-message")
    assert out[3] == contents[3]  # its result (c1) is the last message


def test_prune_messages_tools_prunes_only_those_tools_and_none_changes_nothing():
    roles, contents, ids = agent(2, names=["read", "memory"])
    out = prune_messages(roles, contents, ids, tool_calls="all", tools=["read"])
    assert 2 not in out and out[4] == contents[4]
    assert prune_messages(roles, contents, ids) == dict(enumerate(contents))
    kept = prune_messages(roles, contents, ids, tool_calls="all", empty_messages="keep")
    assert kept[2] == ""


@pytest.mark.parametrize("n_tools", [0, 1, 2, 3])
def test_prune_messages_with_n_over_the_count_prunes_nothing(n_tools):
    # pruneMessages slices messages.slice(-N): with N over the count every message is among
    # the last N (issue 34, item 2: an IndexError from twice the count on)
    roles, contents, ids = agent(n_tools)
    count = len(contents)
    for n in range(count, 3 * count + 3):
        out = prune_messages(roles, contents, ids, tool_calls=f"before-last-{n}-messages")
        assert out == dict(enumerate(contents)), n


def test_prune_messages_before_the_last_0_messages_keeps_every_call_with_an_id():
    # messages.slice(-0) is every message, so every call id is kept; a result without one goes
    roles, contents, ids = agent(2)
    out = prune_messages(roles, contents, ids, tool_calls="before-last-0-messages")
    assert out == dict(enumerate(contents))
    out = prune_messages(roles, contents, [*ids[:-1], None], tool_calls="before-last-0-messages")
    assert out == {i: c for i, c in enumerate(contents) if i != len(contents) - 1}


def test_vercel_prune_with_five_last_messages_of_two_returns_both():
    roles, contents, ids = (
        ["assistant", "tool"],
        ["Looking.\n\n[tool call ls id=a] {}", "x"],
        [None, "a"],
    )
    request = request_of(roles, contents, ids)
    result = registry.apply("vercel-prune", request, params={"toolCalls": "before-last-5-messages"})
    assert [m.kept for m in result.messages] == [VERBATIM, VERBATIM]


def test_openai_truncation_drops_from_the_beginning_and_calls_take_their_results():
    roles, contents, ids = ["system", *agent(2)[0]], ["s", *agent(2)[1]], [None, *agent(2)[2]]
    out = truncate_auto(roles, contents, ids, context_window=110)
    assert 0 in out  # instructions stay
    assert 2 not in out and 3 not in out  # the first call, and its result with it
    assert out[5] == contents[5]


def test_openai_disabled_returns_everything_and_misses_the_budget():
    roles, contents, ids = agent(3)
    outcome = registry.apply(
        "openai-truncation", request_of(roles, contents, ids), budget_chars=500
    )
    assert outcome.output_messages == len(contents) and not outcome.budget_met


# --- the registry -----------------------------------------------------------------------------


def test_every_strategy_has_a_source_and_parameters_with_defaults_that_validate():
    assert registry.names()[:4] == ("memory-compact", "keep-last", "drop-oldest", "langchain-trim")
    for name in (
        "anthropic-clear-tool-uses",
        "langchain-clear-tool-uses",
        "observation-masking",
        "vercel-prune",
        "openai-truncation",
    ):
        spec = registry.get(name)
        assert spec.source.url and spec.source.date and spec.budget
        assert spec.validate() == spec.defaults
        spec.validate(spec.lineup)


@pytest.mark.parametrize(
    ("name", "params", "message"),
    [
        (
            "anthropic-clear-tool-uses",
            {"keep": -1},
            "anthropic-clear-tool-uses.keep: must be at least 0",
        ),
        ("anthropic-clear-tool-uses", {"keep": "3"}, "keep: must be a whole number"),
        ("anthropic-clear-tool-uses", {"kept": 3}, "kept: is not a parameter of"),
        ("vercel-prune", {"toolCalls": "before-3"}, "toolCalls: must be one of 'all'"),
        ("vercel-prune", {"emptyMessages": "drop"}, "emptyMessages: must be one of"),
        ("langchain-clear-tool-uses", {"exclude_tools": "memory"}, "must be a list of names"),
        ("openai-truncation", {"truncation": "on"}, "truncation: must be one of 'auto'"),
    ],
)
def test_invalid_parameters_are_named(name, params, message):
    with pytest.raises(StrategyParameterError) as error:
        registry.get(name).validate(params)
    assert message in str(error.value)


def test_command_line_values_are_parsed_by_kind():
    spec = registry.get("anthropic-clear-tool-uses")
    assert spec.parse(["keep=5", "exclude_tools=a,b", "clear_tool_inputs=true"]) == {
        "keep": 5,
        "exclude_tools": ["a", "b"],
        "clear_tool_inputs": True,
    }
    with pytest.raises(StrategyParameterError, match="keep: must be a whole number"):
        spec.parse(["keep=many"])
    with pytest.raises(StrategyParameterError, match="is not a strategy; the strategies are"):
        registry.get("summarize")
