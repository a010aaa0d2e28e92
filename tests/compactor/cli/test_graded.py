"""`python -m compactor graded` as a real process: the grading as JSON, bad input as exit 2
with where, never a traceback."""

import json
import subprocess
import sys

from compactor import validate
from compactor.analyses import REREAD_JUDGE, grade
from compactor.cli import main
from compactor.formats import convert_text
from tests.compactor.analyses.test_rereads import A, Log, numbered
from tests.paths import ROOT

FIXTURES = ROOT / "tests" / "fixtures"
CLAUDE = FIXTURES / "compactions" / "claude_code_two_compactions.jsonl"


def cli(*args, stdin=b""):
    return subprocess.run(
        [sys.executable, "-m", "compactor", "graded", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )


def test_the_command_prints_the_grading_as_json():
    done = cli(str(CLAUDE), "--indent", "0")
    assert done.returncode == 0, done.stderr
    conversion = convert_text(CLAUDE.read_bytes())
    expected = grade(validate(conversion.request), conversion.compactions).to_dict()
    assert json.loads(done.stdout) == json.loads(json.dumps(expected))
    assert json.loads(done.stdout)["recorded_compactions"] == 2


def test_parameter_flags_reach_memory_compact_and_stdin_reads():
    done = cli("-", "--keep-last-n", "0", stdin=CLAUDE.read_bytes())
    assert done.returncode == 0, done.stderr
    conversion = convert_text(CLAUDE.read_bytes())
    request = validate({**conversion.request, "keep_last_n": 0})
    assert json.loads(done.stdout) == json.loads(
        json.dumps(grade(request, conversion.compactions).to_dict())
    )


def test_a_conversation_without_a_compaction_prints_an_empty_list():
    done = cli(str(FIXTURES / "real" / "codex_exec_session.jsonl"))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"recorded_compactions": 0, "compactions": []}


def test_bad_input_exits_2_with_where_and_no_traceback(tmp_path):
    broken = cli(str(FIXTURES / "formats" / "truncated.json"))
    assert broken.returncode == 2
    assert broken.stderr.decode().startswith("line ")
    missing = cli(str(tmp_path / "nope.jsonl"))
    assert missing.returncode == 2
    assert "nope.jsonl: cannot read the file" in missing.stderr.decode()
    for done in (broken, missing):
        assert b"Traceback" not in done.stderr and done.stdout == b""


def test_a_log_over_the_limits_is_graded_whole_and_the_fixes_stay_options(tmp_path):
    lines = CLAUDE.read_text("utf-8").splitlines()
    notes = [
        json.dumps({"type": "user", "message": {"role": "user", "content": f"n{i}"}})
        for i in range(199)
    ]
    long_log = tmp_path / "long.jsonl"
    long_log.write_text("\n".join(notes + lines), "utf-8")
    alone = json.loads(cli(str(CLAUDE)).stdout)["compactions"]
    whole = cli(str(long_log))
    assert whole.returncode == 0, whole.stderr
    graded = json.loads(whole.stdout)["compactions"]
    assert [c["boundary"] for c in graded] == [c["boundary"] + 199 for c in alone]
    assert graded[0]["past_messages"] == graded[0]["boundary"] > 200  # no window
    fixed = cli(str(long_log), "--keep-last")
    assert fixed.returncode == 0, fixed.stderr
    assert [c["boundary"] for c in json.loads(fixed.stdout)["compactions"]] == [195, 198]


def test_the_files_read_again_after_a_compaction_are_in_the_json_with_the_judge(tmp_path, capsys):
    """In process (main), since the process itself is held by the tests above."""
    log = Log().read(A, result=numbered(1, 30)).compact("Summary. " * 30).read(A, limit=3)
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in log.records), "utf-8")
    assert main(["graded", str(path), "--indent", "0"]) == 0
    (said,) = json.loads(capsys.readouterr().out)["compactions"]
    assert said["rereads"]["judge"] == REREAD_JUDGE
    assert (said["rereads"]["rereads"], said["rereads"]["files"][0]["after_lines"]) == (
        1,
        "lines 1-3",
    )
    assert said["rereads"]["chars"] == len(numbered(1, 30))
    rows = {r["key"]: r for r in said["rows"]}
    assert rows["recorded"]["reread_recall"] == {"rereads": 1, "held": 0, "recall": 0.0}
    assert rows["keep-last"]["reread_recall"]["rereads"] == 1
