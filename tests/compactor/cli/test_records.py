"""`import --record N` and `import --all` over files and folders, as SPEC part C numbers them."""

import json
import shutil

import pytest

from compactor.formats import convert_text
from tests.compactor.cli.test_compact import cli
from tests.paths import ROOT

REAL = ROOT / "tests" / "fixtures" / "real"
TAU = REAL / "tau_airline_3_records.json"


@pytest.mark.slow
def test_record_picks_one_conversation_numbered_from_zero():
    done = cli("import", str(TAU), "--record", "2")
    assert done.returncode == 0
    assert json.loads(done.stdout) == convert_text(TAU.read_bytes(), record=2).request
    out_of_range = cli("import", str(TAU), "--record", "3")
    assert out_of_range.returncode == 2
    assert "there is no record 3: the file holds 3 conversations" in out_of_range.stderr.decode()
    negative = cli("import", str(TAU), "--record", "-1")
    assert negative.returncode == 2 and b"numbered from 0" in negative.stderr


def test_all_prints_one_line_per_record_with_its_id():
    done = cli("import", str(TAU), "--all")
    assert done.returncode == 0
    lines = [json.loads(line) for line in done.stdout.decode().splitlines()]
    records = json.loads(TAU.read_text("utf-8"))
    assert [(x["record"], x["id"]) for x in lines] == [
        (i, r["task_id"]) for i, r in enumerate(records)
    ]
    for i, line in enumerate(lines):
        assert set(line) == {"record", "id", "request"}
        assert line["request"] == convert_text(TAU.read_bytes(), record=i).request
    assert all(line.startswith("record ") for line in done.stderr.decode().splitlines())


def test_a_folder_is_a_corpus_of_its_files(tmp_path):
    shutil.copy(TAU, tmp_path / "tau.json")
    (tmp_path / "logs").mkdir()
    shutil.copy(REAL / "claude_code_hello_world.jsonl", tmp_path / "logs" / "session.jsonl")
    (tmp_path / "notes.txt").write_text("not read")
    done = cli("import", str(tmp_path), "--all")
    assert done.returncode == 0, done.stderr
    records = [json.loads(line)["record"] for line in done.stdout.decode().splitlines()]
    assert records == ["logs/session.jsonl", "tau.json#0", "tau.json#1", "tau.json#2"]
    without_all = cli("import", str(tmp_path))
    assert without_all.returncode == 2 and b"add --all" in without_all.stderr


def test_a_bad_record_or_file_is_named_and_the_others_still_convert(tmp_path):
    records = json.loads(TAU.read_text("utf-8"))
    records[1]["traj"][2]["role"] = "robot"
    (tmp_path / "tau.json").write_text(json.dumps(records))
    (tmp_path / "broken.json").write_text("{nope")
    done = cli("import", str(tmp_path), "--all")
    assert done.returncode == 2
    assert [json.loads(x)["record"] for x in done.stdout.decode().splitlines()] == [
        "tau.json#0",
        "tau.json#2",
    ]
    errors = done.stderr.decode()
    assert "broken.json: line 1, column 2:" in errors
    assert "record tau.json#1: [1].traj[2].role: 'robot' is not a role" in errors
