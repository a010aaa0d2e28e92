"""The settings grid: every combination, checked by the schema, with clear errors."""

import pytest

from compactor.contract import DEFAULTS
from compactor.errors import ProblemError
from compactor.evaluation import GRID_PARAMETERS, grid_points, parse_grid_option


def test_no_grid_is_the_defaults():
    assert grid_points() == [{name: DEFAULTS[name] for name in GRID_PARAMETERS}]


def test_every_combination_in_the_schemas_order():
    settings = grid_points(
        {"duplicate_threshold": 0.8},
        {"max_message_chars": [100, 200], "keep_last_n": [1, 2, 3]},
    )
    assert [(s["keep_last_n"], s["max_message_chars"]) for s in settings] == [
        (1, 100),
        (1, 200),
        (2, 100),
        (2, 200),
        (3, 100),
        (3, 200),
    ]
    assert {s["duplicate_threshold"] for s in settings} == {0.8}
    assert all("budget_chars" not in s for s in settings)


def test_budget_chars_joins_the_setting_when_named():
    settings = grid_points({}, {"budget_chars": [500, 900]})
    assert [s["budget_chars"] for s in settings] == [500, 900]


@pytest.mark.parametrize(
    "base, grid, where",
    [
        ({}, {"keep_last": [1]}, "grid.keep_last"),
        ({"budget": 5}, {}, "base.budget"),
        ({}, {"keep_last_n": [1, 51]}, "grid.keep_last_n[1]"),
        ({}, {"keep_last_n": [True]}, "grid.keep_last_n[0]"),
        ({}, {"duplicate_threshold": [0.4]}, "grid.duplicate_threshold[0]"),
        ({}, {"keep_roles": [["system"], ["robot"]]}, "grid.keep_roles[1][0]"),
        ({}, {"max_message_chars": []}, "grid.max_message_chars"),
        ({}, {"max_message_chars": 300}, "grid.max_message_chars"),
        ({}, {"keep_last_n": [2, 2]}, "grid.keep_last_n[1]"),
        ({"max_message_chars": 79}, {}, "base.max_message_chars"),
    ],
)
def test_a_bad_name_or_value_says_where(base, grid, where):
    with pytest.raises(ProblemError) as caught:
        grid_points(base, grid)
    assert [p.path for p in caught.value.problems] == [where]


def test_the_command_line_form():
    assert parse_grid_option("keep_last_n=2,5") == ("keep_last_n", [2, 5])
    assert parse_grid_option("duplicate_threshold=0.8, 1") == ("duplicate_threshold", [0.8, 1])
    roles = parse_grid_option("keep_roles=none,user+system")
    assert roles == ("keep_roles", [[], ["user", "system"]])
    for bad in ("keep_last_n", "=1", "keep_lost=1", "keep_last_n=two"):
        with pytest.raises(ProblemError):
            parse_grid_option(bad)


def test_the_grids_old_names_still_work():
    import compactor.evaluation as evaluation

    assert evaluation.settings_grid is evaluation.grid_points
    assert evaluation.strategy_settings is evaluation.strategy_grid_points
    assert "settings_grid" not in evaluation.__all__
