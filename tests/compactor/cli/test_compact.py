"""`python -m compactor`: valid, invalid and unreadable input, run as a real process."""

import json
import subprocess
import sys

import pytest

from compactor import compact
from tests.paths import GOLDEN, ROOT


def cli(*args, stdin=b""):
    return subprocess.run(
        [sys.executable, "-m", "compactor", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )


def test_compact_a_file_prints_the_response():
    path = GOLDEN / "unicode-cuts.request.json"
    done = cli("compact", str(path))
    assert done.returncode == 0 and done.stderr == b""
    text = done.stdout.decode("utf-8")
    assert "会议改到周四" in text  # UTF-8, not \\u-escaped
    assert json.loads(text) == compact(json.loads(path.read_text("utf-8")))


def test_compact_reads_standard_input_and_can_print_one_line():
    request = (GOLDEN / "dispatcher.request.json").read_bytes()
    done = cli("compact", "-", "--indent", "0", stdin=request)
    assert done.returncode == 0
    assert done.stdout.count(b"\n") == 1


def test_an_invalid_request_prints_every_problem_and_nothing_else():
    request = {"messages": [{"role": "bot", "content": "x"}], "budget_chars": 50}
    done = cli("compact", "-", stdin=json.dumps(request).encode())
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode().splitlines() == [
        "budget_chars: must be at least 100; it is 50",
        "messages: must have at least 2 items; it has 1",
        'messages[0].role: must be one of "system", "user", "assistant", "tool", not "bot"',
    ]


@pytest.mark.parametrize(
    ("stdin", "line"),
    [
        (
            b'{"messages": [\n  {"role": "user",, }]}',
            "line 2, column 19: Expecting property name enclosed in double quotes",
        ),
        (b"", "line 1, column 1: the input is empty; expected a JSON document"),
        (
            b"\x00\xff binary",  # read as every importable file is, which names a binary file
            "line 1, column 1: this is a binary file (it contains NUL bytes), not JSON text; a "
            "UTF-16 file looks like this too: save it as UTF-8",
        ),
        (b"\xff binary", "line 1, column 1: not UTF-8 text (byte 0xff); save the file as UTF-8"),
    ],
)
def test_unreadable_input_says_where(stdin, line):
    done = cli("compact", "-", stdin=stdin)
    assert (done.returncode, done.stdout, done.stderr.decode().strip()) == (2, b"", line)


def test_a_missing_file():
    done = cli("compact", "no/such/file.json")
    assert done.returncode == 2 and done.stdout == b""
    assert (
        done.stderr.decode().strip()
        == "no/such/file.json: cannot read the file (No such file or directory)"
    )


@pytest.mark.slow
def test_help_explains_every_command():
    done = cli("--help")
    assert done.returncode == 0
    text = done.stdout.decode()
    assert "compact" in text and "standard input" in text
    assert b"budget_chars" in cli("compact", "--help").stdout
