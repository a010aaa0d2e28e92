"""An old strategy name on the command line still works and says its new name, one line on
standard error: in ``--strategy`` (replay, evaluate) and in a ``--setting`` compaction.toml.
Each test runs the real command."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from compactor.samples import load_sample
from tests.paths import ROOT

SUPPORT = load_sample("support-chat").request
TAU = ROOT / "tests" / "fixtures" / "real" / "tau_airline_3_records.json"


def cli(*args, stdin=b""):
    return subprocess.run(
        [sys.executable, "-m", "compactor", *map(str, args)],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def notice(old):
    said = f'the strategy "{old}" is now called "drop-oldest" (the old name still works)'
    return f"--strategy: {said}\n"


@pytest.mark.parametrize(
    ("old", "options"),
    [("seed-trim", ()), ("trim", ("--keep-last-messages", "3", "--max-tokens-estimate", "200"))],
)
def test_replay_with_an_old_name_replays_the_new_one_and_says_so(old, options):
    body = json.dumps(SUPPORT).encode()
    new = cli("replay", "-", "--strategy", "drop-oldest", *options, stdin=body)
    done = cli("replay", "-", "--strategy", old, *options, stdin=body)
    assert new.returncode == done.returncode == 0, done.stderr.decode()
    assert done.stdout == new.stdout
    assert new.stderr == b""
    assert done.stderr.decode() == notice(old)


def test_evaluate_with_an_old_name_evaluates_the_new_one_and_says_so(tmp_path):
    rows = {}
    for name in ("seed-trim", "drop-oldest"):
        out = tmp_path / f"{name}.jsonl"
        done = cli(
            "evaluate", TAU, "--strategy", name, "--budgets", "3000", "--no-outcomes", "--out", out
        )
        assert done.returncode == 0, done.stderr.decode()
        rows[name] = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
        said = done.stderr.decode()
        assert (notice(name) in said) == (name == "seed-trim")
    assert rows["seed-trim"] == rows["drop-oldest"]
    assert {row["strategy"] for row in rows["seed-trim"]} == {"drop-oldest"}


def test_a_setting_file_with_an_old_name_works_and_says_its_line(tmp_path):
    request = tmp_path / "request.json"
    request.write_text(json.dumps(SUPPORT), "utf-8")
    outputs = {}
    for name in ("seed-trim", "drop-oldest"):
        setting = tmp_path / f"{name}.toml"
        setting.write_text(f'strategy = "{name}"\nbudget_chars = 1500\n', "utf-8")
        done = cli("shrink", request, "--setting", setting)
        assert done.returncode == 0, done.stderr.decode()
        outputs[name] = (done.stdout, done.stderr.decode())
    assert outputs["seed-trim"][0] == outputs["drop-oldest"][0]
    said = outputs["seed-trim"][1]
    assert f'{tmp_path / "seed-trim.toml"}:1: strategy: "seed-trim" is the old name of ' in said
    assert "old name" not in outputs["drop-oldest"][1]
