"""`python -m compactor outcomes` as a real process, checked against the analyses it prints."""

import json
import subprocess
import sys

import pytest

from compactor import validate
from compactor.analyses.anchors import find_anchors
from compactor.analyses.outcomes import find_needs, outcomes, parse_probes, replay_misses
from compactor.analyses.replay import replay_request
from compactor.samples import load_sample
from tests.paths import ROOT

SUPPORT = load_sample("support-chat").request


def cli(*args, stdin=b"", command="outcomes"):
    return subprocess.run(
        [sys.executable, "-m", "compactor", command, *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )


def test_the_command_prints_the_part_d_figures_as_json():
    done = cli(
        "-", "--indent", "0", "--future", "4", "--draws", "7", stdin=json.dumps(SUPPORT).encode()
    )
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    expected = outcomes(validate(SUPPORT), 4, draws=7).to_dict()
    assert printed == json.loads(json.dumps(expected))
    assert list(printed) == ["parameters", "continuation", "role_balance"]
    assert printed["continuation"]["needed_later_recall"]["random"]["draws"] == 7


def test_parameter_flags_override_and_probes_are_judged(tmp_path):
    probes = {"probes": [{"id": "first", "evidence": [1, 2]}, {"id": "last", "evidence": [3]}]}
    path = tmp_path / "probes.json"
    path.write_text(json.dumps(probes))
    done = cli(
        "-",
        "--probes",
        str(path),
        "--budget-chars",
        "900",
        "--keep-last-n",
        "2",
        stdin=json.dumps(SUPPORT).encode(),
    )
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    request = validate({**SUPPORT, "budget_chars": 900, "keep_last_n": 2})
    parsed = parse_probes(probes, request.messages)
    expected = outcomes(request, probes=parsed).to_dict()
    assert printed == json.loads(json.dumps(expected))
    assert printed["parameters"]["budget_chars"] == 900
    assert printed["probes"]["setting"]["probes"] == 2


def test_an_importable_conversation_is_read_like_compact():
    path = ROOT / "tests" / "fixtures" / "real" / "codex_tool_calls.jsonl"
    done = cli(str(path), "--future", "3")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["continuation"]["future"] == 3


def test_a_bad_probes_file_exits_2_naming_the_path(tmp_path):
    path = tmp_path / "probes.json"
    path.write_text(json.dumps({"probes": [{"id": "x", "evidence": [0]}, {"evidence": ["nope"]}]}))
    done = cli("-", "--probes", str(path), stdin=json.dumps(SUPPORT).encode())
    assert done.returncode == 2 and done.stdout == b""
    assert b"$.probes[1].evidence[0]" in done.stderr and b"Traceback" not in done.stderr
    path.write_text('{"probes": [')
    done = cli("-", "--probes", str(path), stdin=json.dumps(SUPPORT).encode())
    assert done.returncode == 2 and b"line 1" in done.stderr and b"Traceback" not in done.stderr


def test_bad_input_exits_2_without_a_traceback():
    done = cli("-", stdin=b"{not json")
    assert done.returncode == 2 and b"line 1, column" in done.stderr
    assert b"Traceback" not in done.stderr
    done = cli("-", "--future", "0", stdin=json.dumps(SUPPORT).encode())
    assert done.returncode == 2 and b"--future" in done.stderr


def test_a_future_leaving_too_short_a_past_says_why_and_gives_no_figure():
    done = cli(
        "-", "--future", str(len(SUPPORT["messages"]) - 1), stdin=json.dumps(SUPPORT).encode()
    )
    assert done.returncode == 0, done.stderr
    check = json.loads(done.stdout)["continuation"]
    assert check["valid"] is False and check["problems"] and "needed_later_recall" not in check


def test_the_replay_command_prints_needs_and_misses_per_turn():
    done = cli(
        "-",
        "--indent",
        "0",
        "--strategy",
        "keep-last",
        "--budget-chars",
        "600",
        stdin=json.dumps(SUPPORT).encode(),
        command="replay",
    )
    assert done.returncode == 0, done.stderr
    request = validate({**SUPPORT, "budget_chars": 600})
    facts = [(a.text, a.occurrences) for a in find_anchors(request.contents)]
    played = replay_request(request, "keep-last", facts=facts)
    misses = replay_misses(played, find_needs(request.contents, request.roles))
    turns = json.loads(done.stdout)["turns"]
    assert [(t["needs"], t["misses"]) for t in turns] == [(t.needs, t.misses) for t in misses.turns]
    assert any(t["misses"] for t in turns)


def test_a_long_system_prompt_is_kept_by_the_baselines_too_and_the_label_says_so(capsys):
    """The newcomer's finding (issue 36, item 2): on a tau-bench file whose 6,155-character
    system prompt memory-compact keeps (keep_roles system), keep-last and random dropped it at
    8,000 characters and looked better than the product. They now keep it first, say so, and
    the bare figures stay one key away."""
    from compactor.cli import main
    from compactor.formats import convert
    from tests.compactor.analyses.outcomes.brute import (
        plain_keep_last,
        plain_needs,
        plain_protected,
        plain_recall,
        whole,
    )
    from tests.paths import CORPUS

    path = CORPUS / "tau_airline_tool_heavy.json"
    assert main(["outcomes", str(path), "--budget-chars", "8000", "--indent", "0"]) == 0
    check = json.loads(capsys.readouterr().out)["continuation"]
    assert check["baselines"]["form"] == "protected"
    assert check["baselines"]["keep_last_label"] == "keep-last, system prompt kept"
    assert check["baselines"]["random_label"] == "random, system prompt kept"
    assert check["baselines"]["protected_messages"] == [0]
    assert check["baselines"]["protected_chars"] > 6000
    # the figures are the protected keep-last's, by its plain definition
    request = validate({**convert(json.loads(path.read_text())).request, "budget_chars": 8000})
    contents, past = request.contents, len(request.contents) - 5
    lengths = [len(c) for c in contents[:past]]
    needs = plain_needs(contents, request.roles)
    protected = [True] + [False] * (past - 1)
    kept = plain_protected(plain_keep_last, lengths, 8000, protected)
    assert 0 in kept and 0 not in plain_keep_last(lengths, 8000)
    judged, met = plain_recall(needs, contents, whole(contents, kept), past)
    figures = check["needed_later_recall"]
    assert figures["keep_last"]["met"] == len(met) and figures["keep_last"]["needs"] == len(judged)
    bare = check["bare"]["needed_later_recall"]
    assert bare["keep_last"]["recall"] > figures["keep_last"]["recall"]  # it had dropped 6,155
    assert figures["lift"] == pytest.approx(
        figures["setting"]["recall"] - figures["keep_last"]["recall"],
        abs=2e-6,  # 3 roundings
    )
    assert main(["outcomes", str(path), "--budget-chars", "8000", "--baselines", "bare"]) == 0
    shown = json.loads(capsys.readouterr().out)["continuation"]
    assert shown["baselines"]["keep_last_label"] == "keep-last, bare"
    assert shown["needed_later_recall"]["keep_last"] == bare["keep_last"]
