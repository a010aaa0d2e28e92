"""`python -m compactor replay` as a real process, checked against the engine's replay."""

import json
import subprocess
import sys

import pytest

from compactor import validate
from compactor.analyses.anchors._report import find_anchors
from compactor.analyses.replay._strategies import Registered, replay_request
from compactor.formats import convert_text
from compactor.samples import load_sample
from compactor.text._tokens import count_tokens
from tests.paths import ROOT

SUPPORT = load_sample("support-chat").request


def cli(*args, stdin=b""):
    return subprocess.run(
        [sys.executable, "-m", "compactor", "replay", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )


def replayed(request, *args):
    done = cli("-", "--indent", "0", *args, stdin=json.dumps(request).encode())
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    return without_needs(json.loads(done.stdout))


def without_needs(printed):
    """The output without part D's needs and misses per turn (checked in test_outcomes.py)."""
    for turn in printed["turns"]:
        assert isinstance(turn.pop("needs"), int) and isinstance(turn.pop("misses"), int)
    return printed


def anchors_of(request, watched=()):
    return [(a.text, a.occurrences) for a in find_anchors(validate(request).contents, watched)]


@pytest.mark.parametrize("policy", ["always", "over-budget"])
@pytest.mark.parametrize("strategy", ["memory-compact", "keep-last", "drop-oldest"])
def test_the_command_prints_the_engines_replay(policy, strategy):
    printed = replayed(SUPPORT, "--policy", policy, "--strategy", strategy)
    expected = replay_request(
        validate(SUPPORT), strategy, policy=policy, facts=anchors_of(SUPPORT)
    ).to_dict()
    assert printed == expected
    assert list(printed) == ["turns", "final"]
    assert list(printed["turns"][0]) == [
        "turn",
        "messages_in",
        "chars_in",
        "messages_out",
        "chars_out",
        "compacted",
        "stable_prefix_messages",
        "stable_prefix_chars",
        "anchors_lost",
    ]


@pytest.mark.slow
def test_parameters_on_the_command_line_override_the_requests():
    printed = replayed(
        SUPPORT,
        *("--budget-chars", "900", "--keep-last-n", "2", "--keep-roles", "system,user"),
        *("--duplicate-threshold", "0.6", "--max-message-chars", "120"),
    )
    changed = {
        **SUPPORT,
        "budget_chars": 900,
        "keep_last_n": 2,
        "keep_roles": ["system", "user"],
        "duplicate_threshold": 0.6,
        "max_message_chars": 120,
    }
    facts = anchors_of(SUPPORT)
    assert printed == replay_request(validate(changed), facts=facts).to_dict()
    assert (
        replayed(SUPPORT, "--keep-roles", "")
        == replay_request(validate({**SUPPORT, "keep_roles": []}), facts=facts).to_dict()
    )


def test_drop_oldest_takes_its_own_parameters():
    args = (
        "--strategy",
        "drop-oldest",
        "--keep-last-messages",
        "3",
        "--max-tokens-estimate",
        "200",
    )
    printed = replayed(SUPPORT, *args, "--drop-tool-parts")
    expected = replay_request(
        validate(SUPPORT),
        "drop-oldest",
        keep_last_messages=3,
        drop_tool_parts=True,
        max_tokens_estimate=200,
        facts=anchors_of(SUPPORT),
    )
    assert printed == expected.to_dict()
    assert all(t["messages_out"] <= 3 for t in printed["turns"])


def test_anchors_and_watched_phrases_are_counted_as_anchors_lost():
    request = {**SUPPORT, "budget_chars": 300}
    plain = replayed(request)
    assert plain == replay_request(validate(request), facts=anchors_of(request)).to_dict()
    assert any(t["anchors_lost"] for t in plain["turns"])
    printed = replayed(request, "--watch", "order", "--watch", "refund")
    expected = replay_request(validate(request), facts=anchors_of(request, ["order", "refund"]))
    assert printed == expected.to_dict()
    assert printed != plain  # the phrases are counted too


@pytest.mark.slow
def test_a_bad_request_or_parameter_exits_2_with_the_reason():
    done = cli("-", "--budget-chars", "50", stdin=json.dumps(SUPPORT).encode())
    assert done.returncode == 2 and done.stdout == b""
    assert b"budget_chars: must be at least 100; it is 50" in done.stderr
    done = cli("-", stdin=b'{"messages": [')
    assert done.returncode == 2 and b"line 1" in done.stderr
    done = cli(
        "-",
        "--strategy",
        "drop-oldest",
        "--keep-last-messages",
        "-1",
        stdin=json.dumps(SUPPORT).encode(),
    )
    assert done.returncode == 2 and b"keepLastMessages" in done.stderr


def test_the_command_is_listed_in_the_help():
    done = subprocess.run(
        [sys.executable, "-m", "compactor", "--help"], capture_output=True, cwd=ROOT, timeout=60
    )
    assert b"replay" in done.stdout


def test_any_importable_conversation_replays_as_its_imported_request():
    path = ROOT / "tests" / "fixtures" / "real" / "codex_exec_session.jsonl"
    conversion = convert_text(path.read_bytes())
    done = cli(str(path), "--indent", "0", "--budget-chars", "2000")
    assert done.returncode == 0, done.stderr
    request = validate({**conversion.request, "budget_chars": 2000})
    expected = replay_request(request, "memory-compact", facts=anchors_of(request.to_dict()))
    assert without_needs(json.loads(done.stdout)) == expected.to_dict()


@pytest.mark.slow
def test_with_an_encoding_each_turn_counts_the_tokens_it_sends():
    printed = replayed(SUPPORT, "--encoding", "cl100k_base", "--policy", "over-budget")
    request = validate(SUPPORT)
    expected = replay_request(
        request, "memory-compact", policy="over-budget", facts=anchors_of(SUPPORT)
    )
    assert [t.pop("tokens_out") for t in printed["turns"]] == [
        sum(count_tokens(m.content, "cl100k_base") for m in history)
        for history in expected.histories[1:]
    ]
    assert printed == expected.to_dict()


def test_any_registry_strategy_replays_with_its_own_parameters():
    args = ("--strategy", "anchor-keep", "--strategy-param", "unit_chars=80")
    printed = replayed(SUPPORT, *args, "--strategy-param", "keep_roles=")
    strategy = Registered(
        "anchor-keep", validate(SUPPORT).params, {"unit_chars": 80, "keep_roles": []}
    )
    expected = replay_request(validate(SUPPORT), strategy, facts=anchors_of(SUPPORT))
    assert printed == expected.to_dict()
    assert printed != replayed(SUPPORT, "--strategy", "anchor-keep")


def test_a_bad_strategy_parameter_exits_2_naming_it():
    done = cli(
        "-",
        "--strategy",
        "vercel-prune",
        "--strategy-param",
        "toolCalls=some",
        stdin=json.dumps(SUPPORT).encode(),
    )
    assert done.returncode == 2 and done.stdout == b""
    assert b"vercel-prune.toolCalls: must be one of" in done.stderr
    assert b"Traceback" not in done.stderr
