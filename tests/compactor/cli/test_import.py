"""`python -m compactor import`: run as a real process on fixtures, broken files and big ones."""

import json
import subprocess
import sys

import pytest

from compactor import validate
from compactor.formats import FORMATS, apply_fixes, convert, convert_text
from tests.compactor.formats.test_convert import FIXTURES
from tests.paths import CORPUS, ROOT


def cli(*args, stdin=b""):
    return subprocess.run(
        [sys.executable, "-m", "compactor", "import", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )


def report_lines(conversion, how, verbose=False):
    """What the import says on standard error: one line counting the changes (the lossy ones by
    kind, most first), then every change with --verbose, or else only a window chosen."""
    changes = conversion.changes
    lossy = {}
    for c in changes:
        if c.lossy:
            lossy[c.kind] = lossy.get(c.kind, 0) + 1
    head = f"read as {how}: {len(conversion.request['messages'])} messages"
    if not changes:
        head += ", no changes"
    else:
        head += f", {len(changes)} change{'s' if len(changes) != 1 else ''}"
        if lossy:
            kinds = sorted(lossy.items(), key=lambda kv: -kv[1])
            said = ", ".join(f"{kind} {n}" for kind, n in kinds)
            head += f", {sum(lossy.values())} of them lossy ({said})"
        else:
            head += ", none lossy"
        head += "; --verbose lists them"
    listed = [c for c in changes if verbose or c.kind in ("kept-last", "kept-window")]
    return [head] + [f"{'lossy' if c.lossy else 'note'} {c.kind}: {c.message}" for c in listed]


@pytest.mark.parametrize(
    "name", ["openai_chat.json", "anthropic_messages.json", "vercel_ui.json", "chat.jsonl"]
)
def test_a_file_prints_the_request_and_reports_every_change(name):
    path = FIXTURES / name
    done = cli(str(path), "--verbose")
    assert done.returncode == 0
    conversion = convert_text(path.read_bytes())
    assert json.loads(done.stdout) == conversion.request
    assert "€" in done.stdout.decode("utf-8") or name != "openai_chat.json"  # UTF-8, not escaped
    expected = report_lines(conversion, f"{conversion.format} (detected)", verbose=True)
    assert done.stderr.decode("utf-8").splitlines() == expected


def test_a_corpus_file_from_standard_input_on_one_line():
    data = (CORPUS / "tau_airline_tool_heavy.json").read_bytes()
    done = cli("-", "--indent", "0", stdin=data)
    assert done.returncode == 0 and done.stdout.count(b"\n") == 1
    validate(json.loads(done.stdout))
    assert done.stderr.decode().startswith("read as openai (detected): 60 messages")


def test_the_format_can_be_named():
    done = cli(str(FIXTURES / "messages.json"), "--format", "openai")
    assert done.returncode == 0
    assert done.stderr.decode().splitlines()[0].startswith("read as openai: 4 messages")


@pytest.mark.parametrize(
    ("args", "stderr"),
    [
        (["empty.json"], "line 1, column 1: the input is empty; expected a JSON document"),
        (["latin1.json"], "line 1, column 37: not UTF-8 text (byte 0xe9); save the file as UTF-8"),
        (["bad_line.jsonl"], "line 3, column 29: Unterminated string starting at"),
        (
            ["nulls.json"],
            "messages[0].role: the message has no role; expected one of system, user, assistant, "
            "tool\nmessages[2]: a message must be an object, not null\n"
            "budget_chars: must be an integer, not null",
        ),
        (
            ["sharegpt.json", "--format", "anthropic"],
            "messages: the list of messages is missing",
        ),
        (
            ["no-such-file.json"],
            "no-such-file.json: cannot read the file (No such file or directory)",
        ),
    ],
)
def test_a_broken_file_exits_2_with_a_clear_message_and_prints_nothing(args, stderr):
    name, *flags = args
    path = FIXTURES / name
    done = cli(str(path) if path.exists() else name, *flags)
    assert (done.returncode, done.stdout, done.stderr.decode().strip()) == (2, b"", stderr)


def test_a_binary_file_is_refused():
    done = cli(str(FIXTURES / "binary.png"))
    assert done.returncode == 2 and done.stdout == b""
    assert "this is a binary file" in done.stderr.decode()


def test_an_unknown_format_name_is_a_usage_error():
    done = cli(str(FIXTURES / "messages.json"), "--format", "yaml")
    assert done.returncode == 2 and done.stdout == b""
    assert "invalid choice: 'yaml'" in done.stderr.decode()


@pytest.fixture
def oversized(tmp_path):
    messages = [
        {"role": "user" if i % 2 == 0 else "assistant", "content": f"message {i} " * (3 + i % 4)}
        for i in range(230)
    ]
    messages[225]["content"] = "long " * 2000
    path = tmp_path / "big.json"
    path.write_text(json.dumps(messages), "utf-8")
    return path, convert(messages)


def test_needed_fixes_are_listed_with_their_flags_and_nothing_is_printed(oversized):
    path, conversion = oversized
    done = cli(str(path))
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode().splitlines() == report_lines(conversion, "messages (detected)") + [
        "not converted: 230 messages are more than 200; add --keep-last to keep the last 200, "
        "--keep-first N to keep the first N too (and the last 200 - N), or --range A:B to keep "
        "messages #A to #B",
        "not converted: 1 content is over 8,000 characters; add --cut-long to cut it",
    ]
    half = cli(str(path), "--keep-last")
    assert half.returncode == 2 and half.stdout == b""
    assert half.stderr.decode().splitlines()[-1].endswith("add --cut-long to cut it")


def test_chosen_fixes_are_applied_and_reported(oversized):
    path, conversion = oversized
    done = cli(str(path), "--keep-last", "--cut-long", "--verbose")
    assert done.returncode == 0
    fixed = apply_fixes(conversion)
    assert json.loads(done.stdout) == fixed.request
    validate(fixed.request)
    lines = done.stderr.decode().splitlines()
    assert lines == report_lines(fixed, "messages (detected)", verbose=True)
    assert lines[-2].startswith("lossy kept-last: kept the last 200 of 230 messages")
    assert lines[-1].startswith("lossy cut-content: #195 (assistant) cut from 10,000 to")


def test_help_explains_formats_fixes_and_exit_codes():
    done = cli("--help")
    assert done.returncode == 0
    text = " ".join(done.stdout.decode().split())
    for name in FORMATS:
        assert f" {name} " in text
    for phrase in (
        "--keep-last",
        "--cut-long",
        "nothing is printed on standard output",
        "exit code is 2",
        "[tool call NAME id=ID] ARGUMENTS",
        "one line per change",
    ):
        assert phrase in text
