"""The hostile corpus through the command line: `python -m compactor compact -`, a real process."""

import re
import subprocess
import sys

import pytest

from compactor.errors import MAX_PROBLEMS
from harness.hostile_cases import CASES, COMPACT, MAX_ERROR_BYTES
from tests.paths import ROOT


def compact_cli(body: bytes) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "compactor", "compact", "-", "--indent", "0"],
        input=body,
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )


WHERE = re.compile(r"^(\$|[A-Za-z_][\w.\[\]\"]*|\[\d+\][\w.\[\]]*|line \d+, column \d+): ")


@pytest.mark.parametrize("case", [c for c in CASES if c.route == COMPACT], ids=lambda c: c.name)
def test_the_cli_refuses_every_hostile_body_with_exit_2_one_line_per_problem(case):
    done = compact_cli(case.body())
    report = done.stderr.decode("utf-8")
    assert "Traceback" not in report
    if case.status == 200:
        assert done.returncode == 0 and done.stdout.endswith(b"\n")
        return
    assert done.returncode == 2 and done.stdout == b""
    lines = report.splitlines()
    # compact imports a file that is not a request (issue 12), so the first problem may be the
    # importer's (messages[0]: ...) rather than the schema's; either way it names where it is
    assert lines[0].startswith(f"{case.where}: ") or WHERE.match(lines[0]), lines[0]
    assert 1 <= len(lines) <= MAX_PROBLEMS + 1
    assert all(": " in line for line in lines)  # each line says where, then what
    assert len(done.stderr) < MAX_ERROR_BYTES


def test_a_long_unknown_key_is_echoed_shortened():
    [case] = [c for c in CASES if c.name == "long-unknown-key"]
    report = compact_cli(case.body()).stderr.decode()
    assert "k" * 41 not in report
    assert report.startswith('["' + "k" * 40 + '…"]: unknown field; allowed fields are')


def test_control_characters_in_a_key_reach_the_terminal_escaped():
    [case] = [c for c in CASES if c.name == "control-characters-in-a-key"]
    report = compact_cli(case.body()).stderr
    assert b"\x1b" not in report and "\u202e".encode() not in report
    assert report.startswith(b'["\\u001b[31mred\\u202e"]: unknown field')
