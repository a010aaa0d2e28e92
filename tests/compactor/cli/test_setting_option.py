"""``--setting compaction.toml`` on the commands that compact, and ``shrink``: real processes.

The setting's parameters and budget apply, a flag overrides them, and a file that cannot be
used exits 2 naming the file, the line and the key, with nothing on standard output."""

import json
import os
import subprocess
import sys

import pytest

from compactor import compact, shrink, validate
from compactor.analyses.replay._strategies import replay_request
from compactor.errors import MAX_PROBLEMS
from compactor.evaluation import RunOptions, evaluate, grid_points, load_corpus
from compactor.integrations import Setting, setting_toml
from compactor.integrations._budget import fit_tokens
from compactor.samples import load_sample
from compactor.strategies._setting import MAX_SETTING_BYTES
from tests.compactor.integrations.conftest import written_as
from tests.paths import ROOT

SUPPORT = load_sample("support-chat").request
TAU = ROOT / "tests" / "fixtures" / "real" / "tau_airline_3_records.json"
CHOSEN = Setting(
    budget_chars=2500,
    params={"keep_last_n": 3, "keep_roles": ["system", "user"], "max_message_chars": 300},
    name="support bot",
    note="chosen in the explorer",
)


def cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "compactor", *map(str, args)],
        capture_output=True,
        cwd=ROOT,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def ok(done):
    assert done.returncode == 0, done.stderr.decode()
    return json.loads(done.stdout)


@pytest.fixture
def files(tmp_path):
    request = tmp_path / "request.json"
    request.write_text(json.dumps(SUPPORT), "utf-8")
    setting = tmp_path / "compaction.toml"
    setting.write_text(setting_toml(CHOSEN), "utf-8")
    return request, setting


def with_setting(request, setting=CHOSEN, **flags):
    params = {k: list(v) if isinstance(v, tuple) else v for k, v in setting.params.items()}
    return {**request, **params, "budget_chars": setting.budget_chars, **flags}


def test_compact_with_a_setting_is_compact_with_its_parameters(files):
    request, setting = files
    assert ok(cli("compact", request, "--setting", setting)) == compact(with_setting(SUPPORT))


def test_a_flag_overrides_the_settings_value(files):
    request, setting = files
    done = ok(
        cli("compact", request, "--setting", setting, "--keep-last-n", 6, "--emit", "request")
    )
    assert (done["keep_last_n"], done["budget_chars"], done["max_message_chars"]) == (6, 2500, 300)


def test_a_budget_in_tokens_is_the_largest_character_budget_that_fits(tmp_path, files):
    pytest.importorskip("bpe_openai")
    request, _ = files
    tokens = Setting(budget_tokens=600, params={"keep_last_n": 3}, encoding="cl100k_base")
    path = tmp_path / "tokens.toml"
    path.write_text(setting_toml(tokens), "utf-8")
    fit = fit_tokens({**SUPPORT, "keep_last_n": 3}, "memory-compact", {}, 600, "cl100k_base")
    response = ok(cli("compact", request, "--setting", path))
    assert response["budget"]["budget_chars"] == fit.budget_chars
    assert response == compact({**SUPPORT, "keep_last_n": 3, "budget_chars": fit.budget_chars})


@pytest.mark.parametrize(
    "text, says",
    [
        (
            'strategy = "memory-compact"\nbudget_chars = 4000\n\n[params]\nkeep_last_n = -1\n',
            "compaction.toml:5: params.keep_last_n: must be at least 0, not -1",
        ),
        ("budget_chars = 4000\nkeep_lats = 3\n", "compaction.toml:2: keep_lats: is not a key"),
        ('budget_chars = 4000\nstrategy = "memory-compactt"\n', "compaction.toml:2: strategy"),
        ("budget_chars = \n", "compaction.toml:1:"),
        ('strategy = "keep-last"\nbudget_chars = 900\n', "compact runs memory-compact"),
    ],
)
def test_a_setting_file_that_cannot_be_used_exits_2_naming_file_line_and_key(files, text, says):
    request, setting = files
    setting.write_text(text, "utf-8")
    done = cli("compact", request, "--setting", setting)
    assert done.returncode == 2 and done.stdout == b""
    err = done.stderr.decode()
    assert says in err and str(setting.parent) in err and "Traceback" not in err, err


@pytest.mark.parametrize("command", ["replay", "outcomes", "anchors", "shrink", "evaluate"])
def test_every_command_that_takes_a_setting_names_the_bad_line(files, command):
    request, setting = files
    setting.write_text("budget_chars = 4000\n[params]\nmax_message_chars = 0\n", "utf-8")
    done = cli(command, request, "--setting", setting)
    assert done.returncode == 2 and done.stdout == b""
    assert "compaction.toml:3: params.max_message_chars: must be at least" in done.stderr.decode()


def test_a_setting_saved_with_a_byte_order_mark_is_read(files):
    # as editors on Windows save UTF-8 (issue 34, item 15)
    request, setting = files
    setting.write_bytes(b"\xef\xbb\xbf" + setting.read_bytes())
    assert ok(cli("compact", request, "--setting", setting)) == compact(with_setting(SUPPORT))


def test_an_unknown_encoding_is_refused_with_its_line_and_no_traceback(files, tmp_path):
    # it used to fail at run time with a traceback (issue 34, item 7)
    request, setting = files
    setting.write_text(
        'strategy = "drop-oldest"\nbudget_chars = 900\n[params]\nencoding = "bogus"\n'
    )
    for args in (
        ("shrink", request, "--setting", setting),
        ("evaluate", TAU, "--setting", setting),
        ("evaluate", TAU, "--strategy", "drop-oldest", "--strategy-param", "encoding=bogus"),
    ):
        done = cli(*args)
        err = done.stderr.decode()
        assert done.returncode == 2 and done.stdout == b"", err
        assert "encoding: must be one of 'o200k_base', 'cl100k_base', not 'bogus'" in err, err
        assert "Traceback" not in err
        if "--setting" in args:
            assert "compaction.toml:4: params.encoding" in err


def test_a_missing_setting_file_says_so(files, tmp_path):
    request, _ = files
    done = cli("compact", request, "--setting", tmp_path / "nowhere.toml")
    assert done.returncode == 2
    assert "nowhere.toml: cannot read the file (No such file or directory)" in done.stderr.decode()


@pytest.mark.parametrize("table", ["", "[params]\n"])
def test_a_setting_with_many_problems_lists_the_first_100_and_counts_the_rest(files, table):
    request, setting = files
    keys = "".join(f"unknown_{i} = 1\n" for i in range(1000))
    setting.write_text(f'strategy = "keep-last"\nbudget_chars = 4000\n{table}{keys}', "utf-8")
    done = cli("shrink", request, "--setting", setting)
    assert done.returncode == 2 and done.stdout == b""
    lines = done.stderr.decode().splitlines()
    assert len(lines) == MAX_PROBLEMS + 1, lines[-3:]
    first = 3 + bool(table)
    prefix = "params." if table else ""
    assert lines[0].startswith(f"{setting}:{first}: {prefix}unknown_0: is not a")
    assert lines[-1] == (
        f"{setting}: and 900 more problems not listed (at most 100 are); fix these first"
    )


def test_a_setting_file_over_1_mib_is_refused_before_it_is_read(files):
    request, setting = files
    with setting.open("r+b") as file:  # sparse: no disk spent, and reading it would be slow
        file.truncate(MAX_SETTING_BYTES + 1)
    done = cli("shrink", request, "--setting", setting)
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode() == (
        f"{setting}: is 1,048,577 bytes, over the 1,048,576 bytes (1 MiB) a setting file may be; "
        "a setting takes a few lines\n"
    )


def test_replay_runs_the_settings_own_strategy(tmp_path, files):
    request, _ = files
    path = tmp_path / "keep.toml"
    path.write_text(setting_toml(Setting(strategy="keep-last", budget_chars=1800)), "utf-8")
    replayed = ok(cli("replay", request, "--setting", path, "--indent", 0))
    expected = replay_request(validate({**SUPPORT, "budget_chars": 1800}), "keep-last")
    assert [t["chars_out"] for t in replayed["turns"]] == [t.chars_out for t in expected.turns]
    assert replayed["final"] == expected.to_dict()["final"]


def test_outcomes_reads_the_setting_as_compact_does(files):
    request, setting = files
    found = ok(cli("outcomes", request, "--setting", setting))
    assert found["parameters"] == validate(with_setting(SUPPORT)).params.to_dict()


def test_evaluate_with_a_setting_is_its_one_setting_at_its_budget(tmp_path, files):
    _, setting = files
    out = tmp_path / "rows.jsonl"
    done = cli("evaluate", TAU, "--setting", setting, "--workers", 1, "--out", out)
    assert done.returncode == 0, done.stderr.decode()
    params = {k: list(v) if isinstance(v, tuple) else v for k, v in CHOSEN.params.items()}
    expected = evaluate(load_corpus(TAU), grid_points(params), [2500], RunOptions(workers=1))
    rows = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    assert rows == list(expected)
    assert "2,500      3 system+user" in done.stdout.decode()


def test_evaluate_with_a_setting_in_tokens_runs_its_parameters_at_the_budgets_given(tmp_path):
    path = tmp_path / "tokens.toml"
    tokens = Setting(budget_tokens=600, params={"keep_last_n": 3}, encoding="cl100k_base")
    path.write_text(setting_toml(tokens), "utf-8")
    refused = cli("evaluate", TAU, "--setting", path)
    assert refused.returncode == 2 and refused.stdout == b""
    assert "give --budgets B1,... beside this setting's budget_tokens" in refused.stderr.decode()
    out = tmp_path / "rows.jsonl"
    done = cli("evaluate", TAU, "--setting", path, "--budgets", "900,2500", "--out", out)
    assert done.returncode == 0, done.stderr.decode()
    grid = grid_points({"keep_last_n": 3})
    expected = evaluate(load_corpus(TAU), grid, [900, 2500], RunOptions(workers=1))
    rows = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    assert rows == list(expected)


def test_evaluate_with_another_strategys_setting_runs_that_strategy(tmp_path):
    path = tmp_path / "keep.toml"
    path.write_text(setting_toml(Setting(strategy="keep-last", budget_chars=3000)), "utf-8")
    done = cli("evaluate", TAU, "--setting", path, "--fail-under", "budget_met=1")
    assert done.returncode == 0, done.stderr.decode()
    assert "strategy keep-last" in done.stdout.decode()
    assert "gate, keep-last {}, budget_chars 3,000:" in done.stdout.decode()


@pytest.mark.parametrize("format", ["openai", "anthropic", "sharegpt"])
def test_shrink_prints_what_compactor_shrink_returns_in_the_inputs_format(tmp_path, files, format):
    _, setting = files
    conversation = written_as(SUPPORT, format)
    path = tmp_path / f"chat.{format}.json"
    path.write_text(json.dumps(conversation), "utf-8")
    done = cli("shrink", path, "--setting", setting)
    assert ok(done) == shrink(conversation, CHOSEN)
    assert done.stderr.decode().startswith("memory-compact at 2,500 characters: ")


def test_shrink_takes_flags_over_the_setting_and_needs_one(tmp_path, files):
    _, setting = files
    path = tmp_path / "chat.json"
    conversation = written_as(SUPPORT, "openai")
    path.write_text(json.dumps(conversation), "utf-8")
    flagged = ok(cli("shrink", path, "--setting", setting, "--budget-chars", 900))
    assert flagged == shrink(conversation, {**CHOSEN.to_dict(), "budget_chars": 900})
    done = cli("shrink", path)
    assert done.returncode == 2 and "shrink needs --setting FILE" in done.stderr.decode()
