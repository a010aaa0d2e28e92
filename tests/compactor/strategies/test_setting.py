"""The setting and its compaction.toml: validated by the registry, written and read back equal,
and every error naming the file, the key and its line."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from compactor.strategies import (
    STRATEGIES,
    Setting,
    SettingError,
    StrategyParameterError,
    get_strategy,
    load_setting,
    setting_from_toml,
    setting_toml,
)

FULL = Setting(
    strategy="memory-compact",
    params={"keep_last_n": 4, "keep_roles": ["system", "user"], "duplicate_threshold": 0.95},
    budget_tokens=2000,
    encoding="cl100k_base",
    name="support bot",
    note='chosen on the Corpus page: "needed later" 0.82\nsecond line',
)


def messages_of(error: SettingError) -> list[str]:
    return [str(p) for p in error.problems]


def test_a_setting_round_trips_through_its_toml_file(tmp_path):
    path = tmp_path / "compaction.toml"
    path.write_text(setting_toml(FULL), "utf-8")
    assert load_setting(path) == FULL
    assert load_setting(path).to_dict() == FULL.to_dict()


def test_the_file_reads_as_a_person_would_write_it():
    assert setting_toml(Setting(budget_chars=4000, params={"keep_last_n": 3})) == (
        'strategy = "memory-compact"\nbudget_chars = 4000\n\n[params]\nkeep_last_n = 3\n'
    )


@pytest.mark.parametrize(
    "setting",
    [
        Setting(strategy="keep-last", budget_chars=100),
        Setting(strategy="drop-oldest", budget_chars=800, params={"dropToolParts": True}),
        Setting(
            strategy="anthropic-clear-tool-uses",
            budget_tokens=1,
            params={"trigger": 10, "exclude_tools": ["search"], "clear_tool_inputs": True},
        ),
        Setting(strategy="vercel-prune", budget_chars=400_000, params={"toolCalls": "all"}),
    ],
    ids=lambda s: s.strategy,
)
def test_every_strategy_s_parameters_round_trip(setting):
    assert setting_from_toml(setting_toml(setting)) == setting
    assert Setting.from_dict(setting.to_dict()) == setting


@given(name=st.text(st.characters(exclude_categories=("Cs",))), note=st.text(max_size=20))
def test_any_name_and_note_round_trip(name, note):
    setting = Setting(budget_chars=500, name=name, note=note)
    assert setting_from_toml(setting_toml(setting)) == setting


def test_a_token_budget_defaults_to_o200k_base():
    assert Setting(budget_tokens=500).encoding == "o200k_base"
    assert Setting(budget_tokens=500).budget == ("tokens", 500)
    assert Setting(budget_chars=500).budget == ("chars", 500)


def test_a_parameter_of_none_is_the_same_as_none_given():
    assert Setting(budget_chars=500, params={"keep_last_n": None}) == Setting(budget_chars=500)


def test_a_setting_is_frozen():
    with pytest.raises(AttributeError):
        FULL.budget_tokens = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        FULL.params["keep_last_n"] = 5  # type: ignore[index]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({}, ["budget_chars: give exactly one budget: budget_chars or budget_tokens"]),
        (
            {"budget_chars": 400, "budget_tokens": 100},
            ["budget_chars: give exactly one budget: budget_chars or budget_tokens"],
        ),
        (
            {"budget_chars": 50},
            ["budget_chars: must be a whole number from 100 to 400,000, not 50"],
        ),
        (
            {"budget_tokens": 0},
            ["budget_tokens: must be a whole number of at least 1, not 0"],
        ),
        (
            {"budget_chars": 400, "encoding": "o200k_base"},
            ["encoding: applies only to budget_tokens"],
        ),
        (
            {"budget_tokens": 400, "encoding": "gpt2"},
            ["encoding: must be one of o200k_base, cl100k_base, not 'gpt2'"],
        ),
        (
            {"budget_chars": 400, "params": {"keep_last_n": 51}},
            ["params.keep_last_n: must be at most 50; it is 51"],
        ),
        (
            {"budget_chars": 400, "params": {"keep_roles": ["bot"]}},
            [
                'params.keep_roles[0]: must be one of "system", "user", "assistant", "tool", '
                'not "bot"'
            ],
        ),
        (
            {"budget_chars": 400, "strategy": "keep-last", "params": {"n": 3}},
            [
                "params.n: is not a parameter of keep-last; its parameters are none (n is a "
                "parameter of observation-masking; remove it from [params] for keep-last)"
            ],
        ),
        (  # a memory-compact file edited to another strategy: what to do is said (issue 39)
            {"budget_chars": 400, "strategy": "anchor-keep", "params": {"duplicate_threshold": 1}},
            [
                "params.duplicate_threshold: is not a parameter of anchor-keep; its parameters "
                "are unit_chars, fill_recent, focus, keep_last_n, keep_roles "
                "(duplicate_threshold is a parameter of memory-compact; remove it from [params] "
                "for anchor-keep)"
            ],
        ),
        ({"budget_chars": 400, "name": 3}, ["name: must be a text, not 3"]),
        ({"budget_chars": 400, "params": [1]}, ["params: must be a table, not an array of 1 item"]),
    ],
)
def test_a_wrong_setting_names_the_key(data, expected):
    with pytest.raises(SettingError) as error:
        Setting.from_dict(data)
    assert messages_of(error.value) == expected


def test_an_unknown_strategy_lists_the_strategies():
    with pytest.raises(SettingError) as error:
        Setting.from_dict({"strategy": "nope", "budget_chars": 400})
    (problem,) = messages_of(error.value)
    assert problem.startswith(
        "strategy: is not a strategy ('nope'); the strategies are memory-compact, keep-last"
    )


def test_every_problem_in_a_file_names_the_file_the_key_and_the_line(tmp_path):
    path = tmp_path / "compaction.toml"
    path.write_text(
        'name = "bot"\nstrategy = "memory-compact"\nbudget_chars = 50\ncolour = "red"\n\n'
        "[params]\nkeep_last_n = -1\nfoo = 2\n",
        "utf-8",
    )
    with pytest.raises(SettingError) as error:
        load_setting(path)
    assert messages_of(error.value) == [
        f"{path}:4: colour: is not a key of a setting; the keys are name, note, strategy, "
        "budget_chars, budget_tokens, encoding, limits, params",
        f"{path}:3: budget_chars: must be a whole number from 100 to 400,000, not 50",
        f"{path}:8: params.foo: is not a parameter of memory-compact; its parameters are "
        "keep_last_n, keep_roles, duplicate_threshold, max_message_chars",
        f"{path}:7: params.keep_last_n: must be at least 0, not -1",
    ]


def test_a_file_that_is_not_toml_names_the_line_and_column(tmp_path):
    path = tmp_path / "compaction.toml"
    path.write_text('strategy = "memory-compact"\nbudget_chars = = 4\n', "utf-8")
    with pytest.raises(SettingError) as error:
        load_setting(path)
    assert messages_of(error.value) == [f"{path}:2:16: is not TOML: Invalid value"]


def test_a_missing_or_binary_file_is_named(tmp_path):
    with pytest.raises(SettingError, match=r"missing\.toml: cannot read the file"):
        load_setting(tmp_path / "missing.toml")
    (tmp_path / "b.toml").write_bytes(b"name = '\xff'")
    with pytest.raises(SettingError, match=r"b\.toml: is not UTF-8 text \(byte 9\)"):
        load_setting(tmp_path / "b.toml")


COUNTING = sorted(n for n, s in STRATEGIES.items() if "encoding" in s.defaults)


@pytest.mark.parametrize("strategy", COUNTING)
def test_an_unknown_encoding_of_a_strategy_fails_at_the_settings_load(tmp_path, strategy):
    # it used to pass and fail at run time, with no file or line (issue 34, item 7)
    path = tmp_path / "compaction.toml"
    text = f'strategy = "{strategy}"\nbudget_chars = 900\n\n[params]\nencoding = "bogus"\n'
    path.write_text(text, "utf-8")
    with pytest.raises(SettingError) as raised:
        load_setting(path)
    assert str(raised.value) == (
        f"{path}:5: params.encoding: must be one of 'o200k_base', 'cl100k_base', not 'bogus'"
    )
    with pytest.raises(StrategyParameterError, match="encoding: must be one of"):
        get_strategy(strategy).validate({"encoding": "bogus"})
    for encoding in (None, "o200k_base", "cl100k_base"):
        get_strategy(strategy).validate({"encoding": encoding})


def test_a_byte_order_mark_before_the_first_key_is_read_past(tmp_path):
    # Notepad and other editors on Windows start a UTF-8 file with one (issue 34, item 15)
    text = 'strategy = "keep-last"\nbudget_chars = 900\nname = 4\n'
    path = tmp_path / "compaction.toml"
    path.write_bytes(b"\xef\xbb\xbf" + text.replace("name = 4\n", "").encode())
    assert load_setting(path) == Setting(strategy="keep-last", budget_chars=900)
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())  # the lines are still the file's
    with pytest.raises(SettingError, match=r"compaction\.toml:3: name: must be a text"):
        load_setting(path)
    assert setting_from_toml("\ufeff" + "budget_chars = 900\n").budget_chars == 900


def test_the_integrations_face_still_gives_the_setting_for_old_imports():
    import compactor.integrations as integrations

    assert integrations.Setting is Setting
    assert integrations.load_setting is load_setting


# --- the agent mode's budgets ----------------------------------------------------------------


def test_an_agent_setting_holds_a_budget_up_to_two_million(tmp_path):
    setting = Setting.from_dict({"budget_chars": 2_000_000, "limits": "agent"})
    path = tmp_path / "compaction.toml"
    path.write_text(setting_toml(setting), "utf-8")
    assert 'limits = "agent"' in path.read_text("utf-8")
    assert load_setting(path) == setting and load_setting(path).limits == "agent"
    with pytest.raises(SettingError) as error:
        Setting.from_dict({"budget_chars": 2_000_001, "limits": "agent"})
    assert messages_of(error.value) == [
        "budget_chars: must be a whole number from 100 to 2,000,000, not 2,000,001"
    ]


def test_a_contract_setting_keeps_the_contracts_budgets():
    assert Setting.from_dict({"budget_chars": 400_000, "limits": "contract"}).budget_chars
    for data in ({"budget_chars": 400_001}, {"budget_chars": 400_001, "limits": "contract"}):
        with pytest.raises(SettingError) as error:
            Setting.from_dict(data)
        assert messages_of(error.value) == [
            "budget_chars: must be a whole number from 100 to 400,000, not 400,001"
            ' (limits = "agent" takes up to 2,000,000)'
        ]
    with pytest.raises(SettingError) as error:
        Setting.from_dict({"budget_chars": 4000, "limits": "wide"})
    assert messages_of(error.value) == ["limits: must be one of contract, agent, not 'wide'"]
