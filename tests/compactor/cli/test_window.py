"""A conversation over 200 messages keeps a window of them on the command line: the head and
the tail (``--keep-first N [--keep-last M]``) or a range (``--range A:B``), and the report says
what was left out. Issue 26: a 704-message Codex rollout kept only its last 200, losing the
session's instructions and its task."""

import json

import pytest

from compactor import validate
from compactor.cli._main import main
from compactor.formats import Window, apply_fixes, convert_text
from tests.long_logs import long_codex_rollout


@pytest.fixture(scope="module")
def rollout(tmp_path_factory):
    data = long_codex_rollout(long_outputs=(3,))
    path = tmp_path_factory.mktemp("logs") / "rollout.jsonl"
    path.write_bytes(data)
    return path, convert_text(data)


def run(capsys, *argv):
    code = main([*map(str, argv), "--indent", "0"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out else None), err.splitlines()


def test_the_head_and_the_tail_keep_the_instructions_and_the_task(rollout, capsys):
    path, conversion = rollout
    messages = conversion.request["messages"]
    n = len(messages)
    assert n > 700
    code, request, err = run(capsys, "import", path, "--keep-first", 4, "--cut-long")
    assert code == 0, err
    validate(request)
    kept = request["messages"]
    assert len(kept) == 200
    assert [m["content"] for m in kept[:4]] == [m["content"] for m in messages[:4]]
    assert kept[0]["role"] == "system" and kept[3]["content"] == "[REDACTED_PROMPT]"
    assert [m["content"] for m in kept[4:]] == [m["content"] for m in messages[n - 196 :]]
    removed_chars = sum(len(m["content"]) for m in messages[4 : n - 196])
    assert (
        f"lossy kept-window: kept #0 to #3 and #{n - 196} to #{n - 1} (200 of {n:,} messages): "
        f"#4 to #{n - 197} were removed ({n - 200:,} messages, {removed_chars:,} characters)"
    ) in err


def test_a_head_and_a_tail_of_chosen_sizes_and_compact_reads_it_the_same_way(rollout, capsys):
    path, conversion = rollout
    n = len(conversion.request["messages"])
    code, request, err = run(capsys, "import", path, "--keep-first", 4, "--keep-last", 100)
    assert code == 0, err
    expected = apply_fixes(conversion, cut_long=False, window=Window(first=4, last=100))
    assert request == expected.request and len(request["messages"]) == 104
    assert any(f"#4 to #{n - 101} were removed" in line for line in err)
    code, response, err = run(capsys, "compact", path, "--keep-first", 4, "--keep-last", 100)
    assert code == 0, err
    assert response["loss"]["input_messages"] == 104


def test_a_range_keeps_exactly_those_messages(rollout, capsys):
    path, conversion = rollout
    messages = conversion.request["messages"]
    code, request, err = run(capsys, "import", path, "--range", "10:209", "--cut-long")
    assert code == 0, err
    cut = [m["content"][:8000] for m in messages[10:210]]  # one is over 8,000 (ASCII)
    assert [m["content"] for m in request["messages"]] == cut
    assert any(line.startswith("lossy kept-window: kept #10 to #209 (200 of") for line in err)
    assert any(f"#0 to #9 and #210 to #{len(messages) - 1} were removed" in line for line in err)


@pytest.mark.parametrize(
    ("flags", "problem"),
    [
        (
            ("--range", "0:300"),
            "window: the window keeps 301 messages and a request holds at most 200: keep 101 fewer",
        ),
        (("--keep-first", 150, "--keep-last", 100), "window: the window keeps 250 messages"),
        (("--range", "9:3"), "window: the range #9 to #3 is not within the"),
        (("--range", "3:", "--keep-first", 2), "--range keeps one range: give it without"),
    ],
)
def test_a_window_that_cannot_make_a_request_says_why(rollout, capsys, flags, problem):
    path, _ = rollout
    code, printed, err = run(capsys, "import", path, *flags)
    assert (code, printed) == (2, None)
    assert any(line.startswith(problem) for line in err), err


def test_without_a_fix_the_error_names_every_way(rollout, capsys):
    """compact is the contract: a session over its limits needs a window (or --agent)."""
    path, _ = rollout
    code, printed, err = run(capsys, "compact", path)
    assert (code, printed) == (2, None)
    assert any("--keep-first N to keep the first N too" in line for line in err)
    assert any("--range A:B" in line for line in err)


@pytest.mark.parametrize("command", ["anchors", "sweep", "tokens"])
def test_the_analyses_read_the_whole_session_and_a_window_stays_an_option(rollout, capsys, command):
    path, conversion = rollout
    n = len(conversion.request["messages"])
    code, whole, err = run(capsys, command, path)
    assert code == 0, err
    code, windowed, err = run(capsys, command, path, "--keep-last", "--cut-long")
    assert code == 0, err
    if command == "sweep":
        assert (len(whole), len(windowed)) == (n, 200)


def test_import_and_compact_take_the_whole_session_with_agent(rollout, capsys):
    path, conversion = rollout
    code, request, err = run(capsys, "import", path, "--agent")
    assert code == 0, err
    assert request["messages"] == conversion.request["messages"]  # nothing cut or left out
    code, response, err = run(capsys, "compact", path, "--agent")
    assert code == 0, err
    assert response["loss"]["input_messages"] == len(request["messages"])


def test_a_file_over_the_input_limit_is_refused_before_it_is_read(tmp_path):
    import os
    import subprocess
    import sys

    path = tmp_path / "session.jsonl"
    path.write_bytes(b'{"role": "user", "content": "hi"}\n' * 40)
    env = {**os.environ, "COMPACTOR_MAX_INPUT_BYTES": "1000"}
    for argv in (["anchors", str(path)], ["compact", "-"]):
        done = subprocess.run(
            [sys.executable, "-m", "compactor", *argv],
            input=path.read_bytes(),
            capture_output=True,
            env=env,
        )
        err = done.stderr.decode()
        assert done.returncode == 2 and "Traceback" not in err
        assert "over the limit of 1,000 bytes" in err
        assert ("1,360 bytes" in err) == (argv[1] != "-")
