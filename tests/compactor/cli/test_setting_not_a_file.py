"""A compaction.toml that is not a regular file (a named pipe nobody writes to, a device, a
folder) is refused at once with what it is, by ``shrink(messages, path)`` and by every command
that takes ``--setting``; a pipe used to block the read forever (issue 34, item 3)."""

import json
import os
import subprocess
import sys

import pytest

from compactor import SettingError, load_setting
from compactor.samples import load_sample
from tests.paths import ROOT

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")

TAU = ROOT / "tests" / "fixtures" / "real" / "tau_airline_3_records.json"
SHRINK = (
    "import sys\n"
    "from compactor import SettingError, shrink\n"
    "history = [{'role': 'user', 'content': 'a'}, {'role': 'assistant', 'content': 'b'}]\n"
    "try:\n"
    "    shrink(history, sys.argv[1])\n"
    "except SettingError as error:\n"
    "    print(error)\n"
)


def run(*args):
    # a read that blocks is killed by the timeout, which fails the test
    return subprocess.run(
        [sys.executable, *map(str, args)], capture_output=True, cwd=ROOT, timeout=30
    )


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "compaction.toml"
    os.mkfifo(path)
    return path


def test_shrink_refuses_a_named_pipe_as_its_setting(fifo):
    done = run("-c", SHRINK, fifo)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().strip() == (
        f"{fifo}: is a named pipe, not a file; a setting is read from a regular file"
    )


@pytest.mark.parametrize("command", ["compact", "shrink", "evaluate"])
def test_every_command_refuses_a_named_pipe_as_its_setting(tmp_path, fifo, command):
    request = tmp_path / "request.json"
    request.write_text(json.dumps(load_sample("support-chat").request), "utf-8")
    done = run(
        "-m", "compactor", command, TAU if command == "evaluate" else request, "--setting", fifo
    )
    err = done.stderr.decode()
    assert done.returncode == 2 and done.stdout == b"", err
    assert f"{fifo}: is a named pipe, not a file" in err and "Traceback" not in err


@pytest.mark.parametrize(("path", "kind"), [("/dev/zero", "a device"), (".", "a folder")])
def test_a_device_or_a_folder_is_said_as_what_it_is(path, kind):
    with pytest.raises(SettingError, match=f"is {kind}, not a file"):
        load_setting(path)
