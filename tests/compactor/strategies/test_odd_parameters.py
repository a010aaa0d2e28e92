"""Parameters at their edges (issue 34, item 17): memory-compact's nullable parameters take
none (the request's own) on a command line as in Python, and anchor-keep refuses a role that no
message can have, at validation."""

import json
import subprocess
import sys

import pytest

from compactor import apply_strategy, load_setting, validate
from compactor.evaluation import load_corpus
from compactor.evaluation._strategy_rows import evaluate_strategy
from compactor.samples import load_sample
from compactor.strategies import SettingError, StrategyParameterError, get_strategy
from tests.paths import ROOT

TAU = ROOT / "tests" / "fixtures" / "real" / "tau_airline_3_records.json"
NULLABLE = ["keep_last_n", "keep_roles", "duplicate_threshold", "max_message_chars"]


@pytest.mark.parametrize("name", NULLABLE)
def test_memory_compact_parameters_at_none_are_the_requests_own(name):
    request = validate(load_sample("support-chat").request)
    parsed = get_strategy("memory-compact").parse([f"{name}=none"])
    assert parsed == {name: None}
    assert apply_strategy("memory-compact", request, params=parsed) == apply_strategy(
        "memory-compact", request
    )


def test_evaluate_takes_none_for_memory_compacts_parameters(tmp_path):
    out = tmp_path / "rows.jsonl"
    command = ["evaluate", TAU, "--strategy", "memory-compact", "--out", out]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "compactor",
            *map(str, command),
            "--strategy-param",
            "keep_last_n=none",
        ],
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode()
    rows = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    expected = evaluate_strategy(load_corpus(TAU), "memory-compact", [{}], workers=1)
    assert [without_params(r) for r in rows] == [without_params(r) for r in expected]


def without_params(row):
    return {k: v for k, v in row.items() if k != "strategy_params"}


def test_anchor_keep_refuses_a_role_no_message_has(tmp_path):
    with pytest.raises(StrategyParameterError) as raised:
        get_strategy("anchor-keep").validate({"keep_roles": ["system", "alien"]})
    assert str(raised.value) == (
        'anchor-keep.keep_roles[1]: must be one of "system", "user", "assistant", "tool", '
        'not "alien"'
    )
    path = tmp_path / "compaction.toml"
    path.write_text(
        'strategy = "anchor-keep"\nbudget_chars = 900\n[params]\nkeep_roles = ["alien"]\n'
    )
    with pytest.raises(
        SettingError, match=r"compaction\.toml:4: params\.keep_roles\[0\]: must be one of"
    ):
        load_setting(path)
    assert get_strategy("anchor-keep").validate({"keep_roles": ["user"]})["keep_roles"] == ["user"]
