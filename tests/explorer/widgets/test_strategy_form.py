"""The strategy form's values: starting at the lineup's, a changed input given, an empty
trigger left to the budget, lists typed as text, bad values named."""

import pytest

from compactor.strategies import STRATEGIES, StrategyParameterError
from explorer.widgets.strategy_form import offered, params_from, start_values


def test_the_form_offers_the_strategies_whose_parameters_no_other_control_sets():
    assert offered() == [
        "anthropic-clear-tool-uses",
        "langchain-clear-tool-uses",
        "clear-then-fit",
        "observation-masking",
        "vercel-prune",
        "openai-truncation",
        "anchor-keep",
        "focus",
    ]


def test_unchanged_inputs_run_the_lineups_parameters():
    for name in offered():
        strategy = STRATEGIES[name]
        assert params_from(strategy, start_values(strategy)) == dict(strategy.lineup)


def test_a_trigger_starts_empty_and_left_empty_follows_the_budget():
    strategy = STRATEGIES["anthropic-clear-tool-uses"]
    start = start_values(strategy)
    assert start["trigger"] is None and start["keep"] == 3
    assert params_from(strategy, {**start, "keep": 1.0}) == {"keep": 1}
    assert params_from(strategy, {**start, "trigger": 500}) == {"trigger": 500}


def test_lists_are_typed_as_text_and_an_empty_optional_text_is_the_default():
    prune = STRATEGIES["vercel-prune"]
    start = start_values(prune)
    assert params_from(prune, {**start, "tools": " read , ls"})["tools"] == ["read", "ls"]
    assert "tools" not in params_from(prune, {**start, "tools": ""})
    ours = STRATEGIES["anchor-keep"]
    assert params_from(ours, {**start_values(ours), "keep_roles": "system"}) == {
        "keep_roles": ["system"]
    }
    clear = STRATEGIES["anthropic-clear-tool-uses"]
    assert params_from(clear, {**start_values(clear), "exclude_tools": ""}) == {}


def test_a_bad_value_is_named():
    prune = STRATEGIES["vercel-prune"]
    with pytest.raises(StrategyParameterError) as error:
        params_from(prune, {**start_values(prune), "toolCalls": "some"})
    assert [p.path for p in error.value.problems] == ["vercel-prune.toolCalls"]
