"""`compact FILE` on any importable file: parameter overrides, --emit, the orphans on stderr."""

import json

import pytest

from compactor import compact
from compactor.formats import convert_text, export
from tests.compactor.cli.test_compact import cli
from tests.compactor.formats.test_export import CALLING, anthropic_problems, openai_problems
from tests.paths import ROOT

REAL = ROOT / "tests" / "fixtures" / "real"
TAU = REAL / "tau_airline_3_records.json"


def test_a_raw_openai_list_is_imported_then_compacted_with_the_changes_on_stderr():
    messages = json.loads((REAL / "tau_airline_3_records.json").read_text("utf-8"))[0]["traj"]
    args = ("compact", "-", "--budget-chars", "3000", "--verbose")
    done = cli(*args, stdin=json.dumps(messages).encode())
    assert done.returncode == 0, done.stderr
    lines = done.stderr.decode().splitlines()
    assert lines[0].startswith("read as openai (detected): 13 messages")
    assert "lossy (empty-result-removed 1" in lines[0]
    assert any(line.startswith("lossy empty-result-removed:") for line in lines)
    assert not any("budget-chosen" in line for line in lines)  # the budget was given
    request = {**convert_text(json.dumps(messages)).request, "budget_chars": 3000}
    assert json.loads(done.stdout) == compact(request)


@pytest.mark.slow
def test_overrides_replace_the_files_own_parameters_and_the_schema_checks_them():
    path = ROOT.parent / "shared" / "golden" / "dispatcher.request.json"
    original = json.loads(path.read_text("utf-8"))
    flags = ["--budget-chars", "250", "--keep-last-n", "1", "--keep-roles", "system,tool"]
    flags += ["--duplicate-threshold", "0.75", "--max-message-chars", "90"]
    done = cli("compact", str(path), *flags)
    assert done.returncode == 0 and done.stderr == b""
    expected = {**original, "budget_chars": 250, "keep_last_n": 1, "keep_roles": ["system", "tool"]}
    expected |= {"duplicate_threshold": 0.75, "max_message_chars": 90}
    assert json.loads(done.stdout) == compact(expected)
    none = cli("compact", str(path), "--keep-roles", "")
    assert json.loads(none.stdout)["stages"][0]["rule"]["keep_roles"] == []
    bad = cli("compact", str(path), "--budget-chars", "50")
    assert bad.returncode == 2 and bad.stdout == b""
    assert bad.stderr.decode().startswith("budget_chars: ")


def test_a_file_of_many_conversations_names_both_ways_forward():
    done = cli("compact", str(TAU))
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode() == (
        "the file holds 3 conversations (records 0 to 2, each holding traj): a request is one "
        "conversation, so pick one with --record N (0 to 2), or convert every record with --all "
        "(one JSON line each)\n"
    )


def test_emit_openai_on_a_tau_record_follows_the_tool_call_rules():
    done = cli(
        "compact", str(TAU), "--record", "0", "--budget-chars", "2500", "--keep-last-n", "4",
        "--emit", "openai",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    messages = json.loads(done.stdout)
    assert openai_problems(messages) == []
    conversion = convert_text(TAU.read_bytes(), record=0)
    request = {**conversion.request, "budget_chars": 2500, "keep_last_n": 4}
    empty = {call for _, call in conversion.removed_results}
    expected = export(compact(request), request, "openai", empty_results=empty)
    assert messages == expected.value
    notes = [line for line in done.stderr.decode().splitlines() if line.startswith("export ")]
    assert notes == [f"export openai: {note}" for note in expected.notes]


def test_orphans_are_reported_on_stderr_and_kept_as_text_when_asked():
    request = {"messages": CALLING, "budget_chars": 100, "keep_last_n": 2, "keep_roles": []}
    stdin = json.dumps(request).encode()
    done = cli("compact", "-", "--emit", "anthropic", stdin=stdin)
    assert done.returncode == 0
    assert "export anthropic: #2: dropped the tool result for call c1" in done.stderr.decode()
    assert anthropic_problems(json.loads(done.stdout)) == []
    kept = cli("compact", "-", "--emit", "openai", "--keep-orphans", stdin=stdin)
    assert json.loads(kept.stdout)[0]["role"] == "user"  # the result, kept as user text
    assert "kept as user text" in kept.stderr.decode()


def test_emit_same_writes_the_files_format_or_says_why_it_cannot():
    anthropic = {"system": "Be brief.", "messages": [
        {"role": "user", "content": "Hi there, where is my parcel?"},
        {"role": "assistant", "content": [{"type": "text", "text": "On its way."}]},
    ]}  # fmt: skip
    done = cli("compact", "-", "--emit", "same", stdin=json.dumps(anthropic).encode())
    body = json.loads(done.stdout)
    assert body["system"] == "Be brief." and body["messages"][1]["role"] == "assistant"
    codex = cli("compact", str(REAL / "codex_tool_calls.jsonl"), "--emit", "same")
    assert codex.returncode == 2 and codex.stdout == b""
    assert "--emit same: the input is codex" in codex.stderr.decode()


def test_requests_are_compacted_as_sent_so_their_schema_errors_stay_errors():
    request = {"messages": [{"role": "user", "content": ""}, {"role": "user", "content": "x"}]}
    request["budget_chars"] = 400
    done = cli("compact", "-", stdin=json.dumps(request).encode())
    assert done.returncode == 2
    assert done.stderr.decode().startswith("messages[0].content: ")
