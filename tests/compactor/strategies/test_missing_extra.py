"""A strategy whose extra is not installed (semantic-dedupe without the semantic extra,
langchain-trim without the langchain extra) is refused on every path with the command that
installs the extra: at a setting's load, by ``apply_strategy``, ``shrink`` and ``evaluate``;
the lineup shows it as not run, with the same command (issue 34, item 1)."""

import subprocess
import sys

import pytest

from compactor import apply_strategy, shrink, validate
from compactor.evaluation import load_corpus
from compactor.evaluation._strategy_rows import evaluate_strategy
from compactor.samples import load_sample
from compactor.strategies import (
    SettingError,
    StrategyUnavailable,
    compare_strategies,
    load_setting,
    setting_from_toml,
)
from compactor.text import _semantic
from compactor.wording import install_command
from tests.paths import ROOT

TAU = ROOT / "tests" / "fixtures" / "real" / "tau_airline_3_records.json"
HISTORY = [
    {"role": "user", "content": "Where is parcel DE-4471? " * 10},
    {"role": "assistant", "content": "It left Hamburg on Monday."},
]
#: The import of each extra's package, made to fail as it does when the extra is missing.
MISSING = {
    "semantic-dedupe": ("semantic", ("wordllama",)),
    "langchain-trim": ("langchain", ("langchain_core", "langchain_core.messages")),
}
WITHOUT = (
    "import sys\n"
    "for name in sys.argv[1].split(','): sys.modules[name] = None\n"
    "from compactor.cli import main\n"
    "sys.exit(main(sys.argv[2:]))\n"
)


@pytest.fixture(params=sorted(MISSING))
def missing(request, monkeypatch):
    """A strategy's name and its extra, with the extra's package made unimportable."""
    name = request.param
    extra, modules = MISSING[name]
    for module in modules:
        monkeypatch.setitem(sys.modules, module, None)
    monkeypatch.setattr(_semantic, "model", _semantic.model.__wrapped__)  # no cached model
    return name, extra


def test_apply_strategy_names_the_extra_to_install(missing):
    name, extra = missing
    with pytest.raises(StrategyUnavailable) as raised:
        apply_strategy(name, validate({"messages": HISTORY, "budget_chars": 100}))
    assert str(raised.value) == f"{name}: needs the {extra} extra; install it with: " + (
        install_command(extra)
    )


def test_a_setting_naming_it_fails_at_its_load_with_file_and_line(missing, tmp_path):
    name, extra = missing
    path = tmp_path / "compaction.toml"
    path.write_text(f'budget_chars = 900\nstrategy = "{name}"\n', "utf-8")
    with pytest.raises(SettingError) as raised:
        load_setting(path)
    assert str(raised.value) == (
        f"{path}:2: strategy: {name} needs the {extra} extra; install it with: "
        + install_command(extra)
    )
    with pytest.raises(SettingError, match=f"needs the {extra} extra"):
        setting_from_toml(f'budget_chars = 900\nstrategy = "{name}"\n')
    with pytest.raises(SettingError, match=f"needs the {extra} extra"):
        shrink(HISTORY, {"strategy": name, "budget_chars": 100})
    with pytest.raises(SettingError, match=f"needs the {extra} extra"):
        shrink(HISTORY, path)


def test_evaluate_names_the_extra_before_any_row(missing):
    name, extra = missing
    with pytest.raises(StrategyUnavailable, match=f"needs the {extra} extra"):
        next(evaluate_strategy(load_corpus(TAU), name, [{}], workers=1))


def test_the_lineup_shows_semantic_dedupe_as_not_run_with_the_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "wordllama", None)
    monkeypatch.setattr(_semantic, "model", _semantic.model.__wrapped__)
    comparison = compare_strategies(
        validate(load_sample("dispatcher").request), semantic_threshold=0.5
    )
    outcome = comparison.result("semantic-dedupe")
    assert not outcome.available and install_command("semantic") in outcome.unavailable


def cli_without(modules, *args):
    return subprocess.run(
        [sys.executable, "-c", WITHOUT, ",".join(modules), *map(str, args)],
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )


@pytest.mark.parametrize("command", ["shrink", "evaluate --setting", "evaluate --strategy"])
def test_the_cli_exits_2_naming_the_extra(tmp_path, command):
    extra, modules = MISSING["semantic-dedupe"]
    setting = tmp_path / "compaction.toml"
    setting.write_text('strategy = "semantic-dedupe"\nbudget_chars = 900\n', "utf-8")
    chat = tmp_path / "chat.json"
    chat.write_text(str(HISTORY).replace("'", '"'), "utf-8")
    args = {
        "shrink": ["shrink", chat, "--setting", setting],
        "evaluate --setting": ["evaluate", TAU, "--setting", setting],
        "evaluate --strategy": ["evaluate", TAU, "--strategy", "semantic-dedupe"],
    }[command]
    done = cli_without(modules, *args)
    err = done.stderr.decode()
    assert done.returncode == 2 and done.stdout == b"", err
    assert f"needs the {extra} extra; install it with: {install_command(extra)}" in err
    assert "Traceback" not in err
