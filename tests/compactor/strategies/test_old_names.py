"""A renamed strategy keeps its old names: seeds/003's trim is drop-oldest, and "seed-trim" (the
registry's old name) and "trim" (the replay's) still find it, in Python and in a
compaction.toml, and say the new name (docs/glossary.md)."""

from __future__ import annotations

import pytest

from compactor import validate
from compactor.samples import load_sample
from compactor.strategies import (
    DROP_OLDEST,
    OLD_STRATEGY_NAMES,
    Setting,
    apply_strategy,
    current_strategy_name,
    get_strategy,
    setting_from_toml,
    strategy_names,
    strategy_renamed_notice,
)

REQUEST = validate(load_sample("support-chat").request)


@pytest.mark.parametrize("old", ["seed-trim", "trim"])
def test_an_old_name_finds_the_strategy_under_its_new_name(old):
    assert OLD_STRATEGY_NAMES[old] == DROP_OLDEST == "drop-oldest"
    assert get_strategy(old) is get_strategy(DROP_OLDEST)
    assert current_strategy_name(old) == DROP_OLDEST
    assert apply_strategy(old, REQUEST, budget_chars=1500) == apply_strategy(
        DROP_OLDEST, REQUEST, budget_chars=1500
    )
    assert apply_strategy(old, REQUEST, budget_chars=1500).key == DROP_OLDEST
    assert strategy_renamed_notice(old) == (
        f'the strategy "{old}" is now called "drop-oldest" (the old name still works)'
    )


def test_only_the_new_names_are_listed_and_a_current_name_has_no_notice():
    assert DROP_OLDEST in strategy_names()
    assert not set(OLD_STRATEGY_NAMES) & set(strategy_names())
    assert all(strategy_renamed_notice(name) is None for name in strategy_names())
    assert current_strategy_name("keep-last") == "keep-last"


def test_a_compaction_toml_with_an_old_name_is_read_as_the_new_one_and_says_where():
    text = 'name = "bot"\nstrategy = "seed-trim"\nbudget_chars = 1500\n'
    text += "\n[params]\ndropToolParts = true\n"
    setting = setting_from_toml(text)
    params = {"dropToolParts": True}
    assert setting == Setting(strategy="drop-oldest", budget_chars=1500, name="bot", params=params)
    assert setting.to_dict()["strategy"] == "drop-oldest"  # written back under the new name
    assert setting.notes == (
        'compaction.toml:2: strategy: "seed-trim" is the old name of "drop-oldest" (read as '
        '"drop-oldest"; write strategy = "drop-oldest")',
    )
    assert setting_from_toml(text.replace("seed-trim", "drop-oldest")).notes == ()


def test_a_setting_made_in_python_with_an_old_name_notes_it_too():
    setting = Setting(strategy="trim", budget_chars=1500)
    assert setting.strategy == "drop-oldest"
    assert setting.notes == (
        'strategy: "trim" is the old name of "drop-oldest" (read as "drop-oldest"; '
        'write strategy = "drop-oldest")',
    )
    assert setting == Setting(strategy="drop-oldest", budget_chars=1500)
